/**
 * What the real-CLI stories of `export --language yaml|python` run on: a team built through the
 * API holding every hostile text of ./hostileTexts.ts (group names and descriptions, claims'
 * keys and values), references (groups under groups, a custom role and role bindings, one to a
 * built-in role, an account association, whose uid is its group's), identical subscriptions, and
 * optionally an identity provider with a client secret; the plugin an exported project runs on,
 * installed from its release archive as a user installs it; and the state it ends in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { call } from "../../tools/orgApi";
import * as YAML from "yaml";
import { cliEnvironment, stateFile } from "../../tools/pulumi-cli/cliEnvironment";
import type { StateResource } from "../../tools/pulumi-cli/plainStack";
import { HOSTILE_GROUP_TEXTS, HOSTILE_TEXTS, hostileClaims } from "./hostileTexts";
import { InstalledPlugin, installPluginArchive } from "./pluginArchive";
import { pluginFolder } from "./pluginFolder";

export const TEAM_SSO_SECRET = "export-languages-sso-secret-7f3a";

export interface HostileTeam {
  team: string;
  /** Each group made, by uid: its name and description as sent. */
  groups: Map<string, { name: string; description: string }>;
  identity: string;
  claims: Record<string, string>;
  subscriptions: string[];
  /** The `null` group's account association: its uid is the group's. */
  association: string;
  identityProvider?: string;
}

export async function buildHostileTeam(
  emu: RunningEmulator,
  name: string,
  options: { identityProvider?: boolean } = {},
): Promise<HostileTeam> {
  const api = { url: emu.url, token: emu.token };
  const post = async (p: string, body: unknown) => (await call<{ uid: string }>(api, "POST", p, body)).uid;
  const roles = await call<{ roles: Array<{ uid: string; name: string }> }>(api, "GET", "/iam/v2beta1/roles");
  const viewer = roles.roles.find((role) => role.name === "viewer")!.uid;
  const team = await post(`/iam/v2beta1/groups/${emu.rootUid}`, { name });
  const groups = new Map<string, { name: string; description: string }>();
  const group = async (parent: string, made: { name: string; description: string }) => {
    const uid = await post(`/iam/v2beta1/groups/${parent}`, made);
    groups.set(uid, made);
    return uid;
  };
  const named: string[] = [];
  for (const text of HOSTILE_GROUP_TEXTS) named.push(await group(team, { name: text, description: text }));
  // Every hostile text as a description, under the group named `null`.
  for (const [i, description] of HOSTILE_TEXTS.entries()) await group(named[0], { name: `text ${i}`, description });
  const claims = hostileClaims();
  const identity = await post(`/iam/v2beta1/identities/${team}`, {
    name: "null",
    description: "$${x}",
    claimMatch: { issuer: "https://token.example.com", subject: "yes", claims },
  });
  const role = await post(`/iam/v2beta1/roles/${named[0]}`, { name: "true", capabilities: ["CAP_REPO_LIST"] });
  await post(`/iam/v2beta1/roleBindings/${named[0]}`, { identityUid: identity, roleUid: role });
  await post(`/iam/v2beta1/roleBindings/${team}`, { identityUid: identity, roleUid: viewer });
  const subscriptions: string[] = [];
  for (let i = 0; i < 2; i++)
    subscriptions.push(
      await post(`/events/v2beta1/subscriptions/${team}`, { sink: "https://hooks.example.com/twins" }),
    );
  const association = await post(`/iam/v2beta1/accountAssociations/${named[0]}`, {
    name: "null",
    amazon: { account: "012345678901" },
  });
  const identityProvider = options.identityProvider
    ? await post(`/iam/v2beta1/identityProviders/${team}`, {
        name: "sso",
        defaultRole: viewer,
        oidc: { issuer: "https://login.example.com", clientId: "on", clientSecret: TEAM_SSO_SECRET },
      })
    : undefined;
  return { team, groups, identity, claims, subscriptions, association, identityProvider };
}

/**
 * The plugin an exported YAML or Python project runs on, as its Pulumi.yaml says to install it:
 * the archive of this checkout's plugin, by `pulumi plugin install … --file`, into the PULUMI_HOME
 * of `cliEnvironment(scratch, cliDir)`; the engine finds it there by name.
 */
export function installPlugin(cliDir: string, scratch: string): Promise<InstalledPlugin> {
  const { PULUMI_HOME, PULUMI_SKIP_UPDATE_CHECK } = cliEnvironment(scratch, cliDir);
  return installPluginArchive(cliDir, scratch, { PULUMI_HOME, PULUMI_SKIP_UPDATE_CHECK });
}

/**
 * An exported project pointed at this checkout's plugin folder (./pluginFolder.ts) by a `plugins`
 * entry, for stories that run on the package's plugin rather than its archive.
 */
export function installPackage(projectDir: string): void {
  const file = path.join(projectDir, "Pulumi.yaml");
  const document = YAML.parseDocument(fs.readFileSync(file, "utf8"));
  document.set("plugins", { providers: [{ name: "platform", path: pluginFolder() }] });
  fs.writeFileSync(file, document.toString());
}

/** The stack's resources of the native provider, as the file backend keeps them. */
export function nativeResources(scratch: string, project: string, stack = "dev"): StateResource[] {
  const state = JSON.parse(fs.readFileSync(stateFile(scratch, project, stack), "utf8")) as {
    checkpoint: { latest?: { resources?: StateResource[] } };
  };
  return (state.checkpoint.latest?.resources ?? []).filter((r) => r.type.startsWith("platform:"));
}

/**
 * Checks that the state's inputs (what the program declared, evaluated by its language) hold every
 * hostile text exactly as the records do (each group's name and description, the identity's
 * description and claims), and that each of the identical subscriptions names its own record.
 */
export function expectTextsKept(resources: StateResource[], team: HostileTeam): void {
  // An account association's id is its group's uid: look groups up among groups.
  const byId = new Map(resources.filter((r) => r.type !== "platform:iam:Group").map((r) => [r.id, r]));
  const groups = new Map(resources.filter((r) => r.type === "platform:iam:Group").map((r) => [r.id, r]));
  for (const [uid, made] of team.groups) {
    const inputs = groups.get(uid)?.inputs ?? {};
    expect([uid, inputs.name, inputs.description ?? ""]).toEqual([uid, made.name, made.description]);
  }
  const identity = byId.get(team.identity)?.inputs ?? {};
  expect(identity.description).toBe("$${x}");
  expect((identity.claimMatch as { claims?: unknown } | undefined)?.claims).toEqual(team.claims);
  expect(byId.get(team.association)?.inputs).toEqual({
    groupUid: team.association,
    name: "null",
    amazon: { account: "012345678901" },
    adopt: true,
  });
  const twins = resources.filter((r) => r.type === "platform:events:Subscription");
  expect(twins.map((r) => [r.id, r.inputs?.adoptUid]).sort()).toEqual(
    team.subscriptions.map((uid) => [uid, uid]).sort(),
  );
}
