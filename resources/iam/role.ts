/**
 * Roles are looked up, not managed here: `getRole({ name: "viewer" })` for the uid a role
 * binding needs, `getRoles()` for all the caller can see.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../provider/lazyZod";
import {
  Collection,
  defineLookup,
  findOne,
  InputArgs,
  listArgs,
  listRecords,
  LookupOptions,
} from "../../provider/lookup";

export const roleSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    description: z.string().optional(),
    capabilities: z.array(z.string()).optional(),
    createTime: z.string().optional(),
    updateTime: z.string().optional(),
  }),
);
export type Role = z.infer<ReturnType<typeof roleSchema>>;
const roles: Collection<Role> = { domain: "iam", collection: "roles", noun: "role", schema: roleSchema };

const getRolesArgs = lazily((z) => z.strictObject({ ...listArgs() }));
export type GetRolesArgs = z.input<ReturnType<typeof getRolesArgs>>;
export type GetRolesOutputArgs = InputArgs<GetRolesArgs>;
export interface GetRolesResult {
  roles: Role[];
}

const rolesLookup = defineLookup("getRoles", getRolesArgs, async (args, client): Promise<GetRolesResult> => ({
  roles: await listRecords(client, roles, args),
}));

/** Every role matching the filters (all visible roles without any). */
export function getRoles(args: GetRolesArgs = {}, options?: LookupOptions): Promise<GetRolesResult> {
  return rolesLookup.get(args, options);
}

export function getRolesOutput(args: GetRolesOutputArgs = {}, options?: LookupOptions): pulumi.Output<GetRolesResult> {
  return rolesLookup.output(args, options);
}

const getRoleArgs = lazily((z) =>
  z.strictObject({
    name: listArgs().name.unwrap(),
    /** Only roles anywhere below this group. */
    descendantsOf: listArgs().descendantsOf,
    /** Only roles defined directly in this group. */
    childrenOf: listArgs().childrenOf,
  }),
);
export type GetRoleArgs = z.input<ReturnType<typeof getRoleArgs>>;
export type GetRoleOutputArgs = InputArgs<GetRoleArgs>;

const roleLookup = defineLookup("getRole", getRoleArgs, (args, client): Promise<Role> => findOne(client, roles, args));

/** Exactly one role by name, optionally within a group; an error on none or several. */
export function getRole(args: GetRoleArgs, options?: LookupOptions): Promise<Role> {
  return roleLookup.get(args, options);
}

export function getRoleOutput(args: GetRoleOutputArgs, options?: LookupOptions): pulumi.Output<Role> {
  return roleLookup.output(args, options);
}
