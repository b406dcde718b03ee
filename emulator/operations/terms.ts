/** Terms a group's members accept: the acceptances per group, and accepting documents (once each). */
import { capability } from "../capabilities";
import { OperationHandler } from "../dispatch";
import { invalidField } from "../errors";
import { listResources } from "../handlers";
import { childUid } from "../ids";
import { makeRec } from "../store";
import { recordFor } from "./access";

const listTerms: OperationHandler = (ctx, { pathParams, params }) => {
  const group = pathParams.group;
  recordFor(ctx, "groups", group, capability(ctx, "termsAcceptances", "LIST"));
  const scoped = new Map(params);
  scoped.set("uidp.children_of", [group]);
  for (const key of ["uidp.descendants_of", "uidp.ids", "uidp.ancestors_of", "uidp.in_root", "name"])
    scoped.delete(key);
  return listResources(ctx, ctx.kinds.termsAcceptances, scoped);
};

/** Records the caller's acceptance of each document once; accepting again changes nothing. */
const acceptTerms: OperationHandler = (ctx, { pathParams, body }) => {
  const group = pathParams.group;
  recordFor(ctx, "groups", group, capability(ctx, "termsAcceptances", "CREATE"));
  const ids = (body.documentIds as string[]) ?? [];
  if (ids.length === 0) throw invalidField("documentIds", "must name at least one document");
  const coll = ctx.store.of("termsAcceptances");
  for (const docId of ids) {
    if (coll.named(docId).some((r) => r.parentUid === group)) continue;
    const now = ctx.clock.now();
    coll.add(
      makeRec({
        uid: childUid(group),
        parentUid: group,
        name: docId,
        createTime: now,
        updateTime: now,
        data: { acceptedBy: ctx.principal.identityUid },
      }),
    );
  }
  ctx.store.changed();
  return { group, documentIds: ids };
};

export const TERMS_OPERATIONS: Record<string, OperationHandler> = {
  TermsService_ListTermsAcceptances: listTerms,
  TermsService_AcceptTerms: acceptTerms,
};
