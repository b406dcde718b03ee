/**
 * SDKs of the native provider, written from its package schema by `platform-gen-sdk` (built
 * beside the CLI from tools/pulumi-cli/gen-sdk: pkg/v3's own code generators, which `pulumi
 * package gen-sdk` reaches only through language hosts the module proxy does not serve). The
 * Node.js SDK type-checks against the @pulumi/pulumi the package depends on; the Python and Go
 * SDKs parse. Programs using them are not run yet.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../tools/host/stage";
import { pulumiCliDir } from "../tools/pulumi-cli/find";
import { pythonWithPulumiSdk } from "../tools/pulumi-cli/pythonSdk";
import { describedKinds, packageSchema } from "./schema";

jest.setTimeout(300_000);

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

function run(file: string, args: string[], cwd: string): string {
  const answer = spawnSync(file, args, { cwd, encoding: "utf8", timeout: 240_000 });
  if (answer.error || answer.status !== 0)
    throw new Error(
      `${path.basename(file)} ${args.join(" ")} failed: ${answer.error?.message ?? ""}${answer.stdout}${answer.stderr}`,
    );
  return answer.stdout;
}

describe("SDKs generated from the native provider's schema", () => {
  let scratch: string;
  let schemaFile: string;
  let generator: string;

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-sdks-"));
    schemaFile = path.join(scratch, "schema.json");
    fs.writeFileSync(schemaFile, JSON.stringify(packageSchema(version)));
    generator = path.join(pulumiCliDir(), "platform-gen-sdk");
    if (!fs.existsSync(generator))
      throw new Error(`${generator} is missing: the CLI's folder was not built by tools/pulumi-cli/build.js`);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("Node.js: a class per described kind, type-checked against @pulumi/pulumi", () => {
    const out = path.join(scratch, "nodejs");
    run(generator, [schemaFile, "nodejs", out], scratch);
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

  test("Python: a module per domain with a class per kind, every file compiles", () => {
    const out = path.join(scratch, "python");
    run(generator, [schemaFile, "python", out], scratch);
    const group = fs.readFileSync(path.join(out, "pulumi_platform", "iam", "group.py"), "utf8");
    expect(group).toContain("class Group(pulumi.CustomResource):");
    expect(group).toContain('"platform:iam:Group"');
    run(pythonWithPulumiSdk(), ["-m", "compileall", "-q", "pulumi_platform"], out);
  });

  test("Go: a package per domain, every file parses", () => {
    const out = path.join(scratch, "go");
    run(generator, [schemaFile, "go", out], scratch);
    expect(fs.readFileSync(path.join(out, "platform", "iam", "group.go"), "utf8")).toContain("type Group struct");
    expect(run("gofmt", ["-l", "-e", "."], out)).toBe("");
  });
});
