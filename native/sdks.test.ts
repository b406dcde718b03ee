/**
 * SDKs of the native provider, generated at build time (never committed) by
 * tools/pulumi-cli/sdks.ts, as `npm run sdks` does: the schema the built plugin answers under the
 * real CLI (`pulumi package get-schema`), written out by `platform-gen-sdk` (pkg/v3's own code
 * generators). The schema the plugin answers is the one native/schema.ts writes; the Node.js SDK
 * type-checks against the @pulumi/pulumi the package depends on; the Python SDK installs with pip
 * into the cached venv's Python and imports, a class per kind; the Go SDK parses.
 * examples/org-hierarchy-python runs a whole organization through the Python SDK.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../tools/host/stage";
import { pythonWithPulumiSdk } from "../tools/pulumi-cli/pythonSdk";
import { generateSdks, installPythonSdk, SdkLanguage } from "../tools/pulumi-cli/sdks";
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

describe("SDKs generated from the schema the native provider answers (npm run sdks)", () => {
  let scratch: string;
  let sdks: Record<SdkLanguage, string>;

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-sdks-"));
    sdks = generateSdks(scratch);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("the plugin answers the schema native/schema.ts writes from the descriptions", () => {
    const answered = JSON.parse(fs.readFileSync(path.join(scratch, "schema.json"), "utf8")) as unknown;
    expect(answered).toEqual(JSON.parse(JSON.stringify(packageSchema(version))));
  });

  test("Node.js: a class per described kind, type-checked against @pulumi/pulumi", () => {
    const out = sdks.nodejs;
    for (const kind of describedKinds())
      expect(
        fs.readFileSync(
          path.join(out, kind.domain, `${kind.typeName[0].toLowerCase()}${kind.typeName.slice(1)}.ts`),
          "utf8",
        ),
      ).toContain(`export class ${kind.typeName} extends pulumi.CustomResource`);
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(out, "node_modules"));
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    const flags = ["--noEmit", "--strict", "--target", "ES2020", "--module", "commonjs", "--moduleResolution", "node"];
    run(process.execPath, [tsc, ...flags, "--types", "node", "index.ts"], out);
  });

  test("Python: pip installs pulumi_platform, which imports with a class per described kind and the Provider", () => {
    const python = pythonWithPulumiSdk();
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

  test("Go: a package per domain, every file parses", () => {
    const out = sdks.go;
    expect(fs.readFileSync(path.join(out, "platform", "iam", "group.go"), "utf8")).toContain("type Group struct");
    expect(run("gofmt", ["-l", "-e", "."], out)).toBe("");
  });
});
