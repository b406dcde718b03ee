import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const department = new platform.iam.Group("department", { parentUid: config.require("rootUid"), name: "department" });
const team = new platform.iam.Group("team", { parentUid: department.uid, name: "team", description: "a team" });
const deploy = new platform.iam.Identity("deploy", {
  parentUid: team.uid,
  name: "deploy",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" },
});
const publisher = new platform.iam.Role("publisher", {
  parentUid: department.uid,
  name: "publisher",
  capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"],
});
new platform.iam.RoleBinding("deploy-publisher", {
  groupUid: team.uid,
  identityUid: deploy.uid,
  roleUid: publisher.uid,
});
new platform.registry.Repo("base", { parentUid: team.uid, name: "base", allowDelete: true });
new platform.events.Subscription("events", { parentUid: department.uid, sink: "https://hooks.example.com/events" });

export const teamUid = team.uid;
