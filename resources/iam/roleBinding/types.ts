/**
 * The names earlier versions gave the references of a role binding as the API hydrates them,
 * kept for programs that import them: each is derived from the generated record type
 * (resource.ts), so the shapes are written only in the API document.
 */
import type { RoleBindingRecord } from "./resource";

export type BoundIdentity = NonNullable<RoleBindingRecord["identity"]>;
export type BoundGroup = NonNullable<RoleBindingRecord["group"]>;
export type BoundRole = NonNullable<RoleBindingRecord["role"]>;
