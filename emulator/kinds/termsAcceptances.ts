/** Terms documents a group's members accepted (served only through the terms operations). */
import { KindRules } from "./kind";

export const termsAcceptances: KindRules = {
  domain: "iam",
  singular: "terms acceptance",
  parentKind: "groups",
  message: "iam.TermsAcceptance",
  uniqueNames: true,
  operations: [],
  capabilities: {
    LIST: "CAP_TERMS_LIST",
    CREATE: "CAP_TERMS_ACCEPT",
    UPDATE: "CAP_TERMS_ACCEPT",
    DELETE: "CAP_TERMS_ACCEPT",
  },
  // A terms document is accepted once per group: the document's id is the record's name.
  derived: (rec) => ({ docId: rec.name, orgUid: rec.parentUid }),
};
