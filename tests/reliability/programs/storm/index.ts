/**
 * A generated organization: `teams` teams under the root, each with a nested group, a CI
 * identity and a binding of that identity on the team (4 resources a team), or, with
 * `flat=true`, `teams` sibling groups under the root and nothing else (parallel creates
 * under one parent). `revision` changes every description, so a second `up` updates all.
 */
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const teams = config.requireNumber("teams");
const flat = config.getBoolean("flat") ?? false;
const revision = config.get("revision") ?? "1";
const roleUid = flat ? undefined : platform.iam.getRoleOutput({ name: "viewer" }).uid;

export const uids: pulumi.Output<string>[] = [];
for (let i = 0; i < teams; i++) {
  const team = new platform.iam.Group(`team-${i}`, {
    parentUid: rootUid,
    name: `storm-team-${i}`,
    description: `team ${i}, revision ${revision}`,
  });
  uids.push(team.uid);
  if (flat || !roleUid) continue;
  const nested = new platform.iam.Group(`nested-${i}`, {
    parentUid: team.uid,
    name: "nested",
    description: `nested ${i}, revision ${revision}`,
  });
  const ci = new platform.iam.Identity(`ci-${i}`, {
    parentUid: team.uid,
    name: `ci-${i}`,
    description: `revision ${revision}`,
    claimMatch: {
      issuer: "https://token.actions.githubusercontent.com",
      subject: `repo:acme/team-${i}:ref:refs/heads/main`,
    },
  });
  const binding = new platform.iam.RoleBinding(`ci-${i}-viewer`, { groupUid: team.uid, identityUid: ci.uid, roleUid });
  uids.push(nested.uid, ci.uid, binding.uid);
}
