/** Terms documents a group's members accepted (served only through the terms operations). */
import { iso, ResourceDef } from "./kind";

export const termsAcceptances: ResourceDef = {
  kind: "termsAcceptances",
  domain: "iam",
  singular: "terms acceptance",
  parentKind: "groups",
  message: "iam.TermsAcceptance",
  uniqueNames: true,
  operations: [],
  render: (rec) => ({
    docId: rec.name,
    orgUid: rec.parentUid,
    acceptedBy: rec.data.acceptedBy,
    createTime: iso(rec.createTime),
  }),
};
