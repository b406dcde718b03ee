/**
 * `platform-pulumi export`, round trip, under the REAL Pulumi CLI: one team of the organization
 * tests/export.test.ts builds (its groups, identities, custom role, role bindings, and an identity
 * provider with a client secret) is exported as a TypeScript project, whose index.ts is then run
 * by the CLI's own engine as an Automation API inline program (transpiled as ts-node would).
 * `up` adopts every record and creates none, `preview --expect-no-changes` and `preview --refresh
 * --expect-no-changes` are clean, and `destroy` deletes nothing (every resource is retainOnDelete).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { call, OrgSnapshot, snapshot } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { BigOrg, buildOrganization, runExport } from "../support/exportOrganization";
import { realCliStack, RealCliStack } from "../support/realCli";

const PROJECT = "team-three";
const DYNAMIC = "pulumi-nodejs:dynamic/";
/** The client secret of the team's identity provider: the service never answers it, so the program asks for it. */
const TEAM_SSO_SECRET = "team-sso-client-secret-4b1d";

jest.setTimeout(600_000);

describe("platform-pulumi export, round trip under the real Pulumi CLI (Automation API, file backend)", () => {
  let emu: RunningEmulator;
  let org: BigOrg;
  let work: string;
  let stack: RealCliStack | undefined;
  const api = () => ({ url: emu.url, token: emu.token });
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    // Only team 3 is exported: the organization is tests/export.test.ts's small one.
    org = await buildOrganization(api(), emu.rootUid, { teams: 4, groupsPerTeam: 4, identities: 10 });
    const roles = await call<{ roles: { uid: string; name: string }[] }>(
      api(),
      "GET",
      "/iam/v2beta1/roles?page_size=200",
    );
    await call(api(), "POST", `/iam/v2beta1/identityProviders/${org.teams[3]}`, {
      name: "team-sso",
      defaultRole: roles.roles.find((r) => r.name === "viewer")!.uid,
      oidc: { issuer: "https://login.example.com", clientId: "team-three", clientSecret: TEAM_SSO_SECRET },
    });
    work = path.join(repoRoot, ".work", `realcli-export-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    fs.mkdirSync(work, { recursive: true });
  });
  afterAll(async () => {
    stack?.remove();
    await emu?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("one team exported as TypeScript: up adopts every record and creates none, no changes after, destroy deletes nothing", async () => {
    const team = org.teams[3];
    const before: OrgSnapshot = await snapshot(api(), emu.rootUid);
    const inTeam = (uid: string) => uid.startsWith(`${team}/`);
    const project = path.join(work, "team");
    const exported = await runExport(["--under", team, "--out", project, "--name", PROJECT], {
      ...withoutPlatformEnv(),
      PLATFORM_API_URL: emu.url,
      PLATFORM_TOKEN: emu.token,
    });
    expect(exported.stderr).not.toContain("error");
    expect(exported.code).toBe(0);
    const program = fs.readFileSync(path.join(project, "index.ts"), "utf8");
    const declared = (program.match(/^const \w+ = new platform/gm) ?? []).length;
    expect((program.match(/adopt: true/g) ?? []).length).toBe(declared);
    expect(program).toContain(`clientSecret: config.requireSecret("teamSsoOidcClientSecret"),`);
    const expected = [...before.groups, ...before.identities, ...before.roleBindings, ...before.identityProviders]
      .filter((r) => inTeam(r.uid))
      .concat(before.roles.filter((r) => inTeam(String(r.definedOn))));
    // Account associations, each keyed by its group's uid: the team's own is exported with it.
    const associations = org.associations.filter((uid) => uid === team || inTeam(uid));
    expect(associations).toHaveLength(2);
    expect(declared).toBe(expected.length + associations.length);
    // The team's 4 groups, an identity provider, a custom role, and identities with their bindings.
    expect(expected.filter((r) => before.groups.includes(r))).toHaveLength(4);
    expect(expected.length).toBeGreaterThanOrEqual(4 + 1 + 1 + 2);

    stack = realCliStack({
      programDir: project,
      project: PROJECT,
      label: "export",
      config: { "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token, [`${PROJECT}:teamSsoOidcClientSecret`]: TEAM_SSO_SECRET },
    });
    const managed = () =>
      (stack!.checkpoint()?.checkpoint.latest?.resources ?? []).filter((r) => r.type.startsWith(DYNAMIC));

    emu.clearRequests();
    const up = await stack.run("up");
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    // The engine counts an adoption as a create (the provider's Create answered with the
    // existing record); the stack resource is the one more.
    expect(up.stdout).toMatch(new RegExp(`Resources:\\s+\\+ ${declared + 1} created`));
    expect(
      managed()
        .map((r) => r.id)
        .sort(),
    ).toEqual([...expected.map((r) => r.uid), ...associations].sort());
    expect(managed().filter((r) => r.outputs!.adopted !== true)).toEqual([]);
    // No record was created: every create the provider sent was refused as ALREADY_EXISTS (409)
    // and the record taken over. The one write adoption cannot avoid is the client secret,
    // which the service never answers and so cannot be compared.
    expect(writes().filter((r) => r.method === "POST" && r.status !== 409)).toEqual([]);
    const sso = managed().find((r) => r.outputs!.name === "team-sso")!;
    expect(writes().filter((r) => r.status < 400)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${sso.id}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
    // The client secret is in no output or state in plain text.
    const checkpoint = fs.readFileSync(stack.checkpointFile, "utf8");
    for (const text of [checkpoint, up.stdout, up.runnerOutput]) expect(text).not.toContain(TEAM_SSO_SECRET);

    emu.clearRequests();
    const unchanged = await stack.run("preview", { expectNoChanges: true });
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toMatch(new RegExp(`Resources:\\s+${declared + 1} unchanged`));
    const refreshed = await stack.run("preview", { refresh: true, expectNoChanges: true });
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toMatch(new RegExp(`Resources:\\s+${declared + 1} unchanged`));
    expect(writes()).toEqual([]);

    const destroy = await stack.run("destroy");
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toMatch(new RegExp(`Resources:\\s+- ${declared + 1} deleted`));
    expect(managed()).toEqual([]);
    expect(writes()).toEqual([]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
  });
});
