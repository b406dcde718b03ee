/**
 * The Identity provider. This module's exports ARE the provider object, so when the package
 * is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/identityProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { oneOf } from "../../provider/rules";

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
      claimMatch: f.z.strictObject(
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
      ),
    }),
  rules: (inputs) => [
    ...oneOf(inputs.claimMatch, "claimMatch", "issuer", "issuerPattern", true),
    ...oneOf(inputs.claimMatch, "claimMatch", "subject", "subjectPattern", true),
    ...oneOf(inputs.claimMatch, "claimMatch", "audience", "audiencePattern", false),
  ],
  parentField: "parentUid",
  writable: ["name", "description", "claimMatch"],
  nested: ["claimMatch"],
  replaceOn: ["parentUid"],
  alreadyExistsHint:
    "choose another name, delete the existing identity, or refer to it with platform.iam.Identity.get(name, uid) instead of creating it",
};

export = defineProvider(identity);
