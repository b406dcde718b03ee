/**
 * The Python and Go examples of the reference pages (docs/api/), on the SDKs generated from the
 * schema the built plugin answers under the real CLI (tools/pulumi-cli/sdks.ts, as `npm run sdks`
 * writes them): each Python example runs under the Python SDK's mocks with the generated
 * `pulumi_platform` installed (every class, keyword argument, Args class and function it names
 * must exist), and every Go example compiles (`go vet`) against the generated Go SDK, in a module
 * on the same pulumi/sdk/v3 as the CLI's build. A control with a property the SDK lacks fails each.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { packageSchema } from "../../../native/schema";
import { pythonWithPulumiSdk } from "../../pulumi-cli/pythonSdk";
import { generateSdks, installPythonSdk, SdkLanguage } from "../../pulumi-cli/sdks";
import { repoRoot } from "../main";
import { goImportBasePath } from "./docsFiles";
import { pageExamples } from "./pages";

jest.setTimeout(900_000);

const pages = pageExamples(path.join(repoRoot, "docs"));

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawnSync(file, args, { cwd, encoding: "utf8", timeout: 840_000, env: { ...process.env, ...env } });
}

function ran(answer: ReturnType<typeof run>, what: string): string {
  if (answer.error || answer.status !== 0)
    throw new Error(`${what} failed: ${answer.error?.message ?? ""}${answer.stdout}${answer.stderr}`);
  return answer.stdout;
}

describe("the reference pages' Python and Go examples on the generated SDKs", () => {
  let scratch: string;
  let sdks: Record<SdkLanguage, string>;

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-docs-sdks-"));
    sdks = generateSdks(path.join(scratch, "sdk"), ["python", "go"]);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("every Python example runs under the SDK's mocks with pulumi_platform installed; a wrong keyword fails", () => {
    const python = pythonWithPulumiSdk();
    const site = path.join(scratch, "python-site");
    installPythonSdk(python, sdks.python, site);
    const programs = path.join(scratch, "python");
    const listing = pages.map((page) => {
      const program = path.join(programs, page.name, "__main__.py");
      fs.mkdirSync(path.dirname(program), { recursive: true });
      fs.writeFileSync(program, page.examples.python!);
      // The stack config the program reads is the one its YAML twin declares.
      const config = (parse(page.examples.yaml!) as { config?: Record<string, unknown> }).config ?? {};
      return { program, config: Object.fromEntries(Object.keys(config).map((key) => [key, `${key}-value`])) };
    });
    const group = listing.find((entry) => entry.program.includes(`${path.sep}iam-group${path.sep}`))!;
    const control = path.join(programs, "control", "__main__.py");
    fs.mkdirSync(path.dirname(control));
    fs.writeFileSync(
      control,
      fs.readFileSync(group.program, "utf8").replace('name="team"', 'name="team", colour="red"'),
    );
    const file = path.join(scratch, "programs.json");
    fs.writeFileSync(file, JSON.stringify([...listing, { program: control, config: group.config }]));
    const script = path.join(repoRoot, "tools", "generate", "docs", "run_with_mocks.py");
    const failures = JSON.parse(
      ran(run(python, [script, file], scratch, { PYTHONPATH: site }), "run_with_mocks.py"),
    ) as Record<string, string>;
    expect(Object.keys(failures)).toEqual([control]);
    expect(failures[control]).toMatch(/TypeError: .*unexpected keyword argument 'colour'/);
  });

  test("every Go example compiles against the generated Go SDK; one with a field the SDK lacks does not", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    const base = goImportBasePath(packageSchema(version));
    const schemaName = path.basename(base);
    // The SDK as a module of its own at its import path, as a published one would be.
    const sdkModule = path.join(scratch, "go-sdk");
    fs.cpSync(path.join(sdks.go, schemaName), sdkModule, { recursive: true });
    const cliGoMod = fs.readFileSync(path.join(repoRoot, "tools", "pulumi-cli", "go.mod"), "utf8");
    const requires = cliGoMod.slice(cliGoMod.indexOf("require ("));
    fs.writeFileSync(path.join(sdkModule, "go.mod"), `module ${base}\n\ngo 1.26\n\n${requires}`);
    const module = path.join(scratch, "go");
    for (const page of pages) {
      const folder = path.join(module, page.name);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, "main.go"), page.examples.go!);
    }
    // The CLI's own module versions, so that the module cache the CLI's build filled has them all.
    fs.writeFileSync(
      path.join(module, "go.mod"),
      `module docsexamples\n\ngo 1.26\n\nrequire ${base} v0.0.0\n\nreplace ${base} => ${sdkModule}\n\n${requires}`,
    );
    fs.copyFileSync(path.join(repoRoot, "tools", "pulumi-cli", "go.sum"), path.join(module, "go.sum"));
    const env = { GOFLAGS: "-mod=mod", GOWORK: "off" };
    expect(run("gofmt", ["-l", "."], module).stdout).toBe("");
    // -trimpath: the build cache keys the SDK and the examples by content, not by this run's temporary
    // folder, so an unchanged SDK is not compiled and vetted again (~20 s of CPU); a failure is never cached.
    ran(run("go", ["vet", "-trimpath", "./..."], module, env), "go vet of the examples");

    const control = path.join(module, "control");
    fs.mkdirSync(control);
    const group = fs.readFileSync(path.join(module, "iam-group", "main.go"), "utf8");
    fs.writeFileSync(
      path.join(control, "main.go"),
      group.replace("Name:", 'Colour: pulumi.String("red"),\n\t\t\tName:'),
    );
    const broken = run("go", ["vet", "-trimpath", "./control"], module, env);
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toMatch(/unknown field Colour in struct literal/);
  });
});
