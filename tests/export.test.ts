/**
 * `platform-pulumi export`, round trip, end to end: an emulator organization of 20 groups,
 * 10 identities of mixed claim shapes and kinds, 2 custom roles and 22 role bindings is exported as a Pulumi
 * project (the large organizations are bench/'s);
 * the project type-checks against the package's declarations; the real Pulumi CLI (its engine, the
 * dynamic-provider host it launches) runs `up` on it and adopts every record without creating,
 * changing or deleting any;
 * `preview --refresh --expect-no-changes` passes; a console edit shows as drift; `destroy`
 * leaves the organization exactly as it was. The same for one team's subtree, as JavaScript.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BUILTIN_ROLES } from "../emulator";
import { startProviderEmulator } from "../tools/host/providerEmulator";
import type { RunningEmulator } from "../emulator";
import { call, listAll, OrgSnapshot, snapshot } from "../tools/orgApi";
import { withoutPlatformEnv } from "../tools/orgProject";
import { repoRoot } from "../tools/host/stage";
import { BigOrg, buildOrganization, runExport } from "./support/exportOrganization";
import { HOSTILE_GROUP_NAMES, HOSTILE_NAMES } from "./support/hostileNames";
import { ProgramProject, programProject } from "./support/programProject";
import { typeErrors } from "./support/typeCheck";

jest.setTimeout(900_000);

/** The export's settings, from the environment as the provider reads them: the emulator's URL and token. */
const exportEnv = (emu: RunningEmulator) => ({
  ...withoutPlatformEnv(),
  PLATFORM_API_URL: emu.url,
  PLATFORM_TOKEN: emu.token,
});

/** The project name an export wrote into Pulumi.yaml. */
const projectNameOf = (project: string) =>
  /^name: (.+)$/m.exec(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8"))![1];

/**
 * An exported project as a stack under the real CLI, configured for the emulator; `secretConfig`
 * holds the secret config keys the export asks for (short keys are the project's own).
 */
const stackOf = (
  emu: RunningEmulator,
  project: string,
  secretConfig: Record<string, string> = {},
  stacks?: ProgramProject[],
): ProgramProject => {
  const stack = programProject({ name: projectNameOf(project), program: { dir: project }, api: emu, secretConfig });
  stacks?.push(stack);
  return stack;
};

const newWorkDir = () => {
  const work = path.join(repoRoot, ".work", `export-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  fs.mkdirSync(work, { recursive: true });
  return work;
};

describe("platform-pulumi export: round trip under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let org: BigOrg;
  let work: string;
  const stacks: ProgramProject[] = [];
  const api = () => ({ url: emu.url, token: emu.token });
  const env = () => exportEnv(emu);
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emu = await startProviderEmulator();
    // The smallest that keeps every claim shape, identity kind and nesting depth.
    org = await buildOrganization(api(), emu.rootUid, { teams: 4, groupsPerTeam: 4, identities: 10 });
    work = newWorkDir();
  });
  afterAll(async () => {
    await emu?.close();
    for (const stack of stacks) stack.remove();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("the whole organization: exported, adopted by up with nothing created, changed or deleted, drift seen, destroy leaves it as it was", async () => {
    expect(org.groups).toBe(20);
    const before: OrgSnapshot = await snapshot(api(), emu.rootUid);
    expect(before.identities.length).toBeGreaterThanOrEqual(org.identities);
    expect(before.roleBindings.length).toBeGreaterThanOrEqual(org.bindings);
    const project = path.join(work, "whole");

    const exported = await runExport(["--under", emu.rootUid, "--out", project], env());
    expect(exported.stderr).toMatch(/read 20 groups/);
    expect(exported.code).toBe(0);
    for (const count of [
      `${before.groups.length} iam.Group,`,
      `${before.identities.length} iam.Identity,`,
      `${before.roleBindings.length} iam.RoleBinding,`,
      "1 iam.IdentityProvider,",
      "2 iam.Role,",
      // The seeded root's own (its uid is the root's), and the two the organization adds.
      "3 iam.AccountAssociation,",
    ])
      expect(exported.stdout).toContain(count);
    expect(fs.readdirSync(project).sort()).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
    const program = fs.readFileSync(project + "/index.ts", "utf8");
    expect(program).not.toContain(emu.token);
    // Roles outside the tree are named by uid, never declared; references are Outputs.
    const roles = await call<{ roles: { uid: string; name: string }[] }>(
      api(),
      "GET",
      "/iam/v2beta1/roles?page_size=200",
    );
    const viewer = roles.roles.find((r) => r.name === "viewer")!;
    expect(program).toContain(`const viewerRoleUid = "${viewer.uid}"; // the role "viewer", not declared here`);
    expect(program).not.toContain("getRole");
    expect(program).toMatch(/parentUid: team0\.uid/);
    // Custom roles are declared where they are defined, read from the groups' children.
    expect(program.match(/new platform\.iam\.Role\(/g)).toHaveLength(2);
    expect(program).toMatch(/"publisher0",\s+\{\s+parentUid: ci\w*\.uid,\s+name: "publisher-0",/);
    expect(program).toMatch(/roleUid: publisher0\.uid,/);
    // An association refers to its group, whose uid is also its own.
    expect(program).toMatch(/new platform\.iam\.AccountAssociation\(\s+"awsProduction",\s+\{\s+groupUid: underUid,/);
    expect(program).toMatch(/new platform\.iam\.AccountAssociation\(\s+"team3Aws",\s+\{\s+groupUid: team3\.uid,/);
    // Every declared resource is adopted: the tree's groups, identities and bindings, and the
    // seeded registry and events records below the root.
    const declaredCount = (program.match(/^const \w+ = new platform/gm) ?? []).length;
    expect(declaredCount).toBeGreaterThanOrEqual(
      before.groups.length + before.identities.length + before.roleBindings.length,
    );
    // By key, or by uid for the records no key tells apart (the seeded subscriptions).
    expect((program.match(/^ +(adopt: true|adoptUid: "[0-9a-f/]+"),$/gm) ?? []).length).toBe(declaredCount);
    expect((program.match(/^const \w+ = new platform/gm) ?? []).length).toBe(
      new Set(program.match(/^const (\w+) = new platform/gm)).size,
    );
    // The seeded identity provider's client secret is never answered: the program reads it from
    // a secret config key its Pulumi.yaml declares, and adoption writes it.
    expect(program).toContain(`clientSecret: config.requireSecret("corpSsoOidcClientSecret"),`);
    const projectName = projectNameOf(project);
    expect(fs.readFileSync(project + "/Pulumi.yaml", "utf8")).toContain(`${projectName}:corpSsoOidcClientSecret:`);
    expect(typeErrors(project, "export-typecheck")).toEqual([]);
    // The same tree exports to the same text: a stable order and stable names.
    const again = path.join(work, "whole-again");
    expect((await runExport(["--under", emu.rootUid, "--out", again], env())).code).toBe(0);
    expect(fs.readFileSync(again + "/index.ts", "utf8")).toBe(program);

    const stack = stackOf(emu, project, { corpSsoOidcClientSecret: "emulator-secret" }, stacks);
    emu.clearRequests();
    // No test here reads an interrupted operation's checkpoint: only the final one is written.
    const up = await stack.run("up");
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    const custom = stack.resources();
    expect(custom).toHaveLength(declaredCount);
    expect(custom.filter((r) => r.outputs!.adopted !== true)).toEqual([]);
    // Nothing was created or deleted: only refused creates (then adoption) reached the service,
    // and the one write adoption cannot avoid: the identity provider's client secret.
    const sso = custom.find((r) => r.outputs!.name === "corp-sso")!;
    expect(writes().filter((r) => r.status < 400)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${sso.id}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);

    // One drift check over everything: the group edited in the console is its one change, so every
    // other adopted record refreshes clean (a clean check of its own would read them all again).
    const edited = before.groups.find((g) => g.name === "web")!;
    await call(api(), "PATCH", `/iam/v2beta1/groups/${edited.uid}?updateMask=description`, {
      name: edited.name,
      description: "by hand",
    });
    const drift = await stack.run("preview --refresh --expect-no-changes --diff");
    expect(drift.code).toBe(7);
    expect(drift.stdout).toMatch(
      new RegExp(
        `~ pulumi-nodejs:dynamic/iam:Group: \\(update\\)\\s+\\[id=${edited.uid}\\]\\s+\\[urn=[^\\]]+\\]\\s+(?:\\S[^\\n]*\\n\\s*)*?- description\\s*: "by hand"`,
      ),
    );
    expect(drift.stdout).toMatch(new RegExp(`Resources:\\s+~ 1 to update\\s+${declaredCount} unchanged`));

    const beforeDestroy = await snapshot(api(), emu.rootUid);
    emu.clearRequests();
    const destroy = await stack.run("destroy");
    expect(destroy.code).toBe(0);
    expect(stack.resources()).toEqual([]);
    expect(writes()).toEqual([]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(beforeDestroy);
  });

  test("one team's subtree, as JavaScript: adopted by up, no changes, destroy leaves it as it was", async () => {
    const team = org.teams[3];
    const before = await snapshot(api(), emu.rootUid);
    const inTeam = (uid: string) => uid.startsWith(`${team}/`);
    const project = path.join(work, "team");

    const exported = await runExport(["--under", team, "--out", project, "--js"], env());
    expect(exported.code).toBe(0);
    expect(fs.readdirSync(project).sort()).toEqual(["Pulumi.yaml", "index.js", "package.json"]);
    const program = fs.readFileSync(project + "/index.js", "utf8");
    expect(program).toContain(`const platform = require("platform-pulumi");`);
    expect(program).toContain(`const underUid = ${JSON.stringify(team)};`);

    const stack = stackOf(emu, project, {}, stacks);
    emu.clearRequests();
    const up = await stack.run("up");
    expect(up.code).toBe(0);
    expect(path.basename(stack.stack.entry)).toBe("index.js");
    const declared = stack.resources().map((r) => r.id!);
    const expected = [...before.groups, ...before.identities, ...before.roleBindings].filter((r) => inTeam(r.uid));
    const customRoles = before.roles.filter((r) => inTeam(String(r.definedOn)));
    expect(customRoles.map((r) => r.name)).toEqual(["publisher-3"]);
    // The team's own association is exported with what is below it; its uid is the team's.
    expect(org.associations[0]).toBe(team);
    expect(declared.sort()).toEqual([...[...expected, ...customRoles].map((r) => r.uid), ...org.associations].sort());
    expect(writes().filter((r) => r.status < 400)).toEqual([]);
    expect((await stack.run("preview --refresh --expect-no-changes")).code).toBe(0);
    expect((await stack.run("destroy")).code).toBe(0);
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

interface HostileOrg {
  hostile: string;
  builtinViewer: string;
  customViewerAbove: string;
  /** Records the provider would refuse or a program cannot carry, by uid, with what the export must say. */
  refused: Map<string, RegExp>;
}

/**
 * Below the root, a group `hostile` holding what once broke an export, and a sibling group with
 * a custom role named `viewer`; the root itself defines another custom `viewer`, usable below it.
 */
async function buildHostileOrganization(api: { url: string; token: string }, rootUid: string): Promise<HostileOrg> {
  const post = (p: string, body: unknown) => call<{ uid: string }>(api, "POST", p, body);
  const claimMatch = (subject: string) => ({ issuer: "https://token.example.com", subject });
  const builtinViewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
  const sibling = await post(`/iam/v2beta1/groups/${rootUid}`, { name: "sibling" });
  await post(`/iam/v2beta1/roles/${sibling.uid}`, { name: "viewer", capabilities: ["CAP_REPO_LIST"] });
  const customViewerAbove = (
    await post(`/iam/v2beta1/roles/${rootUid}`, { name: "viewer", capabilities: ["CAP_IAM_GROUPS_LIST"] })
  ).uid;
  const hostile = (await post(`/iam/v2beta1/groups/${rootUid}`, { name: "hostile" })).uid;
  const groups = new Map<string, string>();
  for (const name of HOSTILE_GROUP_NAMES)
    groups.set(name, (await post(`/iam/v2beta1/groups/${hostile}`, { name })).uid);
  // Every hostile name as an identity (some inside the group named `require`): a group's may not hold capitals.
  const identities = new Map<string, string>();
  for (const [i, name] of HOSTILE_NAMES.entries()) {
    const parent = i % 2 ? groups.get("require")! : hostile;
    identities.set(name, (await post(`/iam/v2beta1/identities/${parent}`, { name, claimMatch: claimMatch(name) })).uid);
  }
  // Descriptions that are uids: of each other (a cycle, were they references), of a role, of the tree's group.
  const a = await post(`/iam/v2beta1/groups/${hostile}`, { name: "a" });
  const b = await post(`/iam/v2beta1/groups/${hostile}`, { name: "b", description: a.uid });
  await call(api, "PATCH", `/iam/v2beta1/groups/${a.uid}?updateMask=description`, { name: "a", description: b.uid });
  await post(`/iam/v2beta1/groups/${a.uid}`, { name: "c", description: builtinViewer });
  await post(`/iam/v2beta1/groups/${b.uid}`, { name: "d", description: hostile });
  // The built-in viewer and the custom one above, both named "viewer", bound in the tree (each on the
  // identity's own group: one in `require`, one in `hostile`).
  for (const [name, roleUid] of [
    ["Object", builtinViewer],
    ["Array", customViewerAbove],
    ["require", customViewerAbove],
  ]) {
    const identityUid = identities.get(name)!;
    await post(`/iam/v2beta1/roleBindings/${identityUid.slice(0, identityUid.lastIndexOf("/"))}`, {
      identityUid,
      roleUid,
    });
  }
  // Twins no key tells apart.
  for (let i = 0; i < 2; i++) {
    await post(`/iam/v2beta1/groupInvites/${hostile}`, { roleUid: builtinViewer, ttl: "86400s" });
    await post(`/events/v2beta1/subscriptions/${hostile}`, { sink: "https://hooks.example.com/twins" });
  }
  // An overlay whose config is empty: the program declares `config: {}`.
  await post(`/registry/v2beta1/overlays/${hostile}`, { name: "empty", config: {} });
  // What the provider refuses, or a program cannot carry.
  const refused = new Map<string, RegExp>();
  const refuse = async (p: string, body: unknown, reason: RegExp) => refused.set((await post(p, body)).uid, reason);
  await refuse(
    `/iam/v2beta1/identities/${hostile}`,
    { name: "", claimMatch: claimMatch("x") },
    /name: must not be empty/,
  );
  await refuse(
    `/iam/v2beta1/groups/${hostile}`,
    { name: "long", description: "d".repeat(5000) },
    /description: must be at most 4096 characters/,
  );
  const claims = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`claim${i}`, "v"]));
  await refuse(
    `/iam/v2beta1/identities/${hostile}`,
    { name: "claims", claimMatch: { ...claimMatch("y"), claims } },
    /claimMatch\.claims: must have at most 64 entries \(it has 65\)/,
  );
  await refuse(
    `/iam/v2beta1/identities/${hostile}`,
    JSON.parse(
      '{"name": "proto", "claimMatch": {"issuer": "https://token.example.com", "subject": "z", "claims": {"__proto__": "x", "team": "a"}}}',
    ),
    /claimMatch\.claims: has the key "__proto__", which the Pulumi SDK drops from every input/,
  );
  await refuse(
    `/iam/v2beta1/groups/${hostile}`,
    { name: "surrogate", description: "half \ud800 a pair" },
    /description: holds text that is not well-formed Unicode/,
  );
  return { hostile, builtinViewer, customViewerAbove, refused };
}

describe("platform-pulumi export of a hostile organization: whatever the records hold, the program type-checks and up adopts every record", () => {
  let emu: RunningEmulator;
  let org: HostileOrg;
  let work: string;
  const stacks: ProgramProject[] = [];
  const api = () => ({ url: emu.url, token: emu.token });
  /** Everything below the hostile group, the collections a snapshot leaves out included, as the service answers it. */
  const everything = async () => ({
    ...(await snapshot(api(), org.hostile)),
    groupInvites: await listAll(api(), "iam", "groupInvites", org.hostile),
    overlays: await listAll(api(), "registry", "overlays", org.hostile),
  });

  beforeAll(async () => {
    emu = await startProviderEmulator();
    org = await buildHostileOrganization(api(), emu.rootUid);
    work = newWorkDir();
  });
  afterAll(async () => {
    await emu?.close();
    for (const stack of stacks) stack.remove();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("records the provider would refuse fail the export, each named with the reason, and nothing is written", async () => {
    const out = path.join(work, "refused");
    const exported = await runExport(["--under", org.hostile, "--out", out], exportEnv(emu));
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain(
      `${org.refused.size} records cannot be declared as they are, so nothing was written`,
    );
    for (const [uid, reason] of org.refused) {
      const line = exported.stderr.split("\n").find((l) => l.includes(` ${uid}: `));
      expect([uid, line]).toEqual([uid, expect.stringMatching(reason)]);
    }
    expect(exported.stderr).toContain("--partial");
    expect(fs.existsSync(out)).toBe(false);
  });

  test("--partial: the rest type-checks, up adopts every record with no write, preview is clean; the JavaScript runs too", async () => {
    const before = await everything();
    const project = path.join(work, "hostile");
    const exported = await runExport(["--under", org.hostile, "--out", project, "--partial"], exportEnv(emu));
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`left out ${org.refused.size} record(s)`);
    const program = fs.readFileSync(path.join(project, "index.ts"), "utf8");
    for (const [uid, reason] of org.refused) {
      const comment = program.split("\n").find((l) => l.startsWith("//") && l.includes(` ${uid}: `));
      expect([uid, comment]).toEqual([uid, expect.stringMatching(reason)]);
      expect(program).not.toContain(`"${uid}"`);
    }
    // No variable is a global, a module binding, a reserved word or one of the program's own names.
    const variables = [...program.matchAll(/^const (\S+) = /gm)].map((m) => m[1]);
    expect(new Set(variables).size).toBe(variables.length);
    for (const taken of ["require", "exports", "module", "platform", "pulumi", "undefined", "eval", "globalThis"])
      expect(variables).not.toContain(taken);
    // Both roles named "viewer" by uid, never looked up by name.
    expect(program).not.toContain("getRole");
    for (const uid of [org.builtinViewer, org.customViewerAbove])
      expect(program).toMatch(
        new RegExp(`^const viewerRoleUid2? = "${uid}"; // the role "viewer", not declared here$`, "m"),
      );
    // Descriptions that are uids stay text.
    expect(program).toContain(`description: "${org.builtinViewer}",`);
    expect(program).toContain(`description: "${org.hostile}",`);
    expect(program).not.toMatch(/description: \w+\.uid/);
    // Twins adopt by uid; the empty overlay config is declared.
    expect((program.match(/^ +adoptUid: "/gm) ?? []).length).toBe(
      before.groupInvites.length + before.subscriptions.length,
    );
    expect(program).toMatch(/name: "empty",\n\s+config: \{\},/);
    expect(typeErrors(project, "export-hostile-typecheck")).toEqual([]);

    const stack = stackOf(emu, project, {}, stacks);
    emu.clearRequests();
    const up = await stack.run("up");
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    const custom = stack.resources();
    expect(custom).toHaveLength((program.match(/^const \w+ = new platform/gm) ?? []).length);
    expect(custom.filter((r) => r.outputs!.adopted !== true)).toEqual([]);
    expect(emu.requests().filter((r) => r.method !== "GET" && r.status < 400)).toEqual([]);
    expect(await everything()).toEqual(before);
    const proto = before.identities.find((i) => i.name === "proto")!;
    const answered = await fetch(`${emu.url}/iam/v2beta1/identities/${proto.uid}`, {
      headers: { authorization: `Bearer ${emu.token}` },
    });
    expect(await answered.text()).toContain(`"claims":{"__proto__":"x","team":"a"}`);
    expect((await stack.run("preview --refresh --expect-no-changes")).code).toBe(0);

    // The same records as CommonJS: the program loads and runs (its preview plans one adoption each).
    const js = path.join(work, "hostile-js");
    expect((await runExport(["--under", org.hostile, "--out", js, "--partial", "--js"], exportEnv(emu))).code).toBe(0);
    const preview = await stackOf(emu, js, {}, stacks).run("preview");
    expect(preview.stderr).toBe("");
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(new RegExp(`Resources:\\s+\\+ ${custom.length + 1} to create`));
  });
});
