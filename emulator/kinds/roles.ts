/**
 * Roles: the built-in ones (viewer, editor, owner; visible to every caller, never changed) and
 * custom roles defined on a group, usable on that group's subtree. A role's uid is 40 hex
 * characters, one segment, so where it was defined is kept as its parent.
 */
import { newRoleUid } from "../ids";
import { KindRules } from "./kind";

export const roles: KindRules = {
  placedByParent: true,
  newUid: () => newRoleUid(),
  defaults: { description: "", capabilities: [] },
};
