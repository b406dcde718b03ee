/** Terms documents a group's members accepted (served only through the terms operations). */
import { ResourceDef } from "./kind";

export const termsAcceptances: ResourceDef = {
  kind: "termsAcceptances",
  domain: "iam",
  singular: "terms acceptance",
  parentKind: "groups",
  message: "iam.TermsAcceptance",
  uniqueNames: true,
  operations: [],
  // A terms document is accepted once per group: the document's id is the record's name.
  derived: (rec) => ({ docId: rec.name, orgUid: rec.parentUid }),
};
