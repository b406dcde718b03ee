/**
 * Records as an export reads them (exporter/read.ts's Subtree), holding every hostile text of
 * ./hostileTexts.ts, for the writers' tests: groups named and described with them (some under
 * another, so their parent is a reference), an identity whose claims have every hostile key, a
 * custom role and role bindings (references to records and to a role outside the tree), two
 * identical subscriptions (adopted by uid) and an identity provider (its client secret read from
 * config).
 */
import subscriptionProvider = require("../../resources/events/subscription/provider");
import groupProvider = require("../../resources/iam/group/provider");
import identityProvider = require("../../resources/iam/identity/provider");
import idpProvider = require("../../resources/iam/identityProvider/provider");
import roleProvider = require("../../resources/iam/role/provider");
import roleBindingProvider = require("../../resources/iam/roleBinding/provider");
import type { Subtree } from "../../exporter/read";
import { HOSTILE_GROUP_TEXTS, HOSTILE_TEXTS, hostileClaims } from "./hostileTexts";

export const UNDER = "root";
/** A role outside the tree, by uid, and its name. */
export const VIEWER = { uid: "viewer-uid", name: "viewer" };

export function hostileSubtree(): Subtree {
  const named = HOSTILE_GROUP_TEXTS.map((name, i) => ({ uid: `${UNDER}/g${i}`, name, description: name }));
  // Every hostile text as a description, each group under the first named one (`null`).
  const described = HOSTILE_TEXTS.map((description, i) => ({
    uid: `${UNDER}/g0/d${i}`,
    name: `text ${i}`,
    description,
  }));
  return {
    under: UNDER,
    kinds: [
      {
        exported: { domain: "events", kind: subscriptionProvider.kind },
        records: [
          { uid: `${UNDER}/s1`, sink: "https://hooks.example.com/${x}" },
          { uid: `${UNDER}/s2`, sink: "https://hooks.example.com/${x}" },
        ],
      },
      { exported: { domain: "iam", kind: groupProvider.kind }, records: [...named, ...described] },
      {
        exported: { domain: "iam", kind: identityProvider.kind },
        records: [
          {
            uid: `${UNDER}/i1`,
            name: "null",
            description: "$${x}",
            claimMatch: { issuer: "https://token.example.com", subject: "yes", claims: hostileClaims() },
          },
        ],
      },
      {
        exported: { domain: "iam", kind: idpProvider.kind },
        records: [
          {
            uid: `${UNDER}/p1`,
            name: "sso",
            defaultRole: VIEWER.uid,
            oidc: { issuer: "https://login.example.com", clientId: "on" },
          },
        ],
      },
      {
        exported: { domain: "iam", kind: roleProvider.kind },
        records: [{ uid: "r1", parentUid: `${UNDER}/g0`, name: "true", capabilities: ["CAP_REPO_LIST"] }],
      },
      {
        exported: { domain: "iam", kind: roleBindingProvider.kind },
        records: [
          { uid: `${UNDER}/g0/b1`, identityUid: `${UNDER}/i1`, roleUid: "r1" },
          { uid: `${UNDER}/b2`, identityUid: `${UNDER}/i1`, roleUid: VIEWER.uid },
        ],
      },
    ],
  };
}
