/**
 * SDKs of the native provider, committed under sdk/ (tools/pulumi-cli/sdks.ts, written by `npm run
 * generate` with `platform-gen-sdk`, pkg/v3's own code generators; tools/generate/generate.test.ts
 * shows they are what the schema gives now). The schema the built plugin answers under the real CLI
 * (`pulumi package get-schema`) is the one native/schema.ts writes and sdk/schema.json holds; the Node.js SDK
 * compiles against the @pulumi/pulumi the package depends on and packs with npm, the Python SDK
 * builds into a wheel, each naming the plugin and its version as Pulumi's generated SDKs do; the
 * Python SDK installs with pip into the cached venv's Python and imports, a class per kind; the Go
 * SDK is a module at the schema's import path, and parses.
 * examples/org-hierarchy-python runs a whole organization through the Python SDK.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../tools/host/stage";
import { pythonWithPulumiSdk } from "../tools/pulumi-cli/pythonSdk";
import {
  installPythonSdk,
  packSdks,
  schemaFromPlugin,
  SDK_LANGUAGES,
  SdkLanguage,
  SdkPackages,
} from "../tools/pulumi-cli/sdks";
import { describedKinds, packageSchema } from "./schema";

jest.setTimeout(300_000);

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const answer = spawnSync(file, args, { cwd, encoding: "utf8", timeout: 240_000, env: { ...process.env, ...env } });
  if (answer.error || answer.status !== 0)
    throw new Error(
      `${path.basename(file)} ${args.join(" ")} failed: ${answer.error?.message ?? ""}${answer.stdout}${answer.stderr}`,
    );
  return answer.stdout;
}

describe("the committed SDKs, from the schema the native provider answers (npm run sdks)", () => {
  let scratch: string;
  let sdks: Record<SdkLanguage, string>;
  let packages: SdkPackages;

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-sdks-"));
    // A copy: packing writes build outputs into the SDKs' folders.
    fs.cpSync(path.join(repoRoot, "sdk"), scratch, { recursive: true });
    sdks = Object.fromEntries(SDK_LANGUAGES.map((language) => [language, path.join(scratch, language)])) as Record<
      SdkLanguage,
      string
    >;
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("the plugin answers the schema native/schema.ts writes from the descriptions, which sdk/schema.json holds", () => {
    const answered = schemaFromPlugin();
    expect(answered).toEqual(JSON.parse(JSON.stringify(packageSchema(version))));
    expect(JSON.parse(fs.readFileSync(path.join(scratch, "schema.json"), "utf8"))).toEqual(answered);
  });

  test("Node.js: a class per described kind, compiled (strict) against @pulumi/pulumi and packed by npm, naming the plugin and its version", () => {
    const out = sdks.nodejs;
    for (const kind of describedKinds())
      expect(
        fs.readFileSync(
          path.join(out, kind.domain, `${kind.typeName[0].toLowerCase()}${kind.typeName.slice(1)}.ts`),
          "utf8",
        ),
      ).toContain(`export class ${kind.typeName} extends pulumi.CustomResource`);
    packages = packSdks(sdks, path.join(scratch, "dist"), pythonWithPulumiSdk());
    expect(path.basename(packages.nodejs)).toBe(`platform-pulumi-platform-${version}.tgz`);
    const files = run("tar", ["-tzf", packages.nodejs], scratch).trim().split("\n");
    expect(files).toEqual(expect.arrayContaining(["package/package.json", "package/index.js", "package/iam/group.js"]));
    expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
    const manifest = JSON.parse(run("tar", ["-xzOf", packages.nodejs, "package/package.json"], scratch)) as Record<
      string,
      unknown
    >;
    // What Pulumi's generated SDKs carry: the engine installs (or finds) this plugin for the package's resources.
    expect(manifest).toMatchObject({
      name: "@platform-pulumi/platform",
      version,
      license: "Apache-2.0",
      pulumi: { resource: true, name: "platform", version, server: packageSchema(version).pluginDownloadURL },
    });
  });

  test("Python: a wheel naming the plugin and its version; pip installs pulumi_platform, which imports with a class per described kind and the Provider", () => {
    const python = pythonWithPulumiSdk();
    expect(path.basename(packages.python)).toBe(`pulumi_platform-${version}-py3-none-any.whl`);
    const plugin = JSON.parse(
      run(
        python,
        [
          "-c",
          "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('pulumi_platform/pulumi-plugin.json').decode())",
          packages.python,
        ],
        scratch,
      ),
    ) as unknown;
    expect(plugin).toEqual({
      resource: true,
      name: "platform",
      version,
      server: packageSchema(version).pluginDownloadURL,
    });
    const site = path.join(scratch, "python-site");
    installPythonSdk(python, sdks.python, site);
    const tokens = describedKinds().map((kind) => [kind.domain, kind.typeName]);
    const probe = [
      "import json, sys",
      "import pulumi_platform as platform",
      "found = {}",
      "for domain, name in json.loads(sys.argv[1]):",
      "    cls = getattr(getattr(platform, domain), name)",
      "    found[f'{domain}.{name}'] = cls.__mro__[1].__name__",
      "found['Provider'] = platform.Provider.__mro__[1].__name__",
      "print(json.dumps(found))",
    ].join("\n");
    const found = JSON.parse(
      run(python, ["-c", probe, JSON.stringify(tokens)], scratch, { PYTHONPATH: site }),
    ) as Record<string, string>;
    expect(found).toEqual({
      ...Object.fromEntries(tokens.map(([domain, name]) => [`${domain}.${name}`, "CustomResource"])),
      Provider: "ProviderResource",
    });
  });

  test("Go: a module at the schema's import path, a package per domain, every file parses", () => {
    const out = sdks.go;
    const { importBasePath } = packageSchema(version).language.go as { importBasePath: string };
    expect(fs.readFileSync(path.join(out, "go.mod"), "utf8")).toMatch(
      new RegExp(`^module ${path.dirname(importBasePath).replace(/[.]/g, "\\.")}$`, "m"),
    );
    expect(fs.readFileSync(path.join(out, "platform", "iam", "group.go"), "utf8")).toContain("type Group struct");
    expect(run("gofmt", ["-l", "-e", "."], out)).toBe("");
  });
});
