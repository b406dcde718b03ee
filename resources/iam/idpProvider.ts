/**
 * The IdentityProvider provider (how a group's people sign in: OIDC). This module's exports ARE
 * the provider object, so when the package is installed the closure serializer stores
 * `__provider` as a bare `require("platform-pulumi/dist/resources/iam/idpProvider.js")`: a shim
 * that loads the package's current code at call time, and captures no config, token or path.
 *
 * (identityProvider.ts beside it is the provider of the *Identity* kind: its name predates this
 * kind and is stored in every stack's state, so it stays.)
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { isObject, parentOfUid } from "../../provider/values";
import { listOf } from "../registry/customOverlay";

import { CORRELATION_RULES, UNSPECIFIED_RULE } from "./correlationRule";

/** The rules a program may set: every documented one but the zero value (leave it out for none). */
const SETTABLE_RULES = CORRELATION_RULES.filter((rule) => rule !== UNSPECIFIED_RULE);

const identityProvider: ResourceKind = {
  typeName: "IdentityProvider",
  noun: "identity provider",
  domain: "iam",
  collection: "identityProviders",
  message: "iam.IdentityProvider",
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
            additionalScopes: listOf(f, f.text()).optional(),
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

export = defineProvider(identityProvider);
