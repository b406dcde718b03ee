/**
 * The organization the export round trips run on under the real CLI (tests/export.test.ts,
 * tests/realCli/exportRoundTrip.test.ts), built through the API, and
 * `platform-pulumi export` run as a user runs it: the built CLI in a process of its own.
 */
import * as path from "node:path";
import { call } from "../../tools/orgApi";
import { repoRoot } from "../../tools/host/stage";
import { ProcessResult, runProcess } from "../../tools/runProcess";

const cliPath = path.join(repoRoot, "dist", "cli.js");

export interface BigOrg {
  teams: string[];
  groups: number;
  identities: number;
  bindings: number;
  /** The uids of the account associations made (each its group's uid): team 3's own and a nested group's. */
  associations: string[];
}

/**
 * 20 teams with 9 groups each (some nested three deep, names repeated across teams), 50
 * identities of four claim shapes, each bound as viewer on its group and as editor on its team.
 * `size` makes it smaller (at least 4 teams, 4 groups a team and 10 identities keep every shape,
 * depth and kind).
 */
export async function buildOrganization(
  api: { url: string; token: string },
  rootUid: string,
  size: { teams?: number; groupsPerTeam?: number; identities?: number } = {},
): Promise<BigOrg> {
  const { teams: teamCount = 20, groupsPerTeam = 9, identities: identityCount = 50 } = size;
  /** A team's group is followed by its own groups: team t's n-th group is `groups[t * stride + n]`. */
  const stride = groupsPerTeam + 1;
  const post = (p: string, body: unknown) => call<{ uid: string }>(api, "POST", `/iam/v2beta1/${p}`, body);
  const roles = await call<{ roles: { uid: string; name: string }[] }>(api, "GET", "/iam/v2beta1/roles?page_size=200");
  const role = (name: string) => roles.roles.find((r) => r.name === name)!.uid;
  const teams: string[] = [];
  const groups: string[] = [];
  for (let t = 0; t < teamCount; t++) {
    const team = await post(`groups/${rootUid}`, { name: `team-${t}`, description: `Team ${t}` });
    teams.push(team.uid);
    groups.push(team.uid);
    let previous = team.uid;
    for (let g = 0; g < groupsPerTeam; g++) {
      // Every third group nests under the one before: depths 2 to 4.
      const parent = g % 3 === 0 ? team.uid : previous;
      const name = ["ops", "ci", "data", "web", "api", "infra", "ml", "sec", "qa"][g];
      const group = await post(`groups/${parent}`, g % 2 ? { name } : { name, description: `${name} of team ${t}` });
      groups.push(group.uid);
      previous = group.uid;
    }
  }
  const claimShapes = [
    (i: number) => ({
      issuer: "https://token.actions.githubusercontent.com",
      subject: `repo:acme/app-${i}:ref:refs/heads/main`,
    }),
    (i: number) => ({
      issuer: "https://gitlab.com",
      subjectPattern: `project_path:acme/svc-${i}:ref_type:branch:ref:.*`,
    }),
    (i: number) => ({
      issuerPattern: "https://[a-z]+\\.example\\.com",
      subject: `svc-${i}`,
      audience: "platform",
      claims: { env: "prod" },
    }),
    (i: number) => ({
      issuer: "https://accounts.google.com",
      subject: `${1000 + i}`,
      claimPatterns: { email: ".*@acme\\.com" },
    }),
  ];
  let bindings = 0;
  const lastIdentityOfTeam = new Map<string, string>();
  for (let i = 0; i < identityCount; i++) {
    const group = groups[(i * 7) % groups.length];
    const team = teams.find((t) => group === t || group.startsWith(`${t}/`))!;
    // Identities of mixed kinds: mostly OIDC claim matches, some AWS roles and service principals.
    const kind =
      i % 10 === 7
        ? { awsIdentity: { awsAccount: "123456789012", arnPattern: `arn:aws:iam::123456789012:role/deploy-${i}-.*` } }
        : i % 10 === 9
          ? { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }
          : { claimMatch: claimShapes[i % claimShapes.length](i) };
    const identity = await post(`identities/${group}`, {
      name: `robot-${i % 25}`,
      ...(i % 5 === 0 ? { description: `Robot ${i}` } : {}),
      ...kind,
    }).catch(async () =>
      // Two robots of one name in one group: the second gets its own name.
      post(`identities/${group}`, { name: `robot-${i}`, ...kind }),
    );
    await post(`roleBindings/${group}`, { identityUid: identity.uid, roleUid: role("viewer") });
    await post(`roleBindings/${team}`, { identityUid: identity.uid, roleUid: role("editor") });
    bindings += 2;
    lastIdentityOfTeam.set(team, identity.uid);
  }
  // Custom roles defined on nested groups (a role's uid does not tell where it is defined), each
  // held by one of its team's identities.
  for (const t of [0, 3]) {
    const ci = groups[t * stride + 2];
    const custom = await post(`roles/${ci}`, {
      name: `publisher-${t}`,
      description: "Publishes images",
      capabilities: ["CAP_REPO_LIST", "CAP_TAG_CREATE"],
    });
    await post(`roleBindings/${ci}`, { identityUid: lastIdentityOfTeam.get(teams[t])!, roleUid: custom.uid });
    bindings += 1;
  }
  // Account associations, one per group and keyed by the group's uid: team 3's own, and one of a
  // group nested in it.
  const associations: string[] = [];
  for (const [group, body] of [
    [teams[3], { name: "team-3-aws", amazon: { account: "123456789012" } }],
    [groups[3 * stride + 4], { name: "team-3-gcp", google: { projectId: "acme-3", projectNumber: "42" } }],
  ] as const)
    associations.push((await post(`accountAssociations/${group}`, body)).uid);
  return { teams, groups: groups.length, identities: identityCount, bindings, associations };
}

export function runExport(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runProcess(process.execPath, [cliPath, "export", ...args], { env });
}
