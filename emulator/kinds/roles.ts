/**
 * Roles: the built-in ones (viewer, editor, owner; visible to every caller, never changed) and
 * custom roles defined on a group, usable on that group's subtree. A role's uid is 40 hex
 * characters, one segment, so where it was defined is kept as its parent.
 */
import roleDescription from "../../resources/iam/role/description";
import { newRoleUid } from "../ids";
import { ResourceDef, servedAs } from "./kind";
import { removeRecord } from "./registry";

export const roles: ResourceDef = {
  ...servedAs(roleDescription),
  uniqueNames: true,
  operations: ["list", "get", "create", "update", "delete"],
  newUid: () => newRoleUid(),
  defaults: { description: "", capabilities: [] },
  onDelete: (ctx, rec) => {
    for (const kind of ["roleBindings", "externalGroupRoleMappings", "groupInvites"] as const)
      for (const holder of ctx.store.of(kind).referencing("roleUid", rec.uid)) removeRecord(ctx, kind, holder);
  },
};
