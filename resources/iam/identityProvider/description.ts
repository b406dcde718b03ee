/**
 * A group's identity provider (how its people sign in: OIDC): everything the package knows about
 * the kind, and the only place it is written. Its provider, class, look-ups and docs pages come
 * from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { isObject, parentOfUid } from "../../../core/common/values";
import { CORRELATION_RULES, UNSPECIFIED_RULE } from "./correlationRule";

/** The rules a program may set: every documented one but the zero value (leave it out for none). */
const SETTABLE_RULES = CORRELATION_RULES.filter((rule) => rule !== UNSPECIFIED_RULE);

const identityProvider: ResourceKind = {
  typeName: "IdentityProvider",
  noun: "identity provider",
  domain: "iam",
  collection: "identityProviders",
  message: "iam.IdentityProvider",
  docs: {
    summary:
      "An identity provider of a group (how its people sign in, over OIDC), managed by Pulumi. Its\n" +
      "id is the identity provider's uid.",
    example: {
      name: "sso",
      inputs: {
        parentUid: { $uidOf: "Group" },
        name: "sso",
        defaultRole: { $lookup: "iam.getRole", args: { name: "viewer" }, field: "uid" },
        oidc: {
          issuer: "https://login.example.com",
          clientId: "platform",
          clientSecret: { $config: "ssoClientSecret", secret: true },
        },
      },
    },
    fields: {
      uid: "The identity provider's uid: the group's uid, \"/\", one more segment. Same as `id`.",
      parentUid: "The group whose people sign in through it. Changing it replaces the identity provider.",
      name: "Unique among the group's identity providers.",
      description: '"" when none was given.',
      defaultRole:
        "The uid of the role people signing in get by default (a built-in role or a custom role usable on the group).",
      oidc:
        "How the group's people sign in: the documented iam.IdentityProvider.OIDC message.\n" +
        "A Pulumi secret as a whole (it holds the client secret). The OIDC client secret is written and never\n" +
        "read back: the state keeps what the program set. Pulumi marks secrets on top-level properties only, so\n" +
        "the whole `oidc` block is a Pulumi secret, in the state's inputs and outputs alike (its issuer and\n" +
        "clientId show as [secret] in a preview too): that is the one way to keep the client secret out of the\n" +
        "state in plain text.",
      "oidc.issuer": "The OpenID issuer: an https URL.",
      "oidc.clientSecret": "Write-only: sent to the service, never read back; a Pulumi secret in the state.",
      "oidc.groupsClaim": "The claim of the ID token naming the user's groups.",
      "oidc.correlationRule": "How a signed-in user is matched with a provisioned one; leave it out for none.",
      scim: "SCIM provisioning state (read-only: changed through the SCIM token operations, not here).",
      adopt:
        "Take over an existing identity provider of the same name on the group instead of failing (see the adoption guide,\n" +
        "docs/guides/existing-organization.md): its client secret cannot be read, so the declared one is written. Never sent to the API.\n" +
        "Defaults to the stack-wide `platform:adopt` (PLATFORM_ADOPT), off unless set.",
    },
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      description: f.optionalText().optional(),
      defaultRole: f.uid("a role", "segment"),
      oidc: f.z
        .strictObject(
          {
            issuer: f.httpsUrl(),
            clientId: f.text(),
            clientSecret: f.text().optional(),
            additionalScopes: f.list(f.text()).optional(),
            groupsClaim: f.text().optional(),
            correlationRule: f.z
              .enum(SETTABLE_RULES, f.expecting(`one of ${SETTABLE_RULES.join(", ")} (leave it out for none)`))
              .optional(),
            pkceEnabled: f.z.boolean(f.expecting("true or false")).optional(),
          },
          f.expecting("an object with issuer and clientId"),
        )
        .optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description", "defaultRole", "oidc"],
  nested: ["oidc"],
  replaceOn: ["parentUid"],
  // The service keeps the client secret and never answers it.
  writeOnly: ["oidc.clientSecret"],
  secrets: ["oidc.clientSecret"],
  toOutputs: ({ oidc, ...record }) => {
    const parentUid = parentOfUid(record.uid);
    const outputs = { ...record, ...(parentUid ? { parentUid } : {}) };
    if (!isObject(oidc)) return outputs;
    // The enum's zero value is the service's way of saying "none": a program leaves it out.
    const { correlationRule, ...rest } = oidc;
    return { ...outputs, oidc: correlationRule === UNSPECIFIED_RULE ? rest : { ...rest, correlationRule } };
  },
  alreadyExistsHint:
    "choose another name, delete the existing identity provider, or refer to it with platform.iam.IdentityProvider.get(name, uid) instead of creating it",
};

export default identityProvider;
