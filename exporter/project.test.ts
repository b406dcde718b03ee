/**
 * The project an export writes around its program, for each language: the files, the runtime,
 * the secrets declared as secret config, the plugin for YAML and Python, Python's requirements.
 */
import * as YAML from "yaml";
import type { ApiClient } from "../provider/client";
import groupProvider = require("../resources/iam/group/provider");
import idpProvider = require("../resources/iam/identityProvider/provider");
import { declareOrganization } from "./declare";
import { exportOrganization } from "./index";
import { PLUGIN_PATH, projectFiles } from "./project";

const model = declareOrganization(
  {
    under: "root",
    kinds: [
      { exported: { domain: "iam", kind: groupProvider.kind }, records: [{ uid: "root/a", name: "team" }] },
      {
        exported: { domain: "iam", kind: idpProvider.kind },
        records: [{ uid: "root/a/p", name: "sso", oidc: { issuer: "https://x", clientId: "c" } }],
      },
    ],
  },
  { manageDeletes: false, roles: new Map() },
);
const options = { name: "team", description: "Exported" };

describe("the exported project", () => {
  test("TypeScript and JavaScript: Pulumi.yaml (nodejs, the secret declared), package.json, the program", () => {
    const ts = projectFiles(model, { ...options, language: "typescript" });
    expect(Object.keys(ts)).toEqual(["Pulumi.yaml", "package.json", "index.ts", "tsconfig.json"]);
    expect(YAML.parse(ts["Pulumi.yaml"])).toEqual({
      name: "team",
      runtime: "nodejs",
      description: "Exported",
      config: { "team:ssoOidcClientSecret": { type: "string", secret: true } },
    });
    const js = projectFiles(model, { ...options, language: "javascript" });
    expect(Object.keys(js)).toEqual(["Pulumi.yaml", "package.json", "index.js"]);
    expect(JSON.parse(js["package.json"])).toMatchObject({ main: "index.js" });
  });

  test("YAML: Pulumi.yaml is the program (runtime yaml, the plugin, the secret as config), package.json installs the plugin", () => {
    const yaml = projectFiles(model, { ...options, language: "yaml" });
    expect(Object.keys(yaml)).toEqual(["Pulumi.yaml", "package.json"]);
    const program = YAML.parse(yaml["Pulumi.yaml"]) as Record<string, unknown>;
    expect(program).toMatchObject({
      name: "team",
      runtime: "yaml",
      plugins: { providers: [{ name: "platform", path: PLUGIN_PATH }] },
      config: { ssoOidcClientSecret: { type: "string", secret: true } },
    });
    expect(Object.keys(program.resources as object)).toEqual(["team", "sso"]);
    expect(JSON.parse(yaml["package.json"])).toMatchObject({ dependencies: { "platform-pulumi": expect.any(String) } });
  });

  test("Python: Pulumi.yaml (runtime python, the plugin, the secret), __main__.py, requirements.txt with the SDK", () => {
    const python = projectFiles(model, { ...options, language: "python" });
    expect(Object.keys(python)).toEqual(["Pulumi.yaml", "__main__.py", "requirements.txt", "package.json"]);
    expect(YAML.parse(python["Pulumi.yaml"])).toEqual({
      name: "team",
      runtime: "python",
      description: "Exported",
      plugins: { providers: [{ name: "platform", path: PLUGIN_PATH }] },
      config: { "team:ssoOidcClientSecret": { type: "string", secret: true } },
    });
    const requirements = python["requirements.txt"].split("\n").filter((line) => line && !line.startsWith("#"));
    expect(requirements).toEqual(["pulumi>=3.269.0,<4.0.0", "./sdk/python"]);
    expect(python["requirements.txt"]).toContain(`pulumi package gen-sdk ${PLUGIN_PATH}/pulumi-resource-platform`);
  });

  test("--js and another --language contradict each other: refused before any request", async () => {
    const client = {} as ApiClient;
    await expect(
      exportOrganization({ under: "root/a", out: "never", js: true, language: "yaml", client }),
    ).rejects.toThrow("--js writes JavaScript, and --language says yaml: give one of them");
  });
});
