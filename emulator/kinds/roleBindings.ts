/**
 * Role bindings: a role granted to an identity on a group (the create path's parent). The
 * answer hydrates the identity, group and role, so clients need no further look-ups.
 */
import { Context } from "../context";
import { alreadyExists, invalidField } from "../errors";
import { inSubtree } from "../ids";
import { Params, textOf } from "../params";
import { Rec } from "../store";
import { answerOf } from "./answer";
import { KindRules } from "./kind";

export const isBuiltinRole = (rec: Rec) => rec.data.builtin === true;

/** A role may be used on a group when it is built in or defined on the group or above it. */
export function usableRole(ctx: Context, roleUid: unknown, groupUid: string): Rec | undefined {
  const role = ctx.store.of("roles").get(String(roleUid));
  return role && (isBuiltinRole(role) || inSubtree(groupUid, String(role.parentUid))) ? role : undefined;
}

/** A binding may reference only an identity and a role the caller can see. */
function checkReferences(ctx: Context, groupUid: string, values: Record<string, unknown>): void {
  if (typeof values.identityUid === "string") {
    const identity = ctx.store.of("identities").get(values.identityUid);
    if (!identity || !ctx.principal.can(ctx.kinds.identities.capabilities.LIST, identity.uid))
      throw invalidField("identityUid", `identity "${values.identityUid}" does not exist`);
  }
  if (typeof values.roleUid === "string" && !usableRole(ctx, values.roleUid, groupUid))
    throw invalidField("roleUid", `role "${values.roleUid}" does not exist or is not usable on group "${groupUid}"`);
}

function checkUnique(ctx: Context, groupUid: string, identityUid: unknown, roleUid: unknown, self?: Rec): void {
  const clash = ctx.store
    .of("roleBindings")
    .referencing("identityUid", String(identityUid))
    .find((b) => b.parentUid === groupUid && b.data.roleUid === roleUid && b !== self);
  if (clash)
    throw alreadyExists(
      "role binding",
      `identity "${String(identityUid)}" already holds role "${String(roleUid)}" on group "${groupUid}" (binding "${clash.uid}")`,
      clash.uid,
    );
}

export const roleBindings: KindRules = {
  references: { identityUid: "identities", roleUid: "roles" },
  alsoRequired: ["identityUid", "roleUid"],
  beforeWrite: (ctx, groupUid, values, self) => {
    checkReferences(ctx, groupUid, values);
    checkUnique(
      ctx,
      groupUid,
      values.identityUid ?? self?.data.identityUid,
      values.roleUid ?? self?.data.roleUid,
      self,
    );
  },
  derived: (rec, ctx) => {
    const identity = ctx.store.of("identities").get(String(rec.data.identityUid));
    const role = ctx.store.of("roles").get(String(rec.data.roleUid));
    const group = ctx.store.of("groups").get(String(rec.parentUid));
    const claim = (identity?.data.claimMatch ?? {}) as Record<string, unknown>;
    // A reference whose record is gone still answers its uid.
    return {
      identity: identity
        ? {
            ...answerOf(ctx, ctx.kinds.identities, identity, { as: "iam.RoleBindingIdentity" }),
            subject: textOf(claim.subject ?? claim.subjectPattern),
            issuer: textOf(claim.issuer ?? claim.issuerPattern),
          }
        : { uid: rec.data.identityUid },
      group: group ? answerOf(ctx, ctx.kinds.groups, group, { as: "iam.RoleBindingGroup" }) : { uid: rec.parentUid },
      role: role ? answerOf(ctx, ctx.kinds.roles, role, { as: "iam.RoleBindingRole" }) : { uid: rec.data.roleUid },
    };
  },
  filters: (params: Params) => {
    const identity = params.get("identity")?.at(-1);
    const group = params.get("group")?.at(-1);
    const role = params.get("role")?.at(-1);
    const predicates: Array<(rec: Rec) => boolean> = [];
    if (identity) predicates.push((r) => r.data.identityUid === identity);
    if (group) predicates.push((r) => r.parentUid === group);
    if (role) predicates.push((r) => r.data.roleUid === role);
    return { predicates, signature: [identity, group, role] };
  },
};
