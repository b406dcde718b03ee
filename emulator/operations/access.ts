/** Access checks shared by the operations that are not a collection's own verbs. */
import { Context } from "../context";
import { notFound, permissionDenied } from "../errors";
import { CollectionName, Rec } from "../store";

/** The caller holds the capability on uid (or above it); otherwise PERMISSION_DENIED, whether or not uid exists. */
export function requireCapability(ctx: Context, cap: string, uid: string): void {
  if (!ctx.principal.can(cap, uid)) throw permissionDenied(`the caller lacks ${cap} on "${uid}"`);
}

/** A record the caller may use with cap, or the right error. */
export function recordFor(ctx: Context, kind: CollectionName, uid: string, cap: string): Rec {
  requireCapability(ctx, cap, uid);
  const rec = ctx.store.of(kind).get(uid);
  if (!rec) throw notFound(ctx.kinds[kind].singular, uid);
  return rec;
}
