/**
 * `pulumi import` with the native provider under the REAL Pulumi CLI, from a YAML project
 * (pulumi-yaml's language host is the one built beside the CLI), on the emulator:
 *
 * - one record of each of Group, Identity, Role (as `<groupUid>/<roleUid>`: its uid is one
 *   segment), RoleBinding and Repo imported by `pulumi import <type> <name> <id>`; the generated
 *   YAML, made the program, gives `preview --expect-no-changes` clean; a role by its bare uid
 *   and an invite are refused, saying why;
 * - a whole subtree holding a record of every kind an import can bring in (besides those five:
 *   IdentityProvider, AccountAssociation, ExternalGroupRoleMapping, Subscription, Tag, and the
 *   v2beta1-only Overlay and OverlayBinding, under the default API version), written by
 *   `platform-pulumi export --import-file` and brought in by `pulumi import --file`; its
 *   generated YAML gives `preview --refresh --expect-no-changes` clean.
 *
 * Neither creates, changes nor deletes a record.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import type { Props } from "../core/common/values";
import { KINDS } from "../resources/kinds";
import { importable } from "./imports";
import { typeTokenOf } from "./kinds";
import { withoutPlatformEnv } from "../tools/orgProject";
import { repoRoot } from "../tools/host/stage";
import { runProcess } from "../tools/runProcess";
import { yamlStack, YamlStack } from "../tests/support/nativeYamlStack";

jest.setTimeout(600_000);

describe("pulumi import with the native provider, from a YAML project under the real CLI", () => {
  let emu: RunningEmulator;
  const writes = () => emu.requests().filter((r) => r.method !== "GET");
  const saved = { url: process.env.PLATFORM_API_URL, token: process.env.PLATFORM_TOKEN };

  /** A record made as a program would make it: through the kind's own provider. */
  async function make(typeName: string, inputs: Props): Promise<string> {
    const entry = KINDS.find((k) => k.provider.kind?.typeName === typeName)!;
    return (await entry.provider.create(inputs)).id;
  }

  const stacks: YamlStack[] = [];
  /** A YAML project with its stack, configured for the default provider. */
  async function project(name: string) {
    const stack = await yamlStack({
      name,
      config: { "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token },
    });
    stacks.push(stack);
    /** The generated code's resources made the program. */
    const declare = (resources: Record<string, unknown>) => stack.declare({ resources });
    return { ...stack, declare };
  }

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    process.env.PLATFORM_API_URL = emu.url;
    process.env.PLATFORM_TOKEN = emu.token;
  });
  afterAll(async () => {
    for (const [key, value] of [
      ["PLATFORM_API_URL", saved.url],
      ["PLATFORM_TOKEN", saved.token],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    await emu?.close();
    for (const stack of stacks) stack.remove();
  });

  /** An organization below the root: a group holding one record of each kind the tests import. */
  async function organization(prefix: string) {
    const group = await make("Group", { parentUid: emu.rootUid, name: `${prefix} team`, description: "imported" });
    const identity = await make("Identity", {
      parentUid: group,
      name: `${prefix} ci`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/app:ref:refs/heads/main",
      },
    });
    const role = await make("Role", {
      parentUid: group,
      name: `${prefix}-auditor`,
      capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
    });
    const binding = await make("RoleBinding", { groupUid: group, identityUid: identity, roleUid: role });
    const repo = await make("Repo", { parentUid: group, name: `${prefix}-app`, description: "the app" });
    return { group, identity, role, binding, repo };
  }

  test("each of Group, Identity, Role, RoleBinding and Repo imports by id; the generated YAML previews with no changes", async () => {
    const org = await organization("single");
    const invite = await make("GroupInvite", { groupUid: org.group, roleUid: org.role, ttl: "3600s" });
    const { dir, cli, declare, stateText } = await project("native-import");
    emu.clearRequests();

    const imports: Array<[string, string, string]> = [
      ["platform:iam:Group", "team", org.group],
      ["platform:iam:Identity", "ci", org.identity],
      ["platform:iam:Role", "auditor", `${org.group}/${org.role}`],
      ["platform:iam:RoleBinding", "ciAuditor", org.binding],
      ["platform:registry:Repo", "app", org.repo],
    ];
    const resources: Record<string, unknown> = {};
    for (const [type, name, id] of imports) {
      const code = path.join(dir, `${name}.yaml`);
      const answer = await cli(["import", type, name, id, "--yes", "--protect=false", "--out", code]);
      expect([type, answer.code, answer.stderr]).toEqual([type, 0, ""]);
      Object.assign(resources, (YAML.parse(fs.readFileSync(code, "utf8")) as { resources: object }).resources);
    }
    // The role's parent came from its import id; its id in the state is its own uid.
    expect(resources.auditor).toEqual({
      type: "platform:iam:Role",
      properties: {
        capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
        name: "single-auditor",
        parentUid: org.group,
      },
    });
    const state = JSON.parse(stateText()) as {
      checkpoint: { latest: { resources: Array<{ type: string; id?: string }> } };
    };
    expect(state.checkpoint.latest.resources.find((r) => r.type === "platform:iam:Role")?.id).toBe(org.role);
    expect(Object.keys(resources)).toEqual(["team", "ci", "auditor", "ciAuditor", "app"]);

    declare(resources);
    const preview = await cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(preview.stdout).not.toMatch(/[~+-] platform:/);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);

    // A role's bare uid does not say where it is defined; an invite's code is never answered again.
    const bare = await cli(["import", "platform:iam:Role", "bare", org.role, "--yes"]);
    expect(bare.code).not.toBe(0);
    expect(bare.stdout + bare.stderr).toContain("import it as <parentUid>/<uid>");
    const refused = await cli(["import", "platform:iam:GroupInvite", "invite", invite, "--yes"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain("a group invite cannot be imported: its code is answered only");
    expect(writes()).toEqual([]);
  });

  test("export --import-file brings a subtree of every importable kind in with pulumi import --file; the generated YAML previews with no changes", async () => {
    const org = await organization("bulk");
    await make("Group", { parentUid: org.group, name: "bulk subteam" });
    await make("GroupInvite", { groupUid: org.group, roleUid: org.role, ttl: "3600s" });
    // The kinds the first test does not import, one record each: the import file must name them all.
    const idp = await make("IdentityProvider", {
      parentUid: org.group,
      name: "bulk directory",
      defaultRole: org.role,
      oidc: { issuer: "https://login.example.com", clientId: "bulk", clientSecret: "never-answered" },
    });
    await make("ExternalGroupRoleMapping", {
      identityProviderUid: idp,
      externalGroupId: "engineers",
      roleUid: org.role,
    });
    await make("AccountAssociation", {
      groupUid: org.group,
      name: "bulk accounts",
      amazon: { account: "123456789012" },
    });
    await make("Subscription", { parentUid: org.group, sink: "https://hooks.example.com/bulk" });
    await make("Tag", { repoUid: org.repo, name: "latest", digest: `sha256:${"c".repeat(64)}` });
    const overlay = await make("Overlay", {
      parentUid: org.group,
      name: "bulk-overlay",
      config: { environment: { MODE: "bulk" } },
    });
    await make("OverlayBinding", { repoUid: org.repo, overlayUid: overlay, tags: ["latest"] });
    const { dir, cli, declare } = await project("native-bulk");
    emu.clearRequests();

    const importFile = path.join(dir, "import.json");
    const exported = await runProcess(
      process.execPath,
      [path.join(repoRoot, "dist", "cli.js"), "export", "--under", org.group, "--import-file", importFile, "--partial"],
      { cwd: dir, env: { ...withoutPlatformEnv(), PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token } },
    );
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain("group invite");
    expect(exported.stderr).toContain("its code is answered only when it is created");
    expect(fs.existsSync(path.join(dir, "index.ts"))).toBe(false);
    const file = JSON.parse(fs.readFileSync(importFile, "utf8")) as {
      resources: Array<{ type: string; name: string; id: string }>;
    };
    // Every kind an import can bring in, each once (the subteam besides the group exported below).
    const importableTypes = KINDS.flatMap(({ provider }) =>
      provider.kind && importable(provider.kind) ? [typeTokenOf(provider.kind)] : [],
    );
    expect(importableTypes).toHaveLength(12);
    expect(file.resources.map((r) => r.type).sort()).toEqual([...importableTypes].sort());
    expect(file.resources.find((r) => r.type === "platform:iam:Role")?.id).toBe(`${org.group}/${org.role}`);
    expect(file.resources.find((r) => r.type === "platform:iam:AccountAssociation")?.id).toBe(org.group);

    const code = path.join(dir, "code.yaml");
    const imported = await cli(["import", "--file", importFile, "--yes", "--protect=false", "--out", code]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    const resources = (YAML.parse(fs.readFileSync(code, "utf8")) as { resources: Record<string, { type: string }> })
      .resources;
    expect(
      Object.values(resources)
        .map((r) => r.type)
        .sort(),
    ).toEqual([...importableTypes].sort());
    // The client secret is never answered: the generated code has none.
    expect(JSON.stringify(resources)).not.toContain("never-answered");
    declare(resources);
    const preview = await cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(preview.stdout).not.toMatch(/[~+-] platform:/);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
  });
});
