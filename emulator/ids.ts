import { createHash, randomBytes } from "node:crypto";

/** One new uid segment: short random lowercase hex, as the service's own uids look. */
export function newSegment(): string {
  return randomBytes(8).toString("hex");
}

export function childUid(parentUid: string): string {
  return `${parentUid}/${newSegment()}`;
}

/** Role uids are 40 hex characters with no separator. */
export function newRoleUid(): string {
  return randomBytes(20).toString("hex");
}

/** Built-in roles get stable uids so they are the same in every emulator and across restarts. */
export function builtinRoleUid(name: string): string {
  return createHash("sha1").update(`builtin-role:${name}`).digest("hex");
}

export function parentOf(uid: string): string | null {
  const cut = uid.lastIndexOf("/");
  return cut < 0 ? null : uid.slice(0, cut);
}

/** True when uid is the group itself or anything below it. */
export function inSubtree(uid: string, groupUid: string): boolean {
  return uid === groupUid || uid.startsWith(`${groupUid}/`);
}

/**
 * Sort key of a uid: "/" becomes \u0001 so a subtree is one contiguous range of a
 * uid-sorted index whatever characters the segments hold (tree order).
 */
export function uidKey(uid: string): string {
  return uid.replace(/\//g, "\u0001");
}

/** Key range [lo, hi) holding the group itself and everything below it. */
export function subtreeRange(groupUid: string): [string, string] {
  const k = uidKey(groupUid);
  return [k, `${k}\u0002`];
}

/** Key range [lo, hi) holding only what is strictly below the group. */
export function descendantsRange(groupUid: string): [string, string] {
  const k = uidKey(groupUid);
  return [`${k}\u0001`, `${k}\u0002`];
}

export function pointRange(uid: string): [string, string] {
  const k = uidKey(uid);
  return [k, `${k}\u0000`];
}
