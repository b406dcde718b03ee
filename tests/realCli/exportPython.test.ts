/**
 * `platform-pulumi export --language python` under the REAL Pulumi CLI, on the emulator: the
 * native provider's Python SDK generated from the schema the plugin answers and pip-installed
 * (tools/pulumi-cli/sdks.ts), the exported `__main__.py` run inline through Python's Automation API
 * (tools/pulumi-cli/inline_python.py: no Python language host is built).
 *
 * - The SDK spells every class and property as the writer does (the code generator's names).
 * - A team holding every hostile text (tests/support/hostileTexts.ts), references, identical
 *   subscriptions and an identity provider: `up` adopts every record, the one write the client
 *   secret the service never answers (read from secret config); the state's inputs, which Python
 *   evaluated from the program, hold every text byte for byte; `preview --refresh
 *   --expect-no-changes` is clean with no write; `destroy` deletes nothing.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { initParameterName, pythonName } from "../../exporter/pythonNames";
import { packageSchema, PropertySpec } from "../../native/schema";
import { snapshot } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { cliEnvironment } from "../../tools/pulumi-cli/cliEnvironment";
import { repoRoot } from "../../tools/host/stage";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { pythonWithPulumiSdk } from "../../tools/pulumi-cli/pythonSdk";
import { runnerRequest } from "../../tools/pulumi-cli/runnerRequest";
import { generateSdks, installPythonSdk } from "../../tools/pulumi-cli/sdks";
import {
  buildHostileTeam,
  expectTextsKept,
  installPlugin,
  nativeResources,
  TEAM_SSO_SECRET,
} from "../support/exportLanguages";
import { runExport } from "../support/exportOrganization";

jest.setTimeout(600_000);

const RUNNER = path.join(repoRoot, "tools", "pulumi-cli", "inline_python.py");
const PROJECT = "hostile-python";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe("export --language python under the real Pulumi CLI, on the native provider's generated Python SDK", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let cliDir: string;
  let python: string;
  let site: string;
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    cliDir = pulumiCliDir();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-export-python-"));
    python = pythonWithPulumiSdk();
    site = path.join(scratch, "python-site");
    installPythonSdk(python, generateSdks(path.join(scratch, "sdk"), ["python"], cliDir).python, site);
    // A release's layout, <root>/bin/pulumi, for PulumiCommand(root=…).
    fs.mkdirSync(path.join(scratch, "cli"));
    fs.symlinkSync(cliDir, path.join(scratch, "cli", "bin"));
  });
  afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("the generated SDK has every class the writer names, with its spelling of every property", () => {
    const schema = packageSchema("0.1.0");
    const expected: Array<{ module: string; name: string; params: string[]; resource: boolean }> = [];
    const reached = new Set<string>();
    const reach = (spec: PropertySpec | undefined) => {
      const token = spec?.$ref?.startsWith("#/types/") ? spec.$ref.slice("#/types/".length) : undefined;
      const type = token ? schema.types[token] : undefined;
      if (token && type?.type === "object" && !reached.has(token)) {
        reached.add(token);
        const [, module, name] = token.split(":");
        expected.push({
          module,
          name: `${name}Args`,
          params: Object.keys(type.properties).map(pythonName),
          resource: false,
        });
        for (const property of Object.values(type.properties)) reach(property);
      }
      if (spec?.items) reach(spec.items);
      if (spec?.additionalProperties) reach(spec.additionalProperties);
    };
    for (const [token, resource] of Object.entries(schema.resources)) {
      const [, module, name] = token.split(":");
      expected.push({
        module,
        name,
        params: Object.keys(resource.inputProperties).map(initParameterName),
        resource: true,
      });
      for (const property of Object.values(resource.inputProperties)) reach(property);
    }
    const probe = [
      "import inspect, json, sys",
      "import pulumi_platform as platform",
      "found = []",
      "for e in json.loads(sys.argv[1]):",
      "    cls = getattr(getattr(platform, e['module']), e['name'], None)",
      "    init = None if cls is None else (cls._internal_init if e['resource'] else cls.__init__)",
      "    skip = {'self', '__self__', 'resource_name', 'opts', '__props__'}",
      "    params = None if init is None else [p for p in inspect.signature(init).parameters if p not in skip]",
      "    found.append(dict(e, params=sorted(params) if params is not None else None))",
      "print(json.dumps(found))",
    ].join("\n");
    const answer = spawnSync(python, ["-c", probe, JSON.stringify(expected)], {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: site },
    });
    expect(answer.stderr).toBe("");
    expect(JSON.parse(answer.stdout)).toEqual(expected.map((e) => ({ ...e, params: [...e.params].sort() })));
    expect(expected.filter((e) => e.resource)).toHaveLength(Object.keys(schema.resources).length);
  });

  test("up adopts every record with one write, the client secret from secret config; every text kept byte for byte; preview --refresh --expect-no-changes clean; destroy deletes nothing", async () => {
    const team = await buildHostileTeam(emu, "python team", { identityProvider: true });
    const before = await snapshot({ url: emu.url, token: emu.token }, emu.rootUid);
    const dir = path.join(scratch, "program");
    const exported = await runExport(["--under", team.team, "--out", dir, "--language", "python", "--name", PROJECT], {
      ...withoutPlatformEnv(),
      PLATFORM_API_URL: emu.url,
      PLATFORM_TOKEN: emu.token,
    });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("pulumi config set --secret ssoOidcClientSecret <value>");
    expect(fs.readdirSync(dir).sort()).toEqual(["Pulumi.yaml", "__main__.py", "requirements.txt"]);
    expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toContain("runtime: python\n");
    const program = fs.readFileSync(path.join(dir, "__main__.py"), "utf8");
    expect(program).toContain('client_secret=config.require_secret("ssoOidcClientSecret"),');
    expect(program).not.toContain(TEAM_SSO_SECRET);
    await installPlugin(cliDir, path.join(scratch, "stack"));

    const env = cliEnvironment(path.join(scratch, "stack"), cliDir);
    let config: Record<string, { value: string; secret: boolean }> = {
      "platform:apiUrl": { value: emu.url, secret: false },
      "platform:token": { value: emu.token, secret: true },
      [`${PROJECT}:ssoOidcClientSecret`]: { value: TEAM_SSO_SECRET, secret: true },
    };
    let runs = 0;
    const run = async (operation: string, flags: Record<string, boolean> = {}): Promise<Run> => {
      const resultFile = path.join(scratch, `result-${++runs}.json`);
      const request = {
        operation,
        ...flags,
        programDir: dir,
        entry: path.join(dir, "__main__.py"),
        project: PROJECT,
        stack: "dev",
        cliRoot: path.join(scratch, "cli"),
        envVars: env,
        config,
        resultFile,
      };
      const result = await runnerRequest<Run>(python, RUNNER, request, {
        cwd: dir,
        env: { ...withoutPlatformEnv(), ...env, PYTHONPATH: site },
      });
      // The stack keeps its config (Pulumi.dev.yaml): set once.
      config = {};
      return result;
    };
    const resources = () => nativeResources(path.join(scratch, "stack"), PROJECT);

    emu.clearRequests();
    const up = await run("up");
    expect([up.code, up.stderr]).toEqual([0, ""]);
    const managed = resources();
    expect(up.stdout).toMatch(new RegExp(`\\+ ${managed.length + 1} created`));
    expect(managed.filter((r) => r.outputs?.adopted !== true)).toEqual([]);
    expect(writes().filter((r) => r.status < 400)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${team.identityProvider}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);
    // The team's groups, the identity, the identity provider, the custom role, two bindings, two
    // subscriptions and the account association.
    expect(managed).toHaveLength(team.groups.size + 1 + 1 + 1 + 2 + 2 + 1);
    expectTextsKept(managed, team);
    const state = fs.readFileSync(
      path.join(scratch, "stack", "backend", ".pulumi", "stacks", PROJECT, "dev.json"),
      "utf8",
    );
    expect(state).not.toContain(TEAM_SSO_SECRET);
    expect(await snapshot({ url: emu.url, token: emu.token }, emu.rootUid)).toEqual(before);

    emu.clearRequests();
    const preview = await run("preview", { refresh: true, expectNoChanges: true, diff: true });
    expect(preview.stdout).not.toMatch(/[~+-] platform:/);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);

    const destroy = await run("destroy");
    expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
    expect(await snapshot({ url: emu.url, token: emu.token }, emu.rootUid)).toEqual(before);
  });
});
