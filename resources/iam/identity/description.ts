/**
 * An identity that external tokens or principals are matched to: everything the package knows
 * about the kind, and the only place it is written. Its provider, class, look-ups and docs
 * pages come from here.
 */
import type { CheckFailure, ResourceKind } from "../../../core/model/kind";
import { oneOf } from "../../../core/model/rules";
import type { Props } from "../../../core/common/values";
import { SERVICE_PRINCIPALS } from "../enums";

/** The ways an identity is assumed: exactly one per identity; switching replaces it. */
const KINDS = ["claimMatch", "awsIdentity", "staticKeys", "servicePrincipal"] as const;

function exactlyOneKind(inputs: Props): CheckFailure[] {
  const set = KINDS.filter((k) => inputs[k] !== undefined && inputs[k] !== null);
  if (set.length === 1) return [];
  return [
    {
      property: set[1] ?? "claimMatch",
      reason:
        set.length === 0
          ? `is required (or one of ${KINDS.slice(1).join(", ")}): an identity is assumed in exactly one way`
          : `set only one of ${KINDS.join(", ")} (got ${set.join(", ")})`,
    },
  ];
}

const identity: ResourceKind = {
  typeName: "Identity",
  noun: "identity",
  domain: "iam",
  collection: "identities",
  message: "iam.Identity",
  docs: {
    summary:
      "An identity matched to external OIDC tokens by their claims, managed by Pulumi. Its id is\n" +
      "the identity's uid.",
    example: {
      name: "ci",
      inputs: {
        parentUid: { $uidOf: "Group" },
        name: "ci",
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: "repo:acme/app:ref:refs/heads/main",
        },
      },
    },
    fields: {
      uid: "The identity's uid: its group's uid, \"/\", one more segment. Same as `id`.",
      parentUid: "The group the identity lives in. Changing it replaces the identity.",
      name: "Unique among the group's identities.",
      description: '"" when none was given.',
      claimMatch:
        "How a token is matched: exactly one of each value and its pattern (audience optional).\n" +
        "How the identity is assumed: exactly one of claimMatch, awsIdentity, staticKeys and\n" +
        "servicePrincipal. Switching from one to another, or changing staticKeys, replaces it.",
      "claimMatch.issuer": "The token issuer's https URL.",
      "claimMatch.issuerPattern": "A regular expression the issuer must match, instead of `issuer`.",
      "claimMatch.claims": "Further claims that must equal these values.",
      "claimMatch.claimPatterns": "Further claims that must match these regular expressions.",
      awsIdentity: "An AWS principal: the account, and optionally its ARN and user id (or patterns of them).",
      "awsIdentity.awsAccount": "The 12-digit AWS account id.",
      staticKeys: "Tokens signed by keys given inline, for issuers the service cannot reach.",
      "staticKeys.issuer": "The issuer's https URL.",
      "staticKeys.issuerKeys": 'The issuer\'s public keys: a JSON Web Key Set as JSON text, `{"keys": [...]}`.',
      "staticKeys.expirationTime": "When the keys stop being accepted (RFC 3339).",
      servicePrincipal: "A platform service, e.g. SERVICE_PRINCIPAL_INGESTER.",
    },
    replacedWhen: "`parentUid` changes, `staticKeys` change, or the kind switches (e.g. `claimMatch` → `awsIdentity`)",
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      description: f.optionalText().optional(),
      claimMatch: f.z
        .strictObject(
          {
            issuer: f.httpsUrl().optional(),
            issuerPattern: f.pattern().optional(),
            subject: f.text().optional(),
            subjectPattern: f.pattern().optional(),
            audience: f.text().optional(),
            audiencePattern: f.pattern().optional(),
            claims: f.stringMap().optional(),
            claimPatterns: f.stringMap(f.pattern()).optional(),
          },
          f.expecting("an object with issuer (or issuerPattern) and subject (or subjectPattern)"),
        )
        .optional(),
      awsIdentity: f.z
        .strictObject(
          {
            awsAccount: f.z
              .string(f.expecting("a 12-digit AWS account id"))
              .regex(/^\d{12}$/, "must be a 12-digit AWS account id"),
            arn: f.text().optional(),
            arnPattern: f.pattern().optional(),
            userId: f.text().optional(),
            userIdPattern: f.pattern().optional(),
          },
          f.expecting("an object with awsAccount"),
        )
        .optional(),
      staticKeys: f.z
        .strictObject(
          {
            issuer: f.httpsUrl(),
            subject: f.text(),
            issuerKeys: f.jwks(),
            audiences: f.list(f.text()).optional(),
            expirationTime: f.timestamp().optional(),
          },
          f.expecting("an object with issuer, subject and issuerKeys"),
        )
        .optional(),
      servicePrincipal: f.z
        .enum(SERVICE_PRINCIPALS, { error: () => `must be one of ${SERVICE_PRINCIPALS.join(", ")}` })
        .optional(),
    }),
  rules: (inputs) => [
    ...exactlyOneKind(inputs),
    ...oneOf(inputs.claimMatch, "claimMatch", "issuer", "issuerPattern", true),
    ...oneOf(inputs.claimMatch, "claimMatch", "subject", "subjectPattern", true),
    ...oneOf(inputs.claimMatch, "claimMatch", "audience", "audiencePattern", false),
    ...oneOf(inputs.awsIdentity, "awsIdentity", "arn", "arnPattern", false),
    ...oneOf(inputs.awsIdentity, "awsIdentity", "userId", "userIdPattern", false),
  ],
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description", ...KINDS],
  nested: ["claimMatch", "awsIdentity"],
  exclusive: KINDS,
  // Keys given inline are the identity's trust anchor: new keys make a new identity.
  replaceOn: ["parentUid", "staticKeys"],
  alreadyExistsHint:
    "choose another name, delete the existing identity, or refer to it with platform.iam.Identity.get(name, uid) instead of creating it",
};

export default identity;
