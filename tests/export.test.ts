/**
 * `platform-pulumi export`, round trip, end to end: an emulator organization of 200 groups,
 * 50 identities of mixed claim shapes, 2 custom roles and 102 role bindings is exported as a Pulumi project;
 * the project type-checks against the package's declarations; the local engine (real provider
 * host) runs `up` on it and adopts every record without creating, changing or deleting any;
 * `preview --refresh --expect-no-changes` passes; a console edit shows as drift; `destroy`
 * leaves the organization exactly as it was. The same for one team's subtree, as JavaScript.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { call, OrgSnapshot, snapshot } from "../tools/engine/orgApi";
import { withoutPlatformEnv } from "../tools/engine/orgProject";
import { EngineRun, runEngine } from "../tools/engine/run";
import { repoRoot } from "../tools/host/stage";
import { BigOrg, buildOrganization, runExport } from "./support/exportOrganization";
import { typeErrors } from "./support/typeCheck";

jest.setTimeout(600_000);

describe("platform-pulumi export: round trip through the local engine", () => {
  let emu: RunningEmulator;
  let org: BigOrg;
  let work: string;
  const api = () => ({ url: emu.url, token: emu.token });
  const env = () => ({ ...withoutPlatformEnv(), PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token });
  const engine = (operation: string[], project: string, state: string, config: string[] = []): Promise<EngineRun> =>
    runEngine(
      [
        ...operation,
        "--config",
        `platform:apiUrl=${emu.url}`,
        "--secret-config",
        `platform:token=${emu.token}`,
        ...config.flatMap((pair) => ["--secret-config", pair]),
      ],
      { cwd: project, state, env: withoutPlatformEnv() },
    );
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    org = await buildOrganization(api(), emu.rootUid);
    work = path.join(repoRoot, ".work", `export-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    fs.mkdirSync(work, { recursive: true });
  });
  afterAll(async () => {
    await emu?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("the whole organization: exported, adopted by up with nothing created, changed or deleted, drift seen, destroy leaves it as it was", async () => {
    expect(org.groups).toBe(200);
    const before: OrgSnapshot = await snapshot(api(), emu.rootUid);
    expect(before.identities.length).toBeGreaterThanOrEqual(50);
    expect(before.roleBindings.length).toBeGreaterThanOrEqual(100);
    const project = path.join(work, "whole");
    const state = path.join(work, "whole-state.json");

    const exported = await runExport(["--under", emu.rootUid, "--out", project], env());
    expect(exported.stderr).toMatch(/read 200 groups/);
    expect(exported.code).toBe(0);
    for (const count of [
      `${before.groups.length} iam.Group,`,
      `${before.identities.length} iam.Identity,`,
      `${before.roleBindings.length} iam.RoleBinding,`,
      "1 iam.IdentityProvider,",
      "2 iam.Role,",
    ])
      expect(exported.stdout).toContain(count);
    expect(fs.readdirSync(project).sort()).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
    const program = fs.readFileSync(project + "/index.ts", "utf8");
    expect(program).not.toContain(emu.token);
    // Roles outside the tree are looked up, never declared; references are Outputs.
    expect(program).toContain(`platform.iam.getRoleOutput({ name: "viewer" }).apply((role) => role.uid)`);
    expect(program).toMatch(/parentUid: team0\.uid/);
    // Custom roles are declared where they are defined, read from the groups' children.
    expect(program.match(/new platform\.iam\.Role\(/g)).toHaveLength(2);
    expect(program).toMatch(/"publisher0",\s+\{\s+parentUid: ci\w*\.uid,\s+name: "publisher-0",/);
    expect(program).toMatch(/roleUid: publisher0\.uid,/);
    // Every declared resource is adopted: the tree's groups, identities and bindings, and the
    // seeded registry and events records below the root.
    const declaredCount = (program.match(/^const \w+ = new platform/gm) ?? []).length;
    expect(declaredCount).toBeGreaterThanOrEqual(
      before.groups.length + before.identities.length + before.roleBindings.length,
    );
    expect((program.match(/adopt: true/g) ?? []).length).toBe(declaredCount);
    expect((program.match(/^const \w+ = new platform/gm) ?? []).length).toBe(
      new Set(program.match(/^const (\w+) = new platform/gm)).size,
    );
    // The seeded identity provider's client secret is never answered: the program reads it from
    // a secret config key its Pulumi.yaml declares, and adoption writes it.
    expect(program).toContain(`clientSecret: config.requireSecret("corpSsoOidcClientSecret"),`);
    const projectName = /^name: (.+)$/m.exec(fs.readFileSync(project + "/Pulumi.yaml", "utf8"))![1];
    expect(fs.readFileSync(project + "/Pulumi.yaml", "utf8")).toContain(`${projectName}:corpSsoOidcClientSecret:`);
    const secrets = [`${projectName}:corpSsoOidcClientSecret=emulator-secret`];
    expect(typeErrors(project, "export-typecheck")).toEqual([]);
    // The same tree exports to the same text: a stable order and stable names.
    const again = path.join(work, "whole-again");
    expect((await runExport(["--under", emu.rootUid, "--out", again], env())).code).toBe(0);
    expect(fs.readFileSync(again + "/index.ts", "utf8")).toBe(program);

    emu.clearRequests();
    const up = await engine(["up"], project, state, secrets);
    expect(up.stdout).not.toContain("error:");
    expect(up.code).toBe(0);
    const custom = up.state!.resources.filter((r) => r.custom);
    expect(custom).toHaveLength(declaredCount);
    expect(custom.filter((r) => r.outputs.adopted !== true)).toEqual([]);
    // Nothing was created or deleted: only refused creates (then adoption) reached the service,
    // and the one write adoption cannot avoid: the identity provider's client secret.
    const sso = custom.find((r) => r.outputs.name === "corp-sso")!;
    expect(writes().filter((r) => r.status < 400)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${sso.id}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);

    const clean = await engine(["preview", "--refresh", "--expect-no-changes"], project, state, secrets);
    expect(clean.code).toBe(0);

    const edited = before.groups.find((g) => g.name === "web")!;
    await call(api(), "PATCH", `/iam/v2beta1/groups/${edited.uid}?updateMask=description`, {
      name: edited.name,
      description: "by hand",
    });
    const drift = await engine(["preview", "--refresh", "--expect-no-changes"], project, state, secrets);
    expect(drift.code).toBe(255);
    expect(drift.stdout).toContain(`description: (absent) => "by hand"`);

    const beforeDestroy = await snapshot(api(), emu.rootUid);
    emu.clearRequests();
    const destroy = await engine(["destroy"], project, state, secrets);
    expect(destroy.code).toBe(0);
    expect(destroy.state!.resources).toEqual([]);
    expect(writes()).toEqual([]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(beforeDestroy);
  });

  test("one team's subtree, as JavaScript: adopted by up, no changes, destroy leaves it as it was", async () => {
    const team = org.teams[3];
    const before = await snapshot(api(), emu.rootUid);
    const inTeam = (uid: string) => uid.startsWith(`${team}/`);
    const project = path.join(work, "team");
    const state = path.join(work, "team-state.json");

    const exported = await runExport(["--under", team, "--out", project, "--js"], env());
    expect(exported.code).toBe(0);
    expect(fs.readdirSync(project).sort()).toEqual(["Pulumi.yaml", "index.js", "package.json"]);
    const program = fs.readFileSync(project + "/index.js", "utf8");
    expect(program).toContain(`const platform = require("platform-pulumi");`);
    expect(program).toContain(`const underUid = ${JSON.stringify(team)};`);

    emu.clearRequests();
    const up = await engine(["up"], project, state);
    expect(up.code).toBe(0);
    const declared = up.state!.resources.filter((r) => r.custom).map((r) => r.id);
    const expected = [...before.groups, ...before.identities, ...before.roleBindings].filter((r) => inTeam(r.uid));
    const customRoles = before.roles.filter((r) => inTeam(String(r.definedOn)));
    expect(customRoles.map((r) => r.name)).toEqual(["publisher-3"]);
    expect(declared.sort()).toEqual([...expected, ...customRoles].map((r) => r.uid).sort());
    expect(writes().filter((r) => r.status < 400)).toEqual([]);
    expect((await engine(["preview", "--refresh", "--expect-no-changes"], project, state)).code).toBe(0);
    expect((await engine(["destroy"], project, state)).code).toBe(0);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
  });

  test("a missing group, a malformed uid or a folder holding a project is refused before anything is written", async () => {
    const out = path.join(work, "refused");
    const missing = await runExport(["--under", `${emu.rootUid}/nosuchgroup`, "--out", out], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`there is no group ${emu.rootUid}/nosuchgroup`);
    const malformed = await runExport(["--under", `${emu.rootUid}/../x`, "--out", out], env());
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(`--under must be a group's uid: it has a ".." segment`);
    expect(fs.existsSync(out)).toBe(false);
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: mine\n");
    const occupied = await runExport(["--under", emu.rootUid, "--out", out], env());
    expect(occupied.code).toBe(1);
    expect(occupied.stderr).toContain("already holds Pulumi.yaml");
    expect(fs.readdirSync(out)).toEqual(["Pulumi.yaml"]);
    const usage = await runExport([], env());
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("export needs --under <group uid>");
  });
});
