/**
 * Look-ups of roles, built-in or custom: `getRole({ name: "viewer" })` for the uid a role
 * binding needs, `getRoles()` for all the caller can see. Custom roles are managed with the
 * Role resource (resource.ts); where roles live in the API comes from its description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { collectionOf } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { defineLookup, findOne, InputArgs, listArgs, listRecords } from "../../../core/program/lookup";
import provider = require("./provider");
import type { RoleRecord } from "./resource";

/** What a look-up needs of a role record; its type is the generated RoleRecord (resource.ts). */
export const roleSchema = lazily((z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<RoleRecord>);
const roles = collectionOf<RoleRecord>(provider.kind, roleSchema);

const getRolesArgs = lazily((z) => z.strictObject({ ...listArgs() }));
export type GetRolesArgs = z.input<ReturnType<typeof getRolesArgs>>;
export type GetRolesOutputArgs = InputArgs<GetRolesArgs>;
export interface GetRolesResult {
  roles: RoleRecord[];
}

export const rolesLookup = defineLookup("getRoles", getRolesArgs, async (args, client): Promise<GetRolesResult> => ({
  roles: await listRecords(client, roles, args),
}));

/** Every role matching the filters (all visible roles without any). */
export function getRoles(args: GetRolesArgs = {}, options?: pulumi.InvokeOptions): Promise<GetRolesResult> {
  return rolesLookup.get(args, options);
}

export function getRolesOutput(
  args: GetRolesOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetRolesResult> {
  return rolesLookup.output(args, options);
}

const getRoleArgs = lazily((z) =>
  z.strictObject({
    name: listArgs().name.unwrap().describe("The role's exact name (viewer, editor, owner or a custom role's)."),
    descendantsOf: listArgs().descendantsOf,
    childrenOf: listArgs().childrenOf,
  }),
);
export type GetRoleArgs = z.input<ReturnType<typeof getRoleArgs>>;
export type GetRoleOutputArgs = InputArgs<GetRoleArgs>;

export const roleLookup = defineLookup("getRole", getRoleArgs, (args, client): Promise<RoleRecord> =>
  findOne(client, roles, args),
);

/** Exactly one role by name, optionally within a group; an error on none or several. */
export function getRole(args: GetRoleArgs, options?: pulumi.InvokeOptions): Promise<RoleRecord> {
  return roleLookup.get(args, options);
}

export function getRoleOutput(
  args: GetRoleOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<RoleRecord> {
  return roleLookup.output(args, options);
}
