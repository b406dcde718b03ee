/**
 * The example organization written for the native provider (examples/org-hierarchy-yaml,
 * examples/org-hierarchy-python) under the REAL Pulumi CLI, on the emulator: one story per
 * program, told the same way whatever runs it (plain `pulumi` commands for YAML, Python's
 * Automation API for Python). Up creates the organization with one POST a record, its secrets
 * encrypted; console edits fail `preview --refresh --expect-no-changes` (the CLI's exit 7), named
 * in the engine's diff, the preview showing exactly the edited records as updates and nothing
 * replaced; `up --refresh` repairs them with one PATCH each; destroy leaves the
 * organization as it was. A story told short (`wholeStory: false`) is its up and destroy alone.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { call, OrgRecord, OrgSnapshot, snapshot } from "../../tools/orgApi";
import { EXAMPLE_SSO_CLIENT_SECRET } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { SECRET_SIGNATURE } from "../../tools/pulumi-cli/stack";
import { cliEnvironment, stateFile } from "../../tools/pulumi-cli/cliEnvironment";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import * as YAML from "yaml";
import { cliOnlyPath, InstalledPlugin, installPluginArchive } from "./pluginArchive";

export { EXAMPLE_SSO_CLIENT_SECRET };

export interface NativeRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface NativeOperation {
  operation: "preview" | "up" | "destroy";
  refresh?: boolean;
  expectNoChanges?: boolean;
  diff?: boolean;
}

/** What a story needs of the program's runner: its stack set up, then one operation at a time. */
export interface NativeProgram {
  run(operation: NativeOperation): Promise<NativeRun>;
}

export interface NativeStoryContext {
  emu: RunningEmulator;
  /** The plugin installed from its archive, when the story runs on it (`plugin: "archive"`). */
  plugin?: InstalledPlugin;
  /** The staged copy of the example (the plugin's path made absolute): the CLI's work dir. */
  programDir: string;
  scratch: string;
  cliDir: string;
  /** The CLI's environment: a file backend and PULUMI_HOME in the scratch folder, nothing fetched. */
  env: Record<string, string>;
}

const PLUGIN_PATH = "path: ../../native";

/**
 * Copies the example's files (not folders) into `<scratch>/program`, pointing plugins.providers at
 * native/, or, for a story on the installed plugin, with no plugins entry at all: the engine then
 * finds the plugin in the plugin cache as it finds any installed provider.
 */
export function stageExample(exampleDir: string, scratch: string, plugin: "folder" | "archive" = "folder"): string {
  const programDir = path.join(scratch, "program");
  fs.mkdirSync(programDir);
  for (const entry of fs.readdirSync(exampleDir, { withFileTypes: true }))
    if (entry.isFile()) fs.copyFileSync(path.join(exampleDir, entry.name), path.join(programDir, entry.name));
  const project = path.join(programDir, "Pulumi.yaml");
  const text = fs.readFileSync(project, "utf8");
  if (plugin === "folder") {
    if (!text.includes(PLUGIN_PATH)) throw new Error(`${exampleDir}/Pulumi.yaml has no "${PLUGIN_PATH}"`);
    fs.writeFileSync(project, text.replace(PLUGIN_PATH, `path: ${path.join(repoRoot, "native")}`));
  } else {
    const document = YAML.parseDocument(text);
    document.delete("plugins");
    fs.writeFileSync(project, document.toString());
  }
  return programDir;
}

const writes = (emu: RunningEmulator) => emu.requests().filter((r) => r.method !== "GET");
const described = (emu: RunningEmulator) =>
  writes(emu).map(
    (r) => `${r.method} ${r.path}${r.query.updateMask ? `?updateMask=${String(r.query.updateMask)}` : ""}`,
  );
const named = (records: OrgRecord[], name: string) => records.filter((r) => r.name === name);

export function describeNativeOrgStory(
  title: string,
  options: {
    exampleDir: string;
    project: string;
    /**
     * Where the CLI finds the plugin: the package's native/ folder (Pulumi.yaml plugins.providers,
     * the default), or its archive installed by `pulumi plugin install --file`, with a PATH holding
     * only the CLI and pulumi-yaml's language host.
     */
    plugin?: "folder" | "archive";
    /**
     * The drift check and its repair between up and destroy (the default). They are the engine's and
     * the plugin's, the same whatever language or form the program is in: one story tells them, and
     * the others prove their program creates and destroys the organization.
     */
    wholeStory?: boolean;
    /** Sets the stack up (config: rootUid, the role, the secret, platform:apiUrl/token) and returns its runner. */
    prepare(context: NativeStoryContext): Promise<NativeProgram>;
  },
): void {
  describe(title, () => {
    let context: NativeStoryContext;
    let program: NativeProgram;
    let before: OrgSnapshot;
    const api = () => ({ url: context.emu.url, token: context.emu.token });
    const checkpointFile = () => stateFile(context.scratch, options.project);

    beforeAll(async () => {
      const emu = await startEmulator({ quiet: true });
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-pulumi-${options.project}-`));
      const cliDir = pulumiCliDir();
      const plugin = options.plugin ?? "folder";
      const env = {
        ...cliEnvironment(scratch, cliDir),
        // The archive's plugin needs no node: the CLI alone on PATH proves it.
        ...(plugin === "archive" ? { PATH: cliOnlyPath(cliDir, scratch) } : {}),
      };
      context = {
        emu,
        scratch,
        cliDir,
        programDir: stageExample(options.exampleDir, scratch, plugin),
        env,
        ...(plugin === "archive" ? { plugin: await installPluginArchive(cliDir, scratch, env) } : {}),
      };
      program = await options.prepare(context);
      before = await snapshot(api(), emu.rootUid);
    });
    afterAll(async () => {
      await context?.emu.close();
      if (context) fs.rmSync(context.scratch, { recursive: true, force: true });
    });

    /** Up creates the organization as the example declares it, its secrets encrypted; the records it drifts. */
    async function upCreates(): Promise<{ platformTeam: OrgRecord; repo: OrgRecord }> {
      const { emu } = context;
      const up = await program.run({ operation: "up" });
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
      const [engineering] = named(org.groups, "engineering");
      const [platformTeam] = named(org.groups, "platform");
      const [repo] = named(org.repos, "platform-base");
      const viewer = (await call<{ roles: OrgRecord[] }>(api(), "GET", "/iam/v2beta1/roles")).roles.find(
        (role) => role.name === "viewer",
      )!;
      expect(platformTeam.uid.startsWith(`${engineering.uid}/`)).toBe(true);
      expect(named(org.identities, "github-deploy")[0].uid.startsWith(`${platformTeam.uid}/`)).toBe(true);
      expect(org.roleBindings.filter((b) => b.roleUid === viewer.uid)).toHaveLength(3);
      expect(named(org.identityProviders, "corporate-sso")[0]).toMatchObject({ defaultRole: viewer.uid });
      expect(named(org.roles, "image-publisher")[0]).toMatchObject({ definedOn: engineering.uid });

      // The passphrase provider encrypts every secret: the client secret and the token are in no
      // state, output or display; the identity provider's oidc is a secret in inputs and outputs.
      const checkpoint = fs.readFileSync(checkpointFile(), "utf8");
      for (const secret of [EXAMPLE_SSO_CLIENT_SECRET, emu.token])
        for (const text of [checkpoint, up.stdout]) expect(text).not.toContain(secret);
      const sso = (
        JSON.parse(checkpoint) as {
          checkpoint: { latest: { resources: Array<{ urn: string; inputs: object; outputs: object }> } };
        }
      ).checkpoint.latest.resources.find((r) => r.urn.endsWith("::corporate-sso"))!;
      expect(sso.inputs).toMatchObject({ oidc: { ...SECRET_SIGNATURE, ciphertext: expect.any(String) } });
      expect(sso.outputs).toMatchObject({ oidc: { ...SECRET_SIGNATURE, ciphertext: expect.any(String) } });
      expect(sso.outputs).not.toHaveProperty("__provider");
      return { platformTeam, repo };
    }

    /** Destroy leaves the organization as it was before up. */
    async function destroyRestores(): Promise<void> {
      const destroy = await program.run({ operation: "destroy" });
      expect(destroy.stderr).toBe("");
      expect(destroy.code).toBe(0);
      expect(destroy.stdout).toMatch(/Resources:\s+- 18 deleted/);
      expect(await snapshot(api(), context.emu.rootUid)).toEqual(before);
    }

    if (!(options.wholeStory ?? true)) {
      test("up creates the organization; destroy leaves the organization as it was", async () => {
        await upCreates();
        await destroyRestores();
      });
      return;
    }

    test("up creates the organization; console edits fail preview --refresh --expect-no-changes, up --refresh repairs them; destroy leaves the organization as it was", async () => {
      const { emu } = context;
      const { platformTeam, repo } = await upCreates();

      const clean = await program.run({ operation: "preview", refresh: true, expectNoChanges: true });
      expect(clean.code).toBe(0);
      expect(clean.stdout).toMatch(/Resources:\s+18 unchanged/);

      // Console edits: the drift check fails (exit 7) naming each field; nothing is written.
      await call(api(), "PATCH", `/iam/v2beta1/groups/${platformTeam.uid}?updateMask=description`, {
        name: "platform",
        description: "edited by hand",
      });
      await call(api(), "PATCH", `/registry/v2beta1/repos/${repo.uid}?updateMask=catalogTier`, {
        name: "platform-base",
        catalogTier: "CATALOG_TIER_APPLICATION",
      });
      emu.clearRequests();
      const drift = await program.run({ operation: "preview", refresh: true, expectNoChanges: true, diff: true });
      expect(drift.code).toBe(7);
      expect(drift.stderr).toContain("no changes were expected for preview but changes were proposed");
      expect(drift.stdout).toMatch(
        /~ platform:iam:Group: \(update\)\s+\[id=[^\]]+\]\s+\[urn=[^\]]+::platform\](?:\s+\[provider=[^\]]+\])?\s+~ description\s*: "edited by hand" => "Platform engineering: CI\/CD and base images"/,
      );
      expect(drift.stdout).toMatch(/~ catalogTier\s*: "CATALOG_TIER_APPLICATION" => "CATALOG_TIER_BASE"/);
      // The provider previews the updates (supportsPreview): the edited team keeps its uid, so
      // nothing below it (its identities, bindings) previews as replaced; the preview writes nothing.
      expect(drift.stdout).toMatch(/Resources:\s+~ 2 to update\s+16 unchanged\s*$/m);
      expect(drift.stdout).not.toMatch(/replace/);
      expect(writes(emu)).toEqual([]);

      const repair = await program.run({ operation: "up", refresh: true });
      expect(repair.code).toBe(0);
      expect(repair.stdout).toMatch(/Resources:\s+~ 2 updated\s+16 unchanged/);
      expect(described(emu).sort()).toEqual([
        `PATCH /iam/v2beta1/groups/${platformTeam.uid}?updateMask=description`,
        `PATCH /registry/v2beta1/repos/${repo.uid}?updateMask=catalogTier`,
      ]);
      const repaired = await snapshot(api(), emu.rootUid);
      expect(repaired.groups.find((g) => g.uid === platformTeam.uid)!.description).toBe(
        "Platform engineering: CI/CD and base images",
      );
      expect(repaired.repos.find((r) => r.uid === repo.uid)!.catalogTier).toBe("CATALOG_TIER_BASE");

      await destroyRestores();
    });
  });
}
