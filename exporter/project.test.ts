/**
 * The project an export writes around its program, for each language: the files, the runtime,
 * the secrets declared as secret config, the plugin for YAML and Python, Python's requirements.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { repoRoot } from "../tools/host/stage";
import type { ApiClient } from "../core/transport/client";
import groupProvider = require("../resources/iam/group/provider");
import idpProvider = require("../resources/iam/identityProvider/provider");
import { declareOrganization } from "./declare";
import { exportOrganization } from "./index";
import { pluginInstallCommand, projectFiles } from "./project";

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

  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  const installComment =
    `# Runs on the native provider \`platform\` ${version}, installed once from its release archive\n` +
    "# (docs/guides/plugin-install.md):\n" +
    `#   pulumi plugin install resource platform ${version} --file pulumi-resource-platform-v${version}-<os>-<arch>.tar.gz\n` +
    "runtime: ";

  test("the plugin is installed from its release archive by `pulumi plugin install`, naming this version", () => {
    expect(pluginInstallCommand()).toBe(
      `pulumi plugin install resource platform ${version} --file pulumi-resource-platform-v${version}-<os>-<arch>.tar.gz`,
    );
  });

  test("YAML: Pulumi.yaml alone is the project (runtime yaml, the secret as config), naming the plugin's version and how to install it, no path to it, nothing for npm", () => {
    const yaml = projectFiles(model, { ...options, language: "yaml" });
    expect(Object.keys(yaml)).toEqual(["Pulumi.yaml"]);
    const program = YAML.parse(yaml["Pulumi.yaml"]) as Record<string, unknown>;
    expect(program).toMatchObject({
      name: "team",
      runtime: "yaml",
      config: { ssoOidcClientSecret: { type: "string", secret: true } },
    });
    expect(Object.keys(program)).not.toContain("plugins");
    expect(yaml["Pulumi.yaml"]).toContain(`${installComment}yaml\n`);
    expect(yaml["Pulumi.yaml"]).not.toMatch(/node_modules|npm/);
    expect(Object.keys(program.resources as object)).toEqual(["team", "sso"]);
  });

  test("Python: Pulumi.yaml (runtime python, the plugin, the secret), __main__.py, requirements.txt with the SDK", () => {
    const python = projectFiles(model, { ...options, language: "python" });
    expect(Object.keys(python)).toEqual(["Pulumi.yaml", "__main__.py", "requirements.txt"]);
    expect(YAML.parse(python["Pulumi.yaml"])).toEqual({
      name: "team",
      runtime: "python",
      description: "Exported",
      config: { "team:ssoOidcClientSecret": { type: "string", secret: true } },
    });
    expect(python["Pulumi.yaml"]).toContain(`\n${installComment}python\n`);
    for (const file of Object.values(python)) expect(file).not.toMatch(/node_modules|npm/);
    const requirements = python["requirements.txt"].split("\n").filter((line) => line && !line.startsWith("#"));
    expect(requirements).toEqual(["pulumi>=3.269.0,<4.0.0", "./sdk/python"]);
    expect(python["requirements.txt"]).toContain(
      `pulumi package gen-sdk platform@${version} --language python --out sdk`,
    );
  });

  test("--js and another --language contradict each other: refused before any request", async () => {
    const client = {} as ApiClient;
    await expect(
      exportOrganization({ under: "root/a", out: "never", js: true, language: "yaml", client }),
    ).rejects.toThrow("--js writes JavaScript, and --language says yaml: give one of them");
  });
});
