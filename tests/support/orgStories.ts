/**
 * The user stories on the example organization (examples/org-hierarchy), end to end: the local
 * engine, the REAL dynamic-provider host, the built package and the emulator. Shared by
 * tests/e2e.test.ts (CommonJS) and tests/e2e-esm.test.ts (ES module).
 */
import * as fs from "node:fs";
import { startProviderEmulator } from "./providerEmulator";
import type { RunningEmulator } from "../../emulator";
import { call, listAll, OrgRecord, OrgSnapshot, snapshot } from "../../tools/orgApi";
import { EXAMPLE_SSO_CLIENT_SECRET, orgStack, OrgStack } from "../../tools/orgProject";
import { journalFile, readState, StackState } from "../../tools/engine/state";

const writes = (emu: RunningEmulator) => emu.requests().filter((r) => r.method !== "GET");
const named = (records: OrgRecord[], name: string) => records.filter((r) => r.name === name);
const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));

export interface StoryVariant {
  /** What the describe block is called. */
  title: string;
  /** The Pulumi project folder to run (the repository root runs the example through its Pulumi.yaml). */
  cwd: string;
  esm: boolean;
  /** Names the stack's scratch folder. */
  label: string;
}

/**
 * The user stories of the example organization, one test each, on one emulator and one stack
 * per variant. In order they follow a team's stack through its life; each also runs alone
 * (`-t "<its name>"`): a test that needs the organization deployed deploys it first
 * (`deployed()`), and asserts only on what it does itself.
 */
export function describeOrgStories(variant: StoryVariant): void {
  describe(variant.title, () => {
    let emu: RunningEmulator;
    let stack: OrgStack;
    let before: OrgSnapshot;
    const settings: Record<string, string> = {};
    const api = () => ({ url: emu.url, token: emu.token });

    beforeAll(async () => {
      emu = await startProviderEmulator();
      stack = orgStack({
        url: emu.url,
        token: emu.token,
        rootUid: emu.rootUid,
        cwd: variant.cwd,
        label: variant.label,
        esm: variant.esm,
      });
      before = await snapshot(api(), emu.rootUid);
    });
    afterAll(async () => {
      await emu?.close();
      stack?.remove();
    });

    /** The stack deployed with the current settings: an `up` first unless the state already holds it. */
    async function deployed(): Promise<void> {
      const resources = stackState()?.resources ?? [];
      if (resources.length > 0) return;
      const up = await stack.run(["up"], settings);
      if (up.code !== 0) throw new Error(`deploying the example failed:\n${up.stdout}`);
    }

    test("up creates the hierarchy: groups, CI identities, a custom role, role bindings, a repo, a subscription, an identity provider and the outputs", async () => {
      expect(stackState()?.resources ?? []).toEqual([]);
      emu.clearRequests();
      const up = await stack.run(["up"], settings);
      expect(up.stdout).not.toContain("error");
      expect(up.code).toBe(0);
      expect(up.stdout).toContain(variant.esm ? "ES module" : "CommonJS");
      const org = await snapshot(api(), emu.rootUid);
      const [engineering] = named(org.groups, "engineering");
      expect(parentOf(engineering.uid)).toBe(emu.rootUid);
      for (const team of ["platform", "payments", "data"])
        expect(parentOf(named(org.groups, team)[0].uid)).toBe(engineering.uid);
      expect(parentOf(named(org.groups, "oncall")[0].uid)).toBe(named(org.groups, "platform")[0].uid);
      expect(parentOf(named(org.groups, "ledger")[0].uid)).toBe(named(org.groups, "payments")[0].uid);
      const [github] = named(org.identities, "github-deploy");
      expect(github.claimMatch).toMatchObject({
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/app:ref:refs/heads/main",
      });
      expect(named(org.identities, "gitlab-ci")[0].claimMatch).toMatchObject({ issuer: "https://gitlab.com" });
      const created = org.roleBindings.filter((b) => !before.roleBindings.some((o) => o.uid === b.uid));
      expect(created.map((b) => (b.role as OrgRecord).name).sort()).toEqual([
        "image-publisher",
        "viewer",
        "viewer",
        "viewer",
      ]);
      const [publisher] = named(org.roles, "image-publisher");
      expect(publisher.definedOn).toBe(engineering.uid);
      expect(created.find((b) => b.roleUid === publisher.uid)).toMatchObject({
        identityUid: github.uid,
        uid: expect.stringMatching(new RegExp(`^${named(org.groups, "platform")[0].uid}/`)),
      });
      const [platformBase] = named(org.repos, "platform-base");
      expect(parentOf(platformBase.uid)).toBe(named(org.groups, "platform")[0].uid);
      expect(platformBase).toMatchObject({ catalogTier: "CATALOG_TIER_BASE" });
      const subscriptions = org.subscriptions.filter((s) => parentOf(s.uid) === engineering.uid);
      expect(subscriptions.map((s) => s.sink)).toEqual(["https://hooks.example.com/engineering-events"]);
      const [sso] = named(org.identityProviders, "corporate-sso");
      expect(parentOf(sso.uid)).toBe(engineering.uid);
      expect(sso.oidc).toEqual({
        issuer: "https://login.example.com",
        clientId: "platform-engineering",
        groupsClaim: "groups",
      });
      // The client secret (never answered by the service) is a secret in the state; no run shows it.
      const ssoEntry = up.state!.resources.find((r) => r.urn.endsWith("::corporate-sso"))!;
      expect(ssoEntry.secretProperties).toContain("oidc");
      expect(ssoEntry.outputs.oidc.clientSecret).toBe(EXAMPLE_SSO_CLIENT_SECRET);
      expect(up.stdout + up.stderr).not.toContain(EXAMPLE_SSO_CLIENT_SECRET);
      // Every resource is exactly one POST: 7 groups, 2 identities, a role, 4 bindings and an
      // identity provider; a repo; a subscription.
      const posts = writes(emu).filter((r) => r.method === "POST");
      expect(posts.filter((r) => r.path.startsWith("/iam/"))).toHaveLength(7 + 2 + 1 + 4 + 1);
      expect(posts.filter((r) => r.path.startsWith("/registry/"))).toHaveLength(1);
      expect(posts.filter((r) => r.path.startsWith("/events/"))).toHaveLength(1);
      expect(writes(emu)).toHaveLength(posts.length);

      const outputs = up.state!.outputs;
      expect(outputs.tree.teams.payments).toBe(named(org.groups, "payments")[0].uid);
      expect(outputs.tree.identities["gitlab-ci"]).toBe(named(org.identities, "gitlab-ci")[0].uid);
      expect(outputs.tree.roles["image-publisher"]).toBe(publisher.uid);
      expect(outputs.tree.repos["platform-base"]).toBe(platformBase.uid);
      expect(outputs.tree.subscriptions["engineering-events"]).toBe(subscriptions[0].uid);
      expect(outputs.tree.identityProviders["corporate-sso"]).toBe(sso.uid);
      expect(outputs.roleBindings.map((b: { uid: string }) => b.uid).sort()).toEqual(created.map((b) => b.uid).sort());
      // The look-ups' results, against the same records read directly from the service.
      const catalog = await registryCatalog();
      const platformImages = outputs.images.platform as { repo: string; uid: string; tags: string[] }[];
      expect(platformImages.map((i) => i.repo).sort()).toEqual(["nginx", "node"]);
      for (const image of platformImages) expect(image.tags).toEqual(catalog.tagsOf(image.uid));
      expect(outputs.images.data.map((i: { repo: string }) => i.repo)).toEqual(["python"]);
      expect(outputs.advisoriesPerRepo).toEqual(catalog.advisoriesPerRepo(["nginx", "node", "python"]));
      expect(Object.values(outputs.advisoriesPerRepo).every((n) => Number(n) > 0)).toBe(true);
    });

    test("re-running the unchanged program plans nothing and sends no write", async () => {
      await deployed();
      emu.clearRequests();
      const preview = await stack.run(["preview", "--expect-no-changes"], settings);
      expect(preview.code).toBe(0);
      expect(preview.stdout).toContain("(no changes)");
      const up = await stack.run(["up"], settings);
      expect(up.code).toBe(0);
      expect(writes(emu)).toEqual([]);
    });

    test("renaming a group in config is exactly one PATCH of its name", async () => {
      await deployed();
      const payments = uidInState("payments");
      settings.paymentsName = "billing";
      emu.clearRequests();
      const preview = await stack.run(["preview"], settings);
      expect(preview.stdout).toContain(`~ name: "payments" => "billing"`);
      // What lives under the group keeps its uid (the id, known in a preview): nothing else changes.
      expect(preview.stdout).toMatch(/Resources:\s+~ 1 to update\s+\d+ unchanged/);
      expect(preview.stdout).not.toContain("replace");
      expect(writes(emu)).toEqual([]);
      const up = await stack.run(["up"], settings);
      expect(up.code).toBe(0);
      const patches = writes(emu);
      expect(patches).toHaveLength(1);
      expect(patches[0]).toMatchObject({ method: "PATCH", path: `/iam/v2beta1/groups/${payments}` });
      expect(patches[0].query.updateMask).toBe("name");
      const org = await snapshot(api(), emu.rootUid);
      expect(org.groups.find((g) => g.uid === payments)!.name).toBe("billing");
    });

    test("moving a group to another parent replaces it: the new one is created, then the old one deleted", async () => {
      await deployed();
      const oldLedger = uidInState("ledger");
      const data = uidInState("data");
      settings.ledgerParent = "data";
      const preview = await stack.run(["preview"], settings);
      expect(preview.stdout).toMatch(/\+-\s+pulumi-nodejs:dynamic\/iam:Group\s+ledger\s+replace/);
      expect(preview.stdout).toContain("(forces replacement)");
      emu.clearRequests();
      const up = await stack.run(["up"], settings);
      expect(up.code).toBe(0);
      expect(up.stdout).toContain("+-1 replaced");
      const methods = writes(emu).map((r) => `${r.method} ${r.path}`);
      expect(methods).toEqual([`POST /iam/v2beta1/groups/${data}`, `DELETE /iam/v2beta1/groups/${oldLedger}`]);
      const org = await snapshot(api(), emu.rootUid);
      const ledgers = named(org.groups, "ledger");
      expect(ledgers).toHaveLength(1);
      expect(parentOf(ledgers[0].uid)).toBe(data);
    });

    test("drift: a description edited, an identity deleted and a repo's tier changed in the console fail the check, and up repairs all three", async () => {
      await deployed();
      const platformUid = uidInState("platform");
      const gitlabUid = stackState()!.outputs.tree.identities["gitlab-ci"];
      await call(api(), "PATCH", `/iam/v2beta1/groups/${platformUid}?updateMask=description`, {
        name: "platform",
        description: "edited by hand",
      });
      await call(api(), "DELETE", `/iam/v2beta1/identities/${gitlabUid}`);
      const repoUid = stackState()!.outputs.tree.repos["platform-base"];
      await call(api(), "PATCH", `/registry/v2beta1/repos/${repoUid}?updateMask=catalogTier`, {
        name: "platform-base",
        catalogTier: "CATALOG_TIER_APPLICATION",
      });

      // The state's files, snapshot and journal, untouched by a preview.
      const stateFiles = () =>
        [stack.stateFile, journalFile(stack.stateFile)].map((f) =>
          fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "",
        );
      const stateBefore = stateFiles();
      const check = await stack.run(["preview", "--refresh", "--expect-no-changes"], settings);
      expect(stateFiles()).toEqual(stateBefore);
      expect(check.code).not.toBe(0);
      expect(check.stdout).toContain("no changes were expected");
      expect(check.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:Group "platform": description/);
      expect(check.stdout).toMatch(/\+ pulumi-nodejs:dynamic\/iam:Identity "gitlab-ci": would be created/);
      expect(check.stdout).toMatch(/~ pulumi-nodejs:dynamic\/registry:Repo "platform-base": catalogTier/);
      expect(check.stdout).not.toContain("replace");

      const repair = await stack.run(["up", "--refresh"], settings);
      expect(repair.code).toBe(0);
      const org = await snapshot(api(), emu.rootUid);
      expect(org.groups.find((g) => g.uid === platformUid)!.description).toBe(
        "Platform engineering: CI/CD and base images",
      );
      expect(org.repos.find((r) => r.uid === repoUid)!.catalogTier).toBe("CATALOG_TIER_BASE");
      const [gitlab] = named(org.identities, "gitlab-ci");
      expect(gitlab).toBeDefined();
      // The service deleted the identity's binding with it: the repair binds the new identity again.
      expect(org.roleBindings.filter((b) => b.identityUid === gitlab.uid)).toHaveLength(1);
      const clean = await stack.run(["preview", "--refresh", "--expect-no-changes"], settings);
      expect(clean.code).toBe(0);
    });

    test("destroy leaves the organization exactly as it was", async () => {
      await deployed();
      const destroy = await stack.run(["destroy"], settings);
      expect(destroy.code).toBe(0);
      expect(destroy.state!.resources).toEqual([]);
      expect(await snapshot(api(), emu.rootUid)).toEqual(before);
    });

    /** Repos, their tags and advisories as the service lists them, for comparing with the program's look-ups. */
    async function registryCatalog() {
      const [tags, advisories] = await Promise.all([
        listAll(api(), "registry", "tags", emu.rootUid),
        listAll(api(), "vulnerabilities", "advisories", emu.rootUid),
      ]);
      return {
        tagsOf: (repoUid: string) =>
          tags
            .filter((t) => parentOf(t.uid) === repoUid)
            .map((t) => String(t.name))
            .sort(),
        advisoriesPerRepo: (repos: string[]) =>
          Object.fromEntries(repos.map((repo) => [repo, advisories.filter((a) => a.artifactName === repo).length])),
      };
    }

    function stackState(): StackState | undefined {
      return readState(stack.stateFile);
    }

    /** A group's uid from the state, by its resource name. */
    function uidInState(resourceName: string): string {
      const entry = stackState()?.resources.find((r) => r.urn.endsWith(`::${resourceName}`));
      if (!entry) throw new Error(`no resource ${resourceName} in the state`);
      return entry.id;
    }
  });
}
