/**
 * An engineering department declared on Platform API v2 with platform-pulumi:
 *
 *   <organization>                       (existing root group: config rootUid)
 *   └─ engineering                       department
 *      ├─ platform                       team   + identity github-deploy (GitHub Actions)
 *      │  └─ oncall                      nested group
 *      ├─ payments                       team   + identity gitlab-ci (GitLab CI)
 *      │  └─ ledger                      nested group (config ledgerParent moves it)
 *      └─ data                           team
 *         └─ analytics                   nested group
 *
 * Each CI identity is bound, on its team's group, to a role looked up by name. The department
 * also has a custom role, image-publisher, which the GitHub pipeline holds on the platform team
 * to push its base images to the team's repo, platform-base; an event subscription that
 * posts the department's events to a webhook; and an identity provider through which its
 * people sign in with the company's OIDC single sign-on. The stack outputs show the tree of uids, the
 * bindings, and for each team the container images it uses with their tags and the number of
 * security advisories per image.
 *
 * Settings (all but rootUid have defaults): pulumi config set rootUid <uid>, and optionally
 * departmentName, paymentsName, ledgerParent, githubRepository, gitlabProject, gitlabIssuer, ciRole,
 * eventsSink, ssoIssuer, ssoClientId, and the secret ssoClientSecret
 * (pulumi config set --secret ssoClientSecret <the OIDC client's secret>).
 */
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

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

interface TeamSpec {
  name: string;
  description: string;
  /** Container images (registry repos) the team ships on. */
  images: string[];
}

const teamSpecs: Record<string, TeamSpec> = {
  platform: { name: "platform", description: "Platform engineering: CI/CD and base images", images: ["nginx", "node"] },
  payments: { name: paymentsName, description: "Payments and billing", images: ["python"] },
  data: { name: "data", description: "Data engineering and analytics", images: ["python"] },
};

const department = new platform.iam.Group("engineering", {
  parentUid: rootUid,
  name: departmentName,
  description: "Engineering department",
});

const teams: Record<string, platform.iam.Group> = {};
for (const [key, spec] of Object.entries(teamSpecs)) {
  teams[key] = new platform.iam.Group(key, {
    parentUid: department.uid,
    name: spec.name,
    description: spec.description,
  });
}

const nested = {
  oncall: new platform.iam.Group("oncall", {
    parentUid: teams.platform.uid,
    name: "oncall",
    description: "Platform on-call rotation",
  }),
  ledger: new platform.iam.Group("ledger", {
    parentUid: teamOf(ledgerParent).uid,
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
  claimMatch: {
    issuer: gitlabIssuer,
    subject: `project_path:${gitlabProject}:ref_type:branch:ref:main`,
  },
});

// Roles are built in: look them up by name rather than hard-coding their uids.
const role = platform.iam.getRole({ name: ciRole });

// A custom role: what the release pipeline needs to publish images, and nothing more.
const imagePublisher = new platform.iam.Role("image-publisher", {
  parentUid: department.uid,
  name: "image-publisher",
  description: "Publishes images and their tags",
  capabilities: ["CAP_REPO_LIST", "CAP_MANIFEST_CREATE", "CAP_MANIFEST_LIST", "CAP_TAG_CREATE", "CAP_TAG_LIST"],
});

const bindings = [
  { key: "github-deploy-platform", group: teams.platform, identity: githubDeploy, role: ciRole },
  { key: "github-deploy-data", group: teams.data, identity: githubDeploy, role: ciRole },
  { key: "gitlab-ci-payments", group: teams.payments, identity: gitlabCi, role: ciRole },
  { key: "github-deploy-publisher", group: teams.platform, identity: githubDeploy, role: imagePublisher },
].map(({ key, group, identity, role: granted }) => ({
  key,
  binding: new platform.iam.RoleBinding(key, {
    groupUid: group.uid,
    identityUid: identity.uid,
    roleUid: typeof granted === "string" ? role.then((r) => r.uid) : granted.uid,
  }),
  group,
  identity,
  role: typeof granted === "string" ? pulumi.output(granted) : granted.name,
}));

// The platform team's own repo for the base images it publishes. Deleting a repo deletes its
// images, so the provider refuses unless the program allows it; this example is torn down by
// `pulumi destroy`, so it does.
const platformBase = new platform.registry.Repo("platform-base", {
  parentUid: teams.platform.uid,
  name: "platform-base",
  description: "Base images built by the platform team",
  catalogTier: "CATALOG_TIER_BASE",
  allowDelete: true,
});

// The department's events (changes to its groups, identities, ...) posted to a webhook.
const departmentEvents = new platform.events.Subscription("engineering-events", {
  parentUid: department.uid,
  sink: eventsSink,
});

function teamOf(key: string): platform.iam.Group {
  const team = teams[key];
  if (!team)
    throw new Error(`config ledgerParent: "${key}" is not a team (expected one of ${Object.keys(teams).join(", ")})`);
  return team;
}

// Single sign-on for the department's people: they get the CI role by default. The client
// secret is written to the service and never read back; Pulumi keeps it (and so the whole oidc
// block) as a secret.
const sso = new platform.iam.IdentityProvider("corporate-sso", {
  parentUid: department.uid,
  name: "corporate-sso",
  description: "Company single sign-on (OIDC)",
  defaultRole: role.then((r) => r.uid),
  oidc: {
    issuer: ssoIssuer,
    clientId: ssoClientId,
    ...(ssoClientSecret ? { clientSecret: ssoClientSecret } : {}),
    groupsClaim: "groups",
  },
});

// Look-ups: the images each team ships on, their tags, and open advisories per image.
const repos = platform.registry.getReposOutput({ descendantsOf: rootUid });
const images = repos.apply(async (found) => {
  const perTeam: Record<string, { repo: string; uid: string; tags: string[] }[]> = {};
  for (const [key, spec] of Object.entries(teamSpecs)) {
    perTeam[key] = await Promise.all(
      found.repos
        .filter((repo) => spec.images.includes(repo.name))
        .map(async (repo) => {
          const { tags } = await platform.registry.getTags({ repoUid: repo.uid });
          return { repo: repo.name, uid: repo.uid, tags: tags.map((tag) => tag.name).sort() };
        }),
    );
    perTeam[key].sort((a, b) => a.repo.localeCompare(b.repo));
  }
  return perTeam;
});
const allImages = [...new Set(Object.values(teamSpecs).flatMap((spec) => spec.images))];
const advisoriesPerRepo = pulumi.output(
  platform.vulnerabilities
    .getAdvisories({ descendantsOf: rootUid, artifactNames: allImages })
    .then(({ advisories }) =>
      Object.fromEntries(allImages.map((name) => [name, advisories.filter((a) => a.artifactName === name).length])),
    ),
);

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
export const roleBindings = bindings.map(({ key, binding, group, identity, role: granted }) => ({
  key,
  uid: binding.uid,
  group: group.name,
  identity: identity.name,
  role: granted,
}));
export { images, advisoriesPerRepo };
