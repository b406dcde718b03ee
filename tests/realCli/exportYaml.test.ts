/**
 * `platform-pulumi export --language yaml` under the REAL Pulumi CLI (pulumi-yaml's language host,
 * plain `pulumi` commands), on the emulator, with records holding every hostile text
 * (tests/support/hostileTexts.ts: a group named `null`, a description holding `$${x}`, YAML 1.1's
 * words and numbers, line breaks of every kind, claims keyed so):
 *
 * - the import path of docs/guides/existing-organization.md: the exported program and its import
 *   file, `pulumi import --file … --generate-code=false`, then `preview --refresh
 *   --expect-no-changes` clean and `up` changing nothing, with no write; the state's inputs,
 *   which pulumi-yaml evaluated from the program, hold every text byte for byte; `destroy`
 *   deletes nothing (retainOnDelete);
 * - adoption as the TypeScript export does it: `up` takes every record over (`adopt`, and
 *   `adoptUid` for identical subscriptions), the one write the client secret an identity provider
 *   never answers, read from secret config; then no changes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { call, snapshot } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { stateFile } from "../../tools/pulumi-cli/cliEnvironment";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { plainStack } from "../../tools/pulumi-cli/plainStack";
import {
  buildHostileTeam,
  expectTextsKept,
  installPlugin,
  nativeResources,
  TEAM_SSO_SECRET,
} from "../support/exportLanguages";
import { runExport } from "../support/exportOrganization";

jest.setTimeout(600_000);

describe("export --language yaml under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let cliDir: string;
  const writes = () => emu.requests().filter((r) => r.method !== "GET");
  const api = () => ({ url: emu.url, token: emu.token });
  const exportEnv = () => ({ ...withoutPlatformEnv(), PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token });

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    cliDir = pulumiCliDir();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-export-yaml-"));
  });
  afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The exported project's stack: its own backend, configured for the default provider. */
  async function stackOf(project: string, dir: string, secrets: Record<string, string> = {}) {
    // As the exported Pulumi.yaml says: the plugin installed from its archive, found by name.
    await installPlugin(cliDir, path.join(scratch, project));
    const { cli } = await plainStack({
      dir,
      scratch: path.join(scratch, project),
      cliDir,
      config: { "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token, ...secrets },
    });
    return { cli, resources: () => nativeResources(path.join(scratch, project), project) };
  }

  test("a group named null and a description holding $${x}, with every other hostile text, survive export, pulumi import --file --generate-code=false and up byte for byte, with no write", async () => {
    const team = await buildHostileTeam(emu, "yaml team");
    const before = await snapshot(api(), emu.rootUid);
    const project = "hostile-yaml";
    const dir = path.join(scratch, "program");
    const importFile = path.join(dir, "import.json");
    const exported = await runExport(
      ["--under", team.team, "--out", dir, "--language", "yaml", "--import-file", importFile, "--name", project],
      exportEnv(),
    );
    expect([exported.code, exported.stderr]).toEqual([0, expect.not.stringContaining("error")]);
    expect(exported.stdout).toContain(`pulumi import --file ${importFile} --generate-code=false`);
    expect(fs.readdirSync(dir).sort()).toEqual(["Pulumi.yaml", "import.json"]);
    const program = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    expect(program).toContain('name: "null"');
    expect(program).toContain('description: "$$$${x}"');
    const declared = (JSON.parse(fs.readFileSync(importFile, "utf8")) as { resources: unknown[] }).resources.length;
    // The team's groups, the identity, the custom role, two bindings, two subscriptions, the association.
    expect(declared).toBe(team.groups.size + 1 + 1 + 2 + 2 + 1);
    const { cli, resources } = await stackOf(project, dir);

    emu.clearRequests();
    const imported = await cli(["import", "--file", importFile, "--generate-code=false", "--protect=false", "--yes"]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    expect(imported.stdout).toMatch(new RegExp(`= ${declared} imported`));
    expect(writes()).toEqual([]);
    // The CLI reads each record twice on import (docs/guides/existing-organization.md, "Import with
    // the native provider"): by its own GET, or in a List of the uids of reads that overlap
    // (platform:batchReads). Each read of the custom role also lists its group's roles by its name
    // (native/imports.ts: a role is imported only as its group's own).
    const gets = emu.requests().filter((r) => r.method === "GET");
    const roleChecks = gets.filter((r) => r.path === "/iam/v2beta1/roles" && r.query["uidp.children_of"] !== undefined);
    expect(roleChecks).toHaveLength(2);
    const recordsRead = gets
      .filter((r) => !roleChecks.includes(r))
      .map((r) => r.query["uidp.ids"])
      .reduce<number>((sum, ids) => sum + (ids === undefined ? 1 : [ids].flat().length), 0);
    expect(recordsRead).toBe(2 * declared);
    expect(gets.length).toBeLessThan(2 * declared + roleChecks.length);

    const preview = await cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(preview.stdout).not.toMatch(/[~+-] platform:/);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(preview.stdout).toMatch(new RegExp(`${declared + 1} unchanged`));

    // `up` records the program's inputs, as pulumi-yaml evaluated them, in the state.
    const up = await cli(["up", "--yes"]);
    expect([up.code, up.stderr]).toEqual([0, ""]);
    expect(up.stdout).toMatch(new RegExp(`${declared + 1} unchanged`));
    expect(writes()).toEqual([]);
    expectTextsKept(resources(), team);

    const destroy = await cli(["destroy", "--yes"]);
    expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
  });

  test("up adopts every record (adopt, adoptUid for twins) with one write, the client secret read from secret config; then no changes", async () => {
    const team = await buildHostileTeam(emu, "yaml adopted", { identityProvider: true });
    const before = await snapshot(api(), emu.rootUid);
    const project = "adopted-yaml";
    const dir = path.join(scratch, "adopted");
    const exported = await runExport(
      ["--under", team.team, "--out", dir, "--language", "yaml", "--name", project],
      exportEnv(),
    );
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("pulumi config set --secret ssoOidcClientSecret <value>");
    const program = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    expect(program).toContain("clientSecret: ${ssoOidcClientSecret}");
    expect(program).toContain("config:\n  ssoOidcClientSecret:\n    type: string\n    secret: true\n");
    expect(program).not.toContain(TEAM_SSO_SECRET);
    const { cli, resources } = await stackOf(project, dir, { ssoOidcClientSecret: TEAM_SSO_SECRET });

    emu.clearRequests();
    const up = await cli(["up", "--yes"]);
    expect([up.code, up.stderr]).toEqual([0, ""]);
    const managed = resources();
    // The engine counts an adoption as a create (the stack is the one more); no record was made.
    expect(up.stdout).toMatch(new RegExp(`\\+ ${managed.length + 1} created`));
    expect(managed.filter((r) => r.outputs?.adopted !== true)).toEqual([]);
    expect(writes().filter((r) => r.status < 400)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${team.identityProvider}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);
    expect(managed.map((r) => r.id).sort()).toEqual(
      [...team.groups.keys(), team.identity, ...team.subscriptions, team.association, team.identityProvider!]
        .concat(managed.filter((r) => /Role(Binding)?$/.test(r.type)).map((r) => r.id!))
        .sort(),
    );
    expectTextsKept(managed, team);
    expect(fs.readFileSync(stateFile(path.join(scratch, project), project), "utf8")).not.toContain(TEAM_SSO_SECRET);
    const afterUp = await snapshot(api(), emu.rootUid);
    expect(afterUp).toEqual(before);

    emu.clearRequests();
    const preview = await cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(preview.stdout).not.toMatch(/[~+-] platform:/);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
  });

  test("after pulumi import, the one change is the client secret the service never answers: one update, one PATCH, then clean", async () => {
    const api_ = api();
    const roles = await call<{ roles: Array<{ uid: string; name: string }> }>(api_, "GET", "/iam/v2beta1/roles");
    const group = (await call<{ uid: string }>(api_, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "sso" }))
      .uid;
    const idp = (
      await call<{ uid: string }>(api_, "POST", `/iam/v2beta1/identityProviders/${group}`, {
        name: "sso",
        defaultRole: roles.roles.find((role) => role.name === "viewer")!.uid,
        oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: TEAM_SSO_SECRET },
      })
    ).uid;
    const project = "sso-yaml";
    const dir = path.join(scratch, "sso");
    const importFile = path.join(dir, "import.json");
    const exported = await runExport(
      ["--under", group, "--out", dir, "--language", "yaml", "--import-file", importFile, "--name", project],
      exportEnv(),
    );
    expect(exported.code).toBe(0);
    const { cli } = await stackOf(project, dir, { ssoOidcClientSecret: TEAM_SSO_SECRET });
    emu.clearRequests();
    const imported = await cli(["import", "--file", importFile, "--generate-code=false", "--protect=false", "--yes"]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    const preview = await cli(["preview", "--refresh", "--diff"]);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(preview.stdout).toMatch(/~ platform:iam:IdentityProvider: \(update\)/);
    expect(preview.stdout).toMatch(/Resources:\s+~ 1 to update\s+1 unchanged/);
    // The change shown is the one written: the client secret, as a secret.
    expect(preview.stdout).toMatch(/~ oidc: \{\n\s+\+ clientSecret: \[secret\]\n\s+\}/);
    expect(preview.stdout).not.toContain(TEAM_SSO_SECRET);
    expect(writes()).toEqual([]);
    const up = await cli(["up", "--yes"]);
    expect([up.code, up.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${idp}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);
    emu.clearRequests();
    const clean = await cli(["preview", "--refresh", "--expect-no-changes"]);
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
  });

  test("a claim keyed with Pulumi YAML's reserved fn:: prefix refuses the export, naming the record; --partial leaves it out", async () => {
    const api_ = api();
    const group = (await call<{ uid: string }>(api_, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "fn" })).uid;
    const identity = (
      await call<{ uid: string }>(api_, "POST", `/iam/v2beta1/identities/${group}`, {
        name: "fn",
        claimMatch: { issuer: "https://token.example.com", subject: "s", claims: { "fn::secret": "x" } },
      })
    ).uid;
    const dir = path.join(scratch, "fn");
    const refused = await runExport(["--under", group, "--out", dir, "--language", "yaml"], exportEnv());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `identity ${identity}: claimMatch.claims: has the key "fn::secret", which Pulumi YAML reads as a function`,
    );
    expect(fs.existsSync(dir)).toBe(false);
    // The same record is no trouble to TypeScript.
    const typescript = await runExport(["--under", group, "--out", path.join(scratch, "fn-ts")], exportEnv());
    expect(typescript.code).toBe(0);
    const partial = await runExport(["--under", group, "--out", dir, "--language", "yaml", "--partial"], exportEnv());
    expect(partial.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toContain(
      `#  identity ${identity}: claimMatch.claims`,
    );
  });
});
