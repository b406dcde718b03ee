/**
 * The example organization (examples/org-hierarchy) under the REAL Pulumi CLI: the CLI's own
 * engine, its file backend and passphrase secrets, its dynamic-provider host, on the emulator.
 * The program runs as an Automation API inline program (tests/support/realCliRun.ts): preview and
 * up create the organization; console edits fail `preview --refresh --expect-no-changes`, named in
 * the engine's own diff; `up --refresh` repairs them; destroy leaves the organization as it was.
 * Each test runs alone (`-t`): one that needs the organization deployed deploys it first.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { call, OrgRecord, OrgSnapshot, snapshot } from "../../tools/engine/orgApi";
import { EXAMPLE_SSO_CLIENT_SECRET, exampleDir } from "../../tools/engine/orgProject";
import { realCliStack, RealCliStack } from "../support/realCli";

const PROJECT = "org-hierarchy";
const DYNAMIC = "pulumi-nodejs:dynamic/";
/** How the engine marks a secret value in the state. */
const SECRET_SIGNATURE = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

jest.setTimeout(300_000);

const writes = (emu: RunningEmulator) => emu.requests().filter((r) => r.method !== "GET");
const named = (records: OrgRecord[], name: string) => records.filter((r) => r.name === name);
/** `method path?updateMask=…` of each write, in order. */
const described = (emu: RunningEmulator) =>
  writes(emu).map(
    (r) => `${r.method} ${r.path}${r.query.updateMask ? `?updateMask=${String(r.query.updateMask)}` : ""}`,
  );

describe("the example organization under the real Pulumi CLI (Automation API, file backend)", () => {
  let emu: RunningEmulator;
  let stack: RealCliStack;
  let before: OrgSnapshot;
  const api = () => ({ url: emu.url, token: emu.token });

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    stack = realCliStack({
      programDir: exampleDir,
      project: PROJECT,
      label: "org",
      config: { "platform:apiUrl": emu.url, [`${PROJECT}:rootUid`]: emu.rootUid },
      secretConfig: { "platform:token": emu.token, [`${PROJECT}:ssoClientSecret`]: EXAMPLE_SSO_CLIENT_SECRET },
    });
    before = await snapshot(api(), emu.rootUid);
  });
  afterAll(async () => {
    await emu?.close();
    stack?.remove();
  });

  /** The dynamic resources in the state (not the stack, not the default provider). */
  const managed = () =>
    (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter((r) => r.type.startsWith(DYNAMIC));
  const inState = (name: string) => managed().find((r) => r.urn.endsWith(`::${name}`))!;

  async function deployed(): Promise<void> {
    if (managed().length > 0) return;
    const up = await stack.run("up");
    if (up.code !== 0) throw new Error(`deploying the example failed:\n${up.stdout}${up.stderr}`);
  }

  test("preview plans the organization without a write; up creates it with one POST a resource, its secrets encrypted", async () => {
    emu.clearRequests();
    const preview = await stack.run("preview");
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(` +  ${DYNAMIC}iam:Group engineering create`);
    expect(preview.stdout).toContain(` +  ${DYNAMIC}iam:IdentityProvider corporate-sso create`);
    // 17 resources and the stack.
    expect(preview.stdout).toMatch(/Resources:\s+\+ 18 to create/);
    expect(writes(emu)).toEqual([]);

    const up = await stack.run("up");
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/Resources:\s+\+ 18 created/);
    // 7 groups, 2 identities, a custom role, 4 bindings and an identity provider; a repo; a subscription.
    const posts = writes(emu).filter((r) => r.method === "POST");
    expect(posts.filter((r) => r.path.startsWith("/iam/"))).toHaveLength(7 + 2 + 1 + 4 + 1);
    expect(posts.filter((r) => r.path.startsWith("/registry/"))).toHaveLength(1);
    expect(posts.filter((r) => r.path.startsWith("/events/"))).toHaveLength(1);
    expect(writes(emu)).toHaveLength(posts.length);

    const org = await snapshot(api(), emu.rootUid);
    expect(inState("engineering").id).toBe(named(org.groups, "engineering")[0].uid);
    expect(up.outputs.tree.value).toMatchObject({ teams: { payments: named(org.groups, "payments")[0].uid } });
    // Each provider is stored as a bare require of the package installed under node_modules.
    for (const resource of managed()) {
      expect(resource.outputs!.__provider).toMatch(/const provider = require\("platform-pulumi\/dist\/resources\//);
      expect(String(resource.outputs!.__provider).length).toBeLessThan(400);
    }
    // The passphrase provider encrypts every secret: the client secret and the token are in no
    // state, config file or output; the identity provider's oidc is a secret in inputs and outputs.
    const checkpoint = fs.readFileSync(stack.checkpointFile, "utf8");
    const stackConfig = fs.readFileSync(path.join(stack.programDir, "Pulumi.dev.yaml"), "utf8");
    expect(stack.checkpoint()!.checkpoint.latest!.secrets_providers!.type).toBe("passphrase");
    for (const secret of [EXAMPLE_SSO_CLIENT_SECRET, emu.token]) {
      for (const text of [checkpoint, stackConfig, preview.stdout, up.stdout, up.runnerOutput])
        expect(text).not.toContain(secret);
    }
    const sso = inState("corporate-sso");
    expect(sso.inputs!.oidc).toMatchObject({ ...SECRET_SIGNATURE, ciphertext: expect.any(String) });
    expect(sso.outputs!.oidc).toMatchObject({ ...SECRET_SIGNATURE, ciphertext: expect.any(String) });
  });

  test("console edits fail preview --refresh --expect-no-changes, named in the engine's diff; up --refresh repairs each with one write", async () => {
    await deployed();
    const platformUid = inState("platform").id!;
    const repoUid = inState("platform-base").id!;
    const gitlab = inState("gitlab-ci");
    await call(api(), "PATCH", `/iam/v2beta1/groups/${platformUid}?updateMask=description`, {
      name: "platform",
      description: "edited by hand",
    });
    await call(api(), "PATCH", `/registry/v2beta1/repos/${repoUid}?updateMask=catalogTier`, {
      name: "platform-base",
      catalogTier: "CATALOG_TIER_APPLICATION",
    });
    await call(api(), "DELETE", `/iam/v2beta1/identities/${gitlab.id}`);

    const stateBefore = fs.readFileSync(stack.checkpointFile, "utf8");
    emu.clearRequests();
    const check = await stack.run("preview", { refresh: true, expectNoChanges: true, diff: true });
    // The CLI's exit code for "changes were proposed" (the local engine's is 255).
    expect(check.code).toBe(7);
    expect(check.stderr).toContain("error: no changes were expected for preview but changes were proposed");
    // The refresh names what the console changed, the update what the program puts back.
    const entry = (kind: string, step: string, name: string) =>
      `~ ${DYNAMIC}${kind}: \\(${step}\\)\\s+\\[id=[^\\]]+\\]\\s+\\[urn=[^\\]]+::${name}\\]`;
    expect(check.stdout).toMatch(
      new RegExp(
        `${entry("iam:Group", "refresh", "platform")}[^~]+~ description\\s*: "Platform engineering: CI/CD and base images" => "edited by hand"`,
      ),
    );
    expect(check.stdout).toMatch(
      new RegExp(
        `${entry("iam:Group", "update", "platform")}\\s+~ description\\s*: "edited by hand" => "Platform engineering: CI/CD and base images"`,
      ),
    );
    expect(check.stdout).toMatch(
      new RegExp(
        `${entry("registry:Repo", "refresh", "platform-base")}[^~]+~ catalogTier\\s*: "CATALOG_TIER_BASE" => "CATALOG_TIER_APPLICATION"`,
      ),
    );
    expect(check.stdout).toMatch(/~ catalogTier\s*: "CATALOG_TIER_APPLICATION" => "CATALOG_TIER_BASE"/);
    expect(check.stdout).toMatch(
      new RegExp(`\\+ ${DYNAMIC}iam:Identity: \\(create\\)\\s+\\[urn=[^\\]]+::gitlab-ci\\]`),
    );
    // Exactly the repairs: the two edits updated, the deleted identity and the binding the service
    // deleted with it created; nothing that takes a uid from an updated resource is replaced.
    expect(check.stdout).toMatch(/Resources:\s+\+ 2 to create\s+~ 2 to update\s+4 changes\. 14 unchanged/);
    expect(check.stdout).not.toMatch(/\(replace\)|to replace/);
    expect(writes(emu)).toEqual([]);
    // A preview's refresh stays in memory.
    expect(fs.readFileSync(stack.checkpointFile, "utf8")).toEqual(stateBefore);

    emu.clearRequests();
    const repair = await stack.run("up", { refresh: true });
    expect(repair.code).toBe(0);
    expect(repair.stdout).toMatch(/Resources:\s+\+ 2 created\s+~ 2 updated/);
    // One PATCH of each edited field; the deleted identity, and the binding the service deleted
    // with it, created again under the payments team.
    const payments = inState("payments").id!;
    expect(described(emu)).toEqual(
      expect.arrayContaining([
        `PATCH /iam/v2beta1/groups/${platformUid}?updateMask=description`,
        `PATCH /registry/v2beta1/repos/${repoUid}?updateMask=catalogTier`,
        `POST /iam/v2beta1/identities/${payments}`,
        `POST /iam/v2beta1/roleBindings/${payments}`,
      ]),
    );
    expect(writes(emu)).toHaveLength(4);
    const org = await snapshot(api(), emu.rootUid);
    expect(org.groups.find((g) => g.uid === platformUid)!.description).toBe(
      "Platform engineering: CI/CD and base images",
    );
    expect(org.repos.find((r) => r.uid === repoUid)!.catalogTier).toBe("CATALOG_TIER_BASE");
    const [newGitlab] = named(org.identities, "gitlab-ci");
    expect(inState("gitlab-ci").id).toBe(newGitlab.uid);
    expect(org.roleBindings.filter((b) => b.identityUid === newGitlab.uid)).toHaveLength(1);

    const clean = await stack.run("preview", { refresh: true, expectNoChanges: true });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/Resources:\s+18 unchanged/);
  });

  test("renaming a group in the program previews one update and no replacement; up sends one PATCH of its name", async () => {
    await deployed();
    const payments = inState("payments").id!;
    emu.clearRequests();
    const preview = await stack.run("preview", { diff: true, config: { [`${PROJECT}:paymentsName`]: "billing" } });
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/~ name\s*: "payments" => "billing"/);
    // The children, the identity, the binding and the repo under it keep its uid: they are unchanged.
    expect(preview.stdout).toMatch(/Resources:\s+~ 1 to update\s+17 unchanged/);
    expect(preview.stdout).not.toMatch(/\(replace\)|to replace/);
    expect(writes(emu)).toEqual([]);

    const up = await stack.run("up");
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/Resources:\s+~ 1 updated\s+17 unchanged/);
    expect(described(emu)).toEqual([`PATCH /iam/v2beta1/groups/${payments}?updateMask=name`]);
    expect(up.outputs.tree.value).toMatchObject({ teams: { payments } });
  });

  test("destroy leaves the organization exactly as it was", async () => {
    await deployed();
    const destroy = await stack.run("destroy");
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toMatch(/Resources:\s+- 18 deleted/);
    expect(managed()).toEqual([]);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
  });
});
