/**
 * Capabilities (values of the documents' capability enum) each operation needs, and the
 * built-in roles. viewer reads, editor also writes the organization's contents, owner may do
 * everything including managing roles, who holds them and how people sign in.
 */
import { loadApiDocument } from "./apiDocument";
import { builtinRoleUid } from "./ids";
import type { Kinds, Verb } from "./kinds/kind";
import { kindsOf } from "./kinds/registry";
import type { CollectionName } from "./store";

export type { Verb };

/** Capabilities of operations that are not a collection's verb. */
export const OTHER_CAPABILITIES = {
  scim: "CAP_IAM_SCIM_MANAGE",
  termsList: "CAP_TERMS_LIST",
  termsAccept: "CAP_TERMS_ACCEPT",
  librariesList: "CAP_LIBRARIES_ARTIFACTS_LIST",
  requestGroupsList: "CAP_LIBRARIES_REQUEST_GROUPS_LIST",
  requestGroupsCreate: "CAP_LIBRARIES_REQUEST_GROUPS_CREATE",
  requestGroupsUpdate: "CAP_LIBRARIES_REQUEST_GROUPS_UPDATE",
  requestGroupsDelete: "CAP_LIBRARIES_REQUEST_GROUPS_DELETE",
  requestGroupsSubmit: "CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT",
  requestGroupsItems: "CAP_LIBRARIES_REQUEST_GROUPS_ITEMS_UPDATE",
  requestGroupsRefresh: "CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE",
} as const;

/** The capability a verb on a collection needs (its kind's, kinds/registry.ts). */
export function capability(ctx: { kinds: Kinds }, kind: CollectionName, verb: Verb): string {
  return ctx.kinds[kind].capabilities[verb];
}

const sorted = (caps: string[]) => [...new Set(caps)].sort();

export interface BuiltinRole {
  uid: string;
  name: string;
  description: string;
  capabilities: string[];
}

/** The built-in roles over the given kinds: viewer lists, editor also writes the `editable` kinds, owner does all. */
export function builtinRoles(kinds: Kinds): BuiltinRole[] {
  const defs = Object.values(kinds);
  const all = sorted([...defs.flatMap((def) => Object.values(def.capabilities)), ...Object.values(OTHER_CAPABILITIES)]);
  const reads = sorted([
    ...defs.map((def) => def.capabilities.LIST),
    OTHER_CAPABILITIES.termsList,
    OTHER_CAPABILITIES.librariesList,
    OTHER_CAPABILITIES.requestGroupsList,
  ]);
  const writes = defs
    .filter((def) => def.editable)
    .flatMap((def) => [def.capabilities.CREATE, def.capabilities.UPDATE, def.capabilities.DELETE]);
  return [
    { name: "viewer", description: "Viewer Role (built-in)", capabilities: reads },
    { name: "editor", description: "Editor Role (built-in)", capabilities: [...reads, ...writes] },
    { name: "owner", description: "Owner Role (built-in)", capabilities: all },
  ].map((role) => ({ ...role, uid: builtinRoleUid(role.name), capabilities: sorted(role.capabilities) }));
}

/** The built-in roles of the API document the package carries. */
export const BUILTIN_ROLES: BuiltinRole[] = builtinRoles(kindsOf(loadApiDocument()));

/** Every capability the owner holds under the API document the package carries. */
export const ALL_CAPABILITIES: string[] = builtinRole("owner").capabilities;

export function builtinRole(name: string): BuiltinRole {
  const role = BUILTIN_ROLES.find((r) => r.name === name);
  if (!role) throw new Error(`no built-in role ${name}`);
  return role;
}
