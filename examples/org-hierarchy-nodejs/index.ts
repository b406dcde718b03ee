/**
 * The engineering department of examples/org-hierarchy as a TypeScript program on the native
 * provider's generated Node.js SDK: the classes of @platform-pulumi/platform (`platform.iam.Group`,
 * …), registered as `platform:iam:Group` with the `platform` plugin the package names, not dynamic
 * resources. The same groups, CI identities, custom role, role bindings, repo, event subscription and
 * single sign-on as examples/org-hierarchy-python; it leaves out the images and advisories outputs.
 */
import * as pulumi from "@pulumi/pulumi";
import * as platform from "@platform-pulumi/platform";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const departmentName = config.get("departmentName") ?? "engineering";
const paymentsName = config.get("paymentsName") ?? "payments";
const ledgerParent = config.get("ledgerParent") ?? "payments";
const githubRepository = config.get("githubRepository") ?? "acme/app";
const gitlabProject = config.get("gitlabProject") ?? "acme/payments";
const gitlabIssuer = config.get("gitlabIssuer") ?? "https://gitlab.com";
const ciRole = config.get("ciRole") ?? "viewer";
const eventsSink = config.get("eventsSink") ?? "https://hooks.example.com/engineering-events";
const ssoIssuer = config.get("ssoIssuer") ?? "https://login.example.com";
const ssoClientId = config.get("ssoClientId") ?? "platform-engineering";
const ssoClientSecret = config.getSecret("ssoClientSecret");

const department = new platform.iam.Group("engineering", {
  parentUid: rootUid,
  name: departmentName,
  description: "Engineering department",
});

const teamSpecs: Record<string, [name: string, description: string]> = {
  platform: ["platform", "Platform engineering: CI/CD and base images"],
  payments: [paymentsName, "Payments and billing"],
  data: ["data", "Data engineering and analytics"],
};
const teams = Object.fromEntries(
  Object.entries(teamSpecs).map(([key, [name, description]]) => [
    key,
    new platform.iam.Group(key, { parentUid: department.uid, name, description }),
  ]),
);
if (!teams[ledgerParent])
  throw new Error(
    `config ledgerParent: "${ledgerParent}" is not a team (expected one of ${Object.keys(teams).join(", ")})`,
  );

const nested = {
  oncall: new platform.iam.Group("oncall", {
    parentUid: teams.platform.uid,
    name: "oncall",
    description: "Platform on-call rotation",
  }),
  ledger: new platform.iam.Group("ledger", {
    parentUid: teams[ledgerParent].uid,
    name: "ledger",
    description: "Ledger service owners",
  }),
  analytics: new platform.iam.Group("analytics", { parentUid: teams.data.uid, name: "analytics" }),
};

// CI identities: a pipeline proves who it is with its platform's OIDC token; no stored secret.
const githubDeploy = new platform.iam.Identity("github-deploy", {
  parentUid: teams.platform.uid,
  name: "github-deploy",
  description: `GitHub Actions on ${githubRepository}, main branch`,
  claimMatch: {
    issuer: "https://token.actions.githubusercontent.com",
    subject: `repo:${githubRepository}:ref:refs/heads/main`,
  },
});
const gitlabCi = new platform.iam.Identity("gitlab-ci", {
  parentUid: teams.payments.uid,
  name: "gitlab-ci",
  description: `GitLab CI on ${gitlabProject}, main branch`,
  claimMatch: { issuer: gitlabIssuer, subject: `project_path:${gitlabProject}:ref_type:branch:ref:main` },
});

// Roles are built in: looked up by name rather than hard-coding their uids (platform:iam:getRole).
const ciRoleUid = platform.iam.getRoleOutput({ name: ciRole }).uid;

// A custom role: what the release pipeline needs to publish images, and nothing more.
const capability = platform.types.enums.iam.RoleCapabilitiesItem;
const imagePublisher = new platform.iam.Role("image-publisher", {
  parentUid: department.uid,
  name: "image-publisher",
  description: "Publishes images and their tags",
  capabilities: [
    capability.CAP_REPO_LIST,
    capability.CAP_MANIFEST_CREATE,
    capability.CAP_MANIFEST_LIST,
    capability.CAP_TAG_CREATE,
    capability.CAP_TAG_LIST,
  ],
});

const bindings = (
  [
    ["github-deploy-platform", teams.platform, githubDeploy, ciRoleUid],
    ["github-deploy-data", teams.data, githubDeploy, ciRoleUid],
    ["gitlab-ci-payments", teams.payments, gitlabCi, ciRoleUid],
    ["github-deploy-publisher", teams.platform, githubDeploy, imagePublisher.uid],
  ] as const
).map(([key, group, identity, roleUid]) => ({
  key,
  binding: new platform.iam.RoleBinding(key, { groupUid: group.uid, identityUid: identity.uid, roleUid }),
}));

// The platform team's repo for its base images. Deleting a repo deletes its images, so the
// provider refuses unless the program allows it; this example is torn down by `pulumi destroy`.
const platformBase = new platform.registry.Repo("platform-base", {
  parentUid: teams.platform.uid,
  name: "platform-base",
  description: "Base images built by the platform team",
  catalogTier: platform.types.enums.registry.RepoCatalogTier.CATALOG_TIER_BASE,
  allowDelete: true,
});

// The department's events posted to a webhook.
const departmentEvents = new platform.events.Subscription("engineering-events", {
  parentUid: department.uid,
  sink: eventsSink,
});

// Single sign-on for the department's people, with the CI role by default. The client secret is
// written to the service and never read back; the state keeps the oidc block encrypted.
const sso = new platform.iam.IdentityProvider("corporate-sso", {
  parentUid: department.uid,
  name: "corporate-sso",
  description: "Company single sign-on (OIDC)",
  defaultRole: ciRoleUid,
  oidc: { issuer: ssoIssuer, clientId: ssoClientId, clientSecret: ssoClientSecret, groupsClaim: "groups" },
});

export const tree = {
  [departmentName]: department.uid,
  teams: Object.fromEntries(Object.entries(teams).map(([key, group]) => [key, group.uid])),
  nested: Object.fromEntries(Object.entries(nested).map(([key, group]) => [key, group.uid])),
  identities: { "github-deploy": githubDeploy.uid, "gitlab-ci": gitlabCi.uid },
  roles: { "image-publisher": imagePublisher.uid },
  repos: { "platform-base": platformBase.uid },
  subscriptions: { "engineering-events": departmentEvents.uid },
  identityProviders: { "corporate-sso": sso.uid },
};
export const roleBindings = bindings.map(({ key, binding }) => ({ key, uid: binding.uid }));
