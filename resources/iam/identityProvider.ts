/**
 * The Identity provider. This module's exports ARE the provider object, so when the package
 * is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/identityProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { CheckFailure, ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { oneOf } from "../../provider/rules";
import type { Props } from "../../provider/values";
import { SERVICE_PRINCIPALS } from "./enums";

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
            audiences: f.z
              .array(f.text(), f.expecting("a list of strings"))
              .max(64, "must have at most 64 entries")
              .optional(),
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
  writable: ["name", "description", ...KINDS],
  nested: ["claimMatch", "awsIdentity"],
  exclusive: KINDS,
  // Keys given inline are the identity's trust anchor: new keys make a new identity.
  replaceOn: ["parentUid", "staticKeys"],
  alreadyExistsHint:
    "choose another name, delete the existing identity, or refer to it with platform.iam.Identity.get(name, uid) instead of creating it",
};

export = defineProvider(identity);
