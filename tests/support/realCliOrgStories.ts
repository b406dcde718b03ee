/**
 * The example organization (examples/org-hierarchy) under the REAL Pulumi CLI: the CLI's own
 * engine, its file backend and passphrase secrets, its dynamic-provider host, on the emulator.
 * Shared by tests/realCli/orgHierarchy.test.ts (CommonJS, the whole story) and
 * orgHierarchyEsm.test.ts (the program compiled to an ES module: it creates and destroys the
 * organization). The program runs as an Automation API inline program
 * (tools/pulumi-cli/automation.ts): preview and up create the organization; console edits fail
 * `preview --refresh --expect-no-changes`, named in the engine's own diff; `up --refresh` repairs
 * them; a rename previews as one update; a move to another parent is a replacement, the new group
 * created before the old one is deleted; an upgrade of the package changes nothing; destroy leaves
 * the organization as it was. Each test runs alone (`-t`): one that needs the organization
 * deployed deploys it first.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { call, listAll, OrgRecord, OrgSnapshot, snapshot } from "../../tools/orgApi";
import { ownCopyOfPackage } from "../../tools/host/stage";
import { EXAMPLE_SSO_CLIENT_SECRET, exampleDir } from "../../tools/orgProject";
import { realCliStack, RealCliStack, SECRET_SIGNATURE } from "./realCli";

const PROJECT = "org-hierarchy";
const DYNAMIC = "pulumi-nodejs:dynamic/";

const writes = (emu: RunningEmulator) => emu.requests().filter((r) => r.method !== "GET");
const named = (records: OrgRecord[], name: string) => records.filter((r) => r.name === name);
const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
/** `method path?updateMask=…` of each write, in order. */
const described = (emu: RunningEmulator) =>
  writes(emu).map(
    (r) => `${r.method} ${r.path}${r.query.updateMask ? `?updateMask=${String(r.query.updateMask)}` : ""}`,
  );

export interface RealCliStoryVariant {
  title: string;
  /** The program compiled to an ES module (index.mjs, loaded with import()) rather than CommonJS. */
  esm: boolean;
  /** Names the stack's scratch folders. */
  label: string;
  /** The drift, rename, move and upgrade steps too; without them up creates the organization, destroy removes it. */
  wholeStory: boolean;
}

export function describeRealCliOrgStories(variant: RealCliStoryVariant): void {
  describe(variant.title, () => {
    let emu: RunningEmulator;
    let stack: RealCliStack;
    let before: OrgSnapshot;
    const api = () => ({ url: emu.url, token: emu.token });

    beforeAll(async () => {
      emu = await startEmulator({ quiet: true });
      stack = realCliStack({
        programDir: exampleDir,
        project: PROJECT,
        label: variant.label,
        esm: variant.esm,
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

      // The program ran as the variant compiled it: no other form of it exists in the folder.
      expect(path.basename(stack.entry)).toBe(variant.esm ? "index.mjs" : "index.js");
      expect(fs.existsSync(path.join(stack.programDir, variant.esm ? "index.js" : "index.mjs"))).toBe(false);
      const org = await snapshot(api(), emu.rootUid);
      expect(inState("engineering").id).toBe(named(org.groups, "engineering")[0].uid);
      // The hierarchy as the program declares it.
      const [engineering] = named(org.groups, "engineering");
      const [platform] = named(org.groups, "platform");
      expect(parentOf(engineering.uid)).toBe(emu.rootUid);
      for (const team of ["platform", "payments", "data"])
        expect(parentOf(named(org.groups, team)[0].uid)).toBe(engineering.uid);
      expect(parentOf(named(org.groups, "oncall")[0].uid)).toBe(platform.uid);
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
        uid: expect.stringMatching(new RegExp(`^${platform.uid}/`)),
      });
      const [platformBase] = named(org.repos, "platform-base");
      expect(parentOf(platformBase.uid)).toBe(platform.uid);
      expect(platformBase).toMatchObject({ catalogTier: "CATALOG_TIER_BASE" });
      const subscriptions = org.subscriptions.filter((s) => parentOf(s.uid) === engineering.uid);
      expect(subscriptions.map((s) => s.sink)).toEqual(["https://hooks.example.com/engineering-events"]);
      const [ssoRecord] = named(org.identityProviders, "corporate-sso");
      expect(parentOf(ssoRecord.uid)).toBe(engineering.uid);
      // The service holds the client secret but never answers it.
      expect(ssoRecord.oidc).toEqual({
        issuer: "https://login.example.com",
        clientId: "platform-engineering",
        groupsClaim: "groups",
      });

      // The stack outputs: the tree of uids, the bindings, and the look-ups' results against the
      // same records read directly from the service.
      const outputs = Object.fromEntries(
        Object.entries(up.outputs).map(([name, output]) => [name, output.value]),
      ) as any;
      expect(outputs.tree).toMatchObject({
        teams: { payments: named(org.groups, "payments")[0].uid },
        identities: { "gitlab-ci": named(org.identities, "gitlab-ci")[0].uid },
        roles: { "image-publisher": publisher.uid },
        repos: { "platform-base": platformBase.uid },
        subscriptions: { "engineering-events": subscriptions[0].uid },
        identityProviders: { "corporate-sso": ssoRecord.uid },
      });
      expect(outputs.roleBindings.map((b: { uid: string }) => b.uid).sort()).toEqual(created.map((b) => b.uid).sort());
      const catalog = await registryCatalog();
      const platformImages = outputs.images.platform as { repo: string; uid: string; tags: string[] }[];
      expect(platformImages.map((i) => i.repo).sort()).toEqual(["nginx", "node"]);
      for (const image of platformImages) expect(image.tags).toEqual(catalog.tagsOf(image.uid));
      expect(outputs.images.data.map((i: { repo: string }) => i.repo)).toEqual(["python"]);
      expect(outputs.advisoriesPerRepo).toEqual(catalog.advisoriesPerRepo(["nginx", "node", "python"]));
      expect(Object.values(outputs.advisoriesPerRepo).every((n) => Number(n) > 0)).toBe(true);
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

    // The rest of the story is the engine's and the dynamic provider's, the same whatever form the
    // program is in: a variant that proves only its form loads runs without it.
    if (variant.wholeStory) {
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
        // The CLI's exit code for "changes were proposed".
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

      test("moving a group to another parent replaces it: the new one is created, then the old one deleted", async () => {
        await deployed();
        const oldLedger = inState("ledger").id!;
        const data = inState("data").id!;
        emu.clearRequests();
        const preview = await stack.run("preview", { diff: true, config: { [`${PROJECT}:ledgerParent`]: "data" } });
        expect(preview.code).toBe(0);
        expect(preview.stdout).toMatch(
          new RegExp(`\\+-${DYNAMIC}iam:Group: \\(replace\\)\\s+\\[id=${oldLedger}\\]\\s+\\[urn=[^\\]]+::ledger\\]`),
        );
        expect(preview.stdout).toMatch(/~ parentUid\s*: "[^"]+" => "[^"]+"/);
        // Nothing takes the ledger's uid: it is the one replacement.
        expect(preview.stdout).toMatch(/Resources:\s+\+-1 to replace\s+17 unchanged/);
        expect(writes(emu)).toEqual([]);

        const up = await stack.run("up");
        expect(up.code).toBe(0);
        expect(up.stdout).toMatch(/Resources:\s+\+-1 replaced\s+17 unchanged/);
        expect(described(emu)).toEqual([`POST /iam/v2beta1/groups/${data}`, `DELETE /iam/v2beta1/groups/${oldLedger}`]);
        const org = await snapshot(api(), emu.rootUid);
        const ledgers = named(org.groups, "ledger");
        expect(ledgers).toHaveLength(1);
        expect(parentOf(ledgers[0].uid)).toBe(data);
        expect(inState("ledger").id).toBe(ledgers[0].uid);
      });

      test("an upgrade of the package (every module rebuilt, a new version) previews no change and up writes nothing", async () => {
        await deployed();
        const providers = () => Object.fromEntries(managed().map((r) => [r.urn, r.outputs!.__provider]));
        const storedProviders = providers();
        // The installed copy is replaced by a "newer release": another version, every module of the
        // package rewritten, and each provider module noting which process loads it.
        const installed = ownCopyOfPackage(stack.programDir);
        const loads = path.join(stack.programDir, "provider-modules-loaded.txt");
        const manifest = path.join(installed, "package.json");
        const release = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string };
        fs.writeFileSync(manifest, JSON.stringify({ ...release, version: "99.0.0" }, null, 2));
        let rebuilt = 0;
        for (const file of fs.readdirSync(path.join(installed, "dist"), { recursive: true, encoding: "utf8" })) {
          if (!file.endsWith(".js")) continue;
          // Provider modules: each kind's `<kind>/provider.js`, and 0.1's `<kind>Provider.js` states still name.
          const note = /(\/provider|Provider)\.js$/.test(file)
            ? `require("node:fs").appendFileSync(${JSON.stringify(loads)}, process.argv[1] + "\\n");\n`
            : "";
          fs.appendFileSync(path.join(installed, "dist", file), `\n// rebuilt by release 99.0.0\n${note}`);
          rebuilt++;
        }
        expect(rebuilt).toBeGreaterThan(50);

        emu.clearRequests();
        const check = await stack.run("preview", { expectNoChanges: true, diff: true });
        expect(check.code).toBe(0);
        expect(check.stdout).toMatch(/Resources:\s+18 unchanged/);
        // The CLI's provider host ran the rebuilt modules, not only the program.
        const loaders = fs.readFileSync(loads, "utf8").split("\n");
        expect(loaders.some((script) => /dynamic-provider/.test(script))).toBe(true);

        const up = await stack.run("up");
        expect(up.code).toBe(0);
        expect(up.stdout).toMatch(/Resources:\s+18 unchanged/);
        expect(writes(emu)).toEqual([]);
        // Each state names its provider module, not its code: the upgrade changed no stored provider.
        expect(providers()).toEqual(storedProviders);
      });
    }

    test("destroy leaves the organization exactly as it was", async () => {
      await deployed();
      const destroy = await stack.run("destroy");
      expect(destroy.code).toBe(0);
      expect(destroy.stdout).toMatch(/Resources:\s+- 18 deleted/);
      expect(managed()).toEqual([]);
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
  });
}
