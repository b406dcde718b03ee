/**
 * `platform-pulumi drift` under the REAL Pulumi CLI, on the emulator: an organization that a
 * TypeScript stack of the dynamic resources (Automation API, read by `drift --stack` through the
 * real `pulumi stack export`), a YAML stack on the native provider (its `pulumi stack export` given
 * as `--stack-file`) and a Terraform state manage together. Clean right after the `up`s (exit 0);
 * then, in the console, a description edited, an identity deleted and a role binding added by
 * hand: drift's JSON names exactly them (exit 3), and side by side, on each stack, `pulumi preview
 * --refresh` plans an update of exactly the changed and a create of exactly the deleted records,
 * `pulumi refresh --preview-only` shows exactly those changed in a declared field and gone, and
 * neither shows the hand-made binding.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILTIN_ROLES, startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { repoRoot } from "../../tools/host/stage";
import { call } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { nodeProgramFolder } from "../../tools/pulumi-cli/programFolder";
import { runProcess } from "../../tools/runProcess";
import type { DriftReport } from "../../drift";
import { yamlStack, YamlStack } from "../support/nativeYamlStack";
import { realCliStack, RealCliStack } from "../support/realCli";
import { attributesOf, tfstate } from "../support/terraformState";

jest.setTimeout(600_000);

const PROJECT = "drift-report";
const VIEWER = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const EDITOR = BUILTIN_ROLES.find((r) => r.name === "editor")!.uid;
const V = "/iam/v2beta1";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const team = new platform.iam.Group("ts-team", {
  parentUid: config.require("orgUid"),
  name: "ts-team",
  description: "from TypeScript",
});
const deploy = new platform.iam.Identity("ts-deploy", {
  parentUid: team.uid,
  name: "deploy",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/ts:ref:refs/heads/main" },
});
new platform.iam.RoleBinding("ts-deploy-viewer", { groupUid: team.uid, identityUid: deploy.uid, roleUid: config.require("roleUid") });
`;

type Rec = Record<string, unknown> & { uid: string };

/**
 * What \`pulumi refresh --preview-only --diff\` shows of a stack's records: each gone (a delete), and
 * each changed in a field its program declares (one of its inputs in the state; not only a
 * server-kept one such as updateTime).
 */
function refreshFindings(stdout: string, inputs: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const block of stdout.split(/\n(?=\s*[~+-] [\w:/.-]+: \()/)) {
    const step = /^\s*[~+-] ([\w:/.-]+): \((\w+)\)/.exec(block);
    const urn = /\[urn=([^\]]+)\]/.exec(block)?.[1];
    if (!step || !urn || !/^(platform:|pulumi-nodejs:dynamic\/)/.test(step[1])) continue;
    if (step[2] === "delete") found.push(`deleted ${urn}`);
    const changed = [...block.matchAll(/^\s*~ (\w+)\s*:/gm)].map((m) => m[1]);
    if (step[2] === "update" && changed.some((field) => inputs.get(urn)?.includes(field))) found.push(`changed ${urn}`);
  }
  return found;
}

describe("platform-pulumi drift under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let ts: RealCliStack;
  let yaml: YamlStack;
  const api = () => ({ url: emu.url, token: emu.token });

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true, seed: false });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-drift-report-"));
  });
  afterAll(async () => {
    ts?.remove();
    yaml?.remove();
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** `platform-pulumi drift …` as a user runs it in CI: the TypeScript stack's pulumi environment, a token. */
  const drift = (args: string[]) =>
    runProcess(process.execPath, [path.join(repoRoot, "dist", "cli.js"), "drift", ...args], {
      cwd: scratch,
      env: { ...withoutPlatformEnv(), ...ts?.env, PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token },
    });

  test("clean after the ups; after the console's edits, drift names exactly them, as preview --refresh and refresh --preview-only do the changed and deleted", async () => {
    const org = await call<Rec>(api(), "POST", `${V}/groups/${emu.rootUid}`, { name: "drift-org" });

    yaml = await yamlStack({
      name: "drift-yaml",
      config: { "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token },
    });
    yaml.declare({
      resources: {
        team: {
          type: "platform:iam:Group",
          properties: { parentUid: org.uid, name: "yaml-team", description: "from YAML" },
        },
        ci: {
          type: "platform:iam:Identity",
          properties: {
            parentUid: "${team.uid}",
            name: "yaml-ci",
            claimMatch: {
              issuer: "https://token.actions.githubusercontent.com",
              subject: "repo:acme/yaml:ref:refs/heads/main",
            },
          },
        },
      },
    });
    const yamlUp = await yaml.cli(["up", "--yes", "--skip-preview"]);
    expect([yamlUp.code, yamlUp.stderr]).toEqual([0, ""]);

    ts = realCliStack({
      programDir: nodeProgramFolder(path.join(scratch, "program"), PROJECT, PROGRAM),
      project: PROJECT,
      label: "drift-report",
      config: { [`${PROJECT}:orgUid`]: org.uid, [`${PROJECT}:roleUid`]: VIEWER, "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token },
    });
    const tsUp = await ts.run("up");
    expect([tsUp.code, tsUp.stderr]).toEqual([0, ""]);

    const tfTeam = await call<Rec>(api(), "POST", `${V}/groups/${org.uid}`, {
      name: "tf-team",
      description: "from Terraform",
    });
    const tfState = path.join(scratch, "terraform.tfstate");
    fs.writeFileSync(
      tfState,
      tfstate([
        {
          type: "chainguard_group",
          name: "team",
          instances: [{ attributes: attributesOf("chainguard_group", tfTeam) }],
        },
      ]),
    );
    const yamlExport = path.join(scratch, "yaml-stack.json");
    const sources = () => [
      "--under",
      org.uid,
      "--stack",
      "dev",
      "--cwd",
      ts.programDir,
      "--stack-file",
      yamlExport,
      "--terraform-state",
      tfState,
    ];
    const exportYaml = async () => {
      const exported = await yaml.cli(["stack", "export", "--file", yamlExport]);
      expect(exported.code).toBe(0);
    };

    await exportYaml();
    const clean = await drift([...sources(), "--format", "json"]);
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    const before = JSON.parse(clean.stdout) as DriftReport;
    expect(before).toMatchObject({ changed: [], deleted: [], unmanaged: [], conflicts: [], pending: [] });
    expect(before.coverage).toMatchObject({ managed: 6, records: 6 });
    expect(before.sources.map((s) => [s.source, s.managed])).toEqual([
      [`stack file ${yamlExport}`, 2],
      [`terraform state ${tfState}`, 1],
      ["stack dev", 3],
    ]);

    // In the console, behind every source's back.
    const uidOf = async (stack: "ts" | "yaml", name: string) => {
      const resources =
        stack === "ts" ? (ts.checkpoint()?.checkpoint.latest?.resources ?? []) : await yaml.resources("platform:");
      return resources.find((r) => r.urn.endsWith(`::${name}`))!.id!;
    };
    const tsTeam = await uidOf("ts", "ts-team");
    const tsDeploy = await uidOf("ts", "ts-deploy");
    const yamlCi = await uidOf("yaml", "ci");
    await call(api(), "PATCH", `${V}/groups/${tsTeam}?update_mask=description`, {
      name: "ts-team",
      description: "edited in the console",
    });
    await call(api(), "DELETE", `${V}/identities/${yamlCi}`);
    const byHand = await call<Rec>(api(), "POST", `${V}/roleBindings/${tsTeam}`, {
      identityUid: tsDeploy,
      roleUid: EDITOR,
    });
    await call(api(), "PATCH", `${V}/groups/${tfTeam.uid}?update_mask=description`, {
      name: "tf-team",
      description: "by hand",
    });

    emu.clearRequests();
    const importFile = path.join(scratch, "import.json");
    const found = await drift([...sources(), "--format", "json", "--import-file", importFile]);
    expect(found.code).toBe(3);
    const lists = emu.requests().filter((r) => r.method === "GET");
    expect(emu.requests().length).toBe(lists.length);
    const report = JSON.parse(found.stdout) as DriftReport;
    expect(report.requests).toBe(lists.length);
    expect(report.changed.map((e) => [e.type, e.uid, e.urn ?? e.address, e.fields])).toEqual(
      [
        [
          "platform:iam:Group",
          tsTeam,
          `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/iam:Group::ts-team`,
          [{ name: "description", recorded: "from TypeScript", live: "edited in the console" }],
        ],
        [
          "platform:iam:Group",
          tfTeam.uid,
          "chainguard_group.team",
          [{ name: "description", recorded: "from Terraform", live: "by hand" }],
        ],
      ].sort((a, b) => ((a[1] as string) < (b[1] as string) ? -1 : 1)),
    );
    expect(report.deleted.map((e) => [e.type, e.uid, e.urn])).toEqual([
      ["platform:iam:Identity", yamlCi, "urn:pulumi:dev::drift-yaml::platform:iam:Identity::ci"],
    ]);
    expect(report.unmanaged).toEqual([
      { uid: byHand.uid, type: "platform:iam:RoleBinding", name: expect.any(String), parent: "drift-org/ts-team" },
    ]);
    expect(report.conflicts).toEqual([]);
    expect(report.coverage).toMatchObject({ managed: 5, records: 6 });
    expect(JSON.parse(fs.readFileSync(importFile, "utf8"))).toEqual({
      resources: [{ type: "platform:iam:RoleBinding", name: expect.any(String), id: byHand.uid }],
    });
    for (const output of [found.stdout, found.stderr]) expect(output).not.toContain(emu.token);

    // Side by side: what each stack's preview --refresh plans, by resource name.
    const tsPreview = await ts.run("preview", { refresh: true, steps: true });
    const tsPlanned = (tsPreview.steps ?? []).filter((s) => s.op !== "refresh").map((s) => `${s.op} ${s.urn}`);
    const yamlPreview = await yaml.cli(["preview", "--refresh", "--json"]);
    const yamlSteps = (JSON.parse(yamlPreview.stdout) as { steps?: Array<{ op: string; urn: string }> }).steps ?? [];
    const yamlPlanned = yamlSteps.filter((s) => !["same", "refresh"].includes(s.op)).map((s) => `${s.op} ${s.urn}`);
    const fromDrift = [
      ...report.changed.filter((e) => e.urn).map((e) => `update ${e.urn}`),
      ...report.deleted.filter((e) => e.urn).map((e) => `create ${e.urn}`),
    ].sort();
    expect([...tsPlanned, ...yamlPlanned].sort()).toEqual(fromDrift);
    const tsResources = ts.checkpoint()?.checkpoint.latest?.resources ?? [];
    const inputsOf = (resources: Array<{ urn: string; inputs?: Record<string, unknown> }>) =>
      new Map(resources.map((r) => [r.urn, Object.keys(r.inputs ?? {}).filter((key) => key !== "__provider")]));
    const refreshed = [
      ...refreshFindings((await ts.cli(["refresh", "--preview-only", "--diff"])).stdout, inputsOf(tsResources)),
      ...refreshFindings(
        (await yaml.cli(["refresh", "--preview-only", "--diff"])).stdout,
        inputsOf(await yaml.resources()),
      ),
    ].sort();
    expect(refreshed).toEqual(
      fromDrift.map((line) => line.replace(/^update /, "changed ").replace(/^create /, "deleted ")).sort(),
    );
    // The binding made by hand: no stack's preview can see it.
    expect(tsPreview.stdout + yamlPreview.stdout).not.toContain(byHand.uid);

    // The same findings for people and for a pull request; --fail-on chooses what counts.
    const text = await drift([...sources()]);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(`description: "from TypeScript" → "edited in the console"`);
    expect(text.stdout).not.toContain("\x1b[");
    const markdown = await drift([...sources(), "--format", "markdown", "--fail-on", "conflicts"]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain("#### Unmanaged");
    expect(markdown.stdout).toContain(byHand.uid);
  });

  test("bad input: usage errors exit 2 with the usage; an API that refuses the token exits 1 with no report and no token", async () => {
    const usage = await drift(["--stack", "dev"]);
    expect([usage.code, usage.stdout]).toEqual([2, ""]);
    expect(usage.stderr).toContain("drift needs --under <group uid>");
    expect(usage.stderr).toContain("Usage: platform-pulumi emulator");
    const format = await drift(["--under", emu.rootUid, "--format", "yaml"]);
    expect([format.code, format.stderr]).toEqual([
      2,
      expect.stringContaining(`--format must be one of text, json, markdown, got "yaml"`),
    ]);
    const refused = await runProcess(
      process.execPath,
      [path.join(repoRoot, "dist", "cli.js"), "drift", "--under", emu.rootUid],
      {
        env: { ...withoutPlatformEnv(), PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: "refused-token-8c1d" },
      },
    );
    expect([refused.code, refused.stdout]).toEqual([1, ""]);
    expect(refused.stderr).toMatch(/^platform-pulumi: /);
    expect(refused.stderr).not.toContain("refused-token-8c1d");
  });
});
