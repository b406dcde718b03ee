/**
 * An organization a Terraform configuration of the vendor's provider manages, made on the
 * emulator, and the state that configuration's Terraform would hold for it (./terraformState.ts):
 * every type this package manages, nested blocks (an AWS identity, static keys, claim matches, an
 * identity provider's OIDC, an account association's amazon block and GitHub installations), `count`
 * and `for_each` instances, modules (one with a key, nested), an aliased provider configuration, two
 * data sources and another provider's resource.
 *
 * The configuration it stands for:
 *
 *     resource "chainguard_group" "platform" { parent_id = data.chainguard_group.root.id … }
 *     module "teams" { team["payments"], team["ledger"] (for_each); deployer["ledger"] (aws_identity), its binding }
 *     resource "chainguard_identity" "ci" { count = 2 … claim_match { … } }
 *     resource "chainguard_identity" "static_ci" { provider = chainguard.eu … static { … } }
 *     resource "chainguard_identity" "ingester" { service_principal = "SERVICE_PRINCIPAL_INGESTER" }
 *     resource "chainguard_role" "publisher" { capabilities = ["groups.list", "repo.list", …] }
 *     resource "chainguard_rolebinding" "ci_viewer" { count = 2 … }
 *     resource "chainguard_identity_provider" "sso" { oidc { client_secret = var.sso_secret … } }
 *     resource "chainguard_group_invite" "alice" { expiration = "…" }
 *     module "region" { for_each = { eu = … } module "accounts" { chainguard_account_associations.this } }
 *     resource "chainguard_subscription" "hooks" {}
 *     resource "chainguard_image_repo" "app" { tier = "BASE" … }
 *     resource "chainguard_image_tag" "latest" { repo_id = chainguard_image_repo.app.id }
 *     resource "random_pet" "suffix" {}
 */
import type { RunningEmulator } from "../../emulator";
import { apiOf, attributesOf, TfResource } from "./terraformState";

export const SSO_SECRET = "terraform-applied-sso-secret-91c2";
export const INVITE_CODE = "terraform-kept-invite-code-5e7a";
const DIGEST = `sha256:${"ab".repeat(32)}`;
const JWKS = JSON.stringify({
  keys: [
    {
      kty: "EC",
      crv: "P-256",
      kid: "k1",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    },
  ],
});

export interface MigratedOrganization {
  /** The group the configuration builds under (the root organization). */
  root: string;
  platform: string;
  /** The configuration's state: every resource, as Terraform keeps them. */
  resources: TfResource[];
  /** Each migrated record's uid by its Terraform address. */
  uids: Map<string, string>;
  identityProvider: string;
  invite: string;
}

export async function buildMigratedOrganization(
  emu: Pick<RunningEmulator, "url" | "token" | "rootUid">,
  label: string,
): Promise<MigratedOrganization> {
  const api = apiOf(emu);
  const v = "/iam/v2beta1";
  const roles = (await api.get(`${v}/roles?page_size=200`)).roles as Array<{ uid: string; name: string }>;
  const viewer = roles.find((role) => role.name === "viewer")!.uid;
  const root = emu.rootUid;

  const platform = await api.post(`${v}/groups/${root}`, { name: label, description: "The platform team" });
  const payments = await api.post(`${v}/groups/${platform.uid}`, { name: "payments" });
  const ledger = await api.post(`${v}/groups/${platform.uid}`, { name: "ledger", description: "Books" });
  const ci = [
    await api.post(`${v}/identities/${payments.uid}`, {
      name: "ci-0",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/app:ref:refs/heads/main",
        claims: { repository_owner: "acme" },
      },
    }),
    await api.post(`${v}/identities/${payments.uid}`, {
      name: "ci-1",
      claimMatch: {
        issuerPattern: "https://gitlab\\.example\\.com",
        subjectPattern: "project_path:acme/.*",
        audience: "platform",
      },
    }),
  ];
  const deployer = await api.post(`${v}/identities/${ledger.uid}`, {
    name: "deployer",
    awsIdentity: { awsAccount: "123456789012", arnPattern: "arn:aws:iam::123456789012:role/deploy-.*" },
  });
  const staticCi = await api.post(`${v}/identities/${platform.uid}`, {
    name: "static-ci",
    staticKeys: {
      issuer: "https://issuer.example.com",
      subject: "builder",
      issuerKeys: JWKS,
      expirationTime: "2031-01-01T00:00:00Z",
    },
  });
  const ingester = await api.post(`${v}/identities/${platform.uid}`, {
    name: "ingester",
    servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
  });
  const publisher = await api.post(`${v}/roles/${platform.uid}`, {
    name: "publisher",
    description: "Publishes images",
    capabilities: [
      "CAP_IAM_GROUPS_LIST",
      "CAP_REPO_LIST",
      "CAP_TAG_CREATE",
      "CAP_EVENTS_SUBSCRIPTION_CREATE",
      "CAP_IAM_SCIM_MANAGE",
      "CAP_TENANT_CLUSTERS_LIST",
    ],
  });
  const ciViewer = [
    await api.post(`${v}/roleBindings/${payments.uid}`, { identityUid: ci[0].uid, roleUid: viewer }),
    await api.post(`${v}/roleBindings/${payments.uid}`, { identityUid: ci[1].uid, roleUid: viewer }),
  ];
  const deployerBinding = await api.post(`${v}/roleBindings/${ledger.uid}`, {
    identityUid: deployer.uid,
    roleUid: publisher.uid,
  });
  const sso = await api.post(`${v}/identityProviders/${platform.uid}`, {
    name: "sso",
    defaultRole: viewer,
    oidc: {
      issuer: "https://login.example.com",
      clientId: "platform",
      clientSecret: SSO_SECRET,
      additionalScopes: ["email", "profile"],
    },
  });
  const invite = await api.post(`${v}/groupInvites/${payments.uid}`, {
    roleUid: viewer,
    ttl: "604800s",
    email: "alice@example.com",
  });
  const association = await api.post(`${v}/accountAssociations/${payments.uid}`, {
    name: "payments-accounts",
    description: "Where payments deploys",
    amazon: { account: "210987654321" },
    github: { appInstallations: { "123456": { installations: [{ installationId: "7654321", name: "acme" }] } } },
  });
  const hooks = await api.post(`/events/v2beta1/subscriptions/${platform.uid}`, {
    sink: "https://hooks.example.com/platform",
  });
  const app = await api.post(`/registry/v2beta1/repos/${platform.uid}`, {
    name: "app",
    description: "The app's images",
    bundles: ["application"],
    aliases: ["app-latest"],
    catalogTier: "CATALOG_TIER_BASE",
  });
  const latest = await api.post(`/registry/v2beta1/tags/${app.uid}`, { name: "latest", digest: DIGEST });

  const read = (path: string) => api.get(path);
  const attrs = async (type: string, path: string, applied: Record<string, unknown> = {}) =>
    attributesOf(type, await read(path), applied);
  const group = (uid: string) => attrs("chainguard_group", `${v}/groups/${uid}`);
  const identity = (uid: string) => attrs("chainguard_identity", `${v}/identities/${uid}`);
  const binding = (uid: string) => attrs("chainguard_rolebinding", `${v}/roleBindings/${uid}`);

  const resources: TfResource[] = [
    {
      mode: "data",
      type: "chainguard_group",
      name: "root",
      instances: [{ attributes: { id: root, name: "root", parent_id: null } }],
    },
    {
      mode: "data",
      type: "chainguard_role",
      name: "viewer",
      instances: [{ attributes: { id: viewer, name: "viewer", items: [] } }],
    },
    {
      type: "chainguard_group",
      name: "platform",
      instances: [{ attributes: await group(platform.uid), dependencies: ["data.chainguard_group.root"] }],
    },
    {
      module: "module.teams",
      type: "chainguard_group",
      name: "team",
      instances: [
        { key: "ledger", attributes: await group(ledger.uid) },
        { key: "payments", attributes: await group(payments.uid) },
      ],
    },
    {
      type: "chainguard_identity",
      name: "ci",
      instances: [
        { key: 0, attributes: await identity(ci[0].uid) },
        { key: 1, attributes: await identity(ci[1].uid) },
      ],
    },
    {
      module: "module.teams",
      type: "chainguard_identity",
      name: "deployer",
      instances: [{ key: "ledger", attributes: await identity(deployer.uid) }],
    },
    {
      type: "chainguard_identity",
      name: "static_ci",
      alias: "eu",
      instances: [{ attributes: await identity(staticCi.uid) }],
    },
    { type: "chainguard_identity", name: "ingester", instances: [{ attributes: await identity(ingester.uid) }] },
    {
      type: "chainguard_role",
      name: "publisher",
      instances: [
        { attributes: await attrs("chainguard_role", `${v}/roles/${publisher.uid}`, { parent_id: platform.uid }) },
      ],
    },
    {
      type: "chainguard_rolebinding",
      name: "ci_viewer",
      instances: [
        { key: 0, attributes: await binding(ciViewer[0].uid) },
        { key: 1, attributes: await binding(ciViewer[1].uid) },
      ],
    },
    {
      module: "module.teams",
      type: "chainguard_rolebinding",
      name: "deployer",
      instances: [{ key: "ledger", attributes: await binding(deployerBinding.uid) }],
    },
    {
      type: "chainguard_identity_provider",
      name: "sso",
      instances: [
        {
          attributes: await attrs("chainguard_identity_provider", `${v}/identityProviders/${sso.uid}`, {
            client_secret: SSO_SECRET,
          }),
          sensitive: [["oidc", "client_secret"]],
        },
      ],
    },
    {
      type: "chainguard_group_invite",
      name: "alice",
      instances: [
        {
          attributes: await attrs("chainguard_group_invite", `${v}/groupInvites/${invite.uid}`, { code: INVITE_CODE }),
          sensitive: [["code"]],
        },
      ],
    },
    {
      module: 'module.region["eu"].module.accounts',
      type: "chainguard_account_associations",
      name: "this",
      instances: [
        { attributes: await attrs("chainguard_account_associations", `${v}/accountAssociations/${association.uid}`) },
      ],
    },
    {
      type: "chainguard_subscription",
      name: "hooks",
      instances: [{ attributes: await attrs("chainguard_subscription", `/events/v2beta1/subscriptions/${hooks.uid}`) }],
    },
    {
      type: "chainguard_image_repo",
      name: "app",
      instances: [{ attributes: await attrs("chainguard_image_repo", `/registry/v2beta1/repos/${app.uid}`) }],
    },
    {
      type: "chainguard_image_tag",
      name: "latest",
      instances: [{ attributes: await attrs("chainguard_image_tag", `/registry/v2beta1/tags/${latest.uid}`) }],
    },
    {
      type: "random_pet",
      name: "suffix",
      provider: "registry.terraform.io/hashicorp/random",
      instances: [{ attributes: { id: "ample-gecko", length: 2, prefix: null, separator: "-" } }],
    },
  ];
  const uids = new Map<string, string>([
    ["chainguard_group.platform", platform.uid],
    ['module.teams.chainguard_group.team["payments"]', payments.uid],
    ['module.teams.chainguard_group.team["ledger"]', ledger.uid],
    ["chainguard_identity.ci[0]", ci[0].uid],
    ["chainguard_identity.ci[1]", ci[1].uid],
    ['module.teams.chainguard_identity.deployer["ledger"]', deployer.uid],
    ["chainguard_identity.static_ci", staticCi.uid],
    ["chainguard_identity.ingester", ingester.uid],
    ["chainguard_role.publisher", publisher.uid],
    ["chainguard_rolebinding.ci_viewer[0]", ciViewer[0].uid],
    ["chainguard_rolebinding.ci_viewer[1]", ciViewer[1].uid],
    ['module.teams.chainguard_rolebinding.deployer["ledger"]', deployerBinding.uid],
    ["chainguard_identity_provider.sso", sso.uid],
    ["chainguard_group_invite.alice", invite.uid],
    ['module.region["eu"].module.accounts.chainguard_account_associations.this', association.uid],
    ["chainguard_subscription.hooks", hooks.uid],
    ["chainguard_image_repo.app", app.uid],
    ["chainguard_image_tag.latest", latest.uid],
  ]);
  return { root, platform: platform.uid, resources, uids, identityProvider: sso.uid, invite: invite.uid };
}
