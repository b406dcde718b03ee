/**
 * Capabilities (values of the documents' capability enum) each operation needs, and the
 * built-in roles. viewer reads, editor also writes the organization's contents, owner may do
 * everything including managing roles, who holds them and how people sign in.
 */
import { Kind } from "./store";
import { builtinRoleUid } from "./ids";

export type Verb = "LIST" | "CREATE" | "UPDATE" | "DELETE";

const crud = (prefix: string): Record<Verb, string> => ({
  LIST: `${prefix}_LIST`,
  CREATE: `${prefix}_CREATE`,
  UPDATE: `${prefix}_UPDATE`,
  DELETE: `${prefix}_DELETE`,
});

/** The capability each verb on each collection needs, as the enum names it. */
export const CAPABILITIES: Record<Kind, Record<Verb, string>> = {
  groups: crud("CAP_IAM_GROUPS"),
  identities: crud("CAP_IAM_IDENTITY"),
  roles: crud("CAP_IAM_ROLES"),
  roleBindings: crud("CAP_IAM_ROLE_BINDINGS"),
  repos: crud("CAP_REPO"),
  tags: crud("CAP_TAG"),
  advisories: crud("CAP_ADVISORIES"),
  identityProviders: crud("CAP_IAM_IDENTITY_PROVIDERS"),
  accountAssociations: crud("CAP_IAM_ACCOUNT_ASSOCIATIONS"),
  // The enum has no update capability for invites: an invite is created or deleted, never changed.
  groupInvites: { ...crud("CAP_IAM_GROUP_INVITES"), UPDATE: "CAP_IAM_GROUP_INVITES_CREATE" },
  // Mappings grant roles to an identity provider's groups: managed like role bindings.
  externalGroupRoleMappings: crud("CAP_IAM_ROLE_BINDINGS"),
  subscriptions: crud("CAP_EVENTS_SUBSCRIPTION"),
  overlays: {
    LIST: "CAP_REGISTRY_OVERLAYS_LIST",
    CREATE: "CAP_REGISTRY_OVERLAYS_EDIT",
    UPDATE: "CAP_REGISTRY_OVERLAYS_EDIT",
    DELETE: "CAP_REGISTRY_OVERLAYS_EDIT",
  },
  overlayBindings: {
    LIST: "CAP_REGISTRY_OVERLAYS_LIST",
    CREATE: "CAP_REGISTRY_OVERLAYS_EDIT",
    UPDATE: "CAP_REGISTRY_OVERLAYS_EDIT",
    DELETE: "CAP_REGISTRY_OVERLAYS_EDIT",
  },
  termsAcceptances: {
    LIST: "CAP_TERMS_LIST",
    CREATE: "CAP_TERMS_ACCEPT",
    UPDATE: "CAP_TERMS_ACCEPT",
    DELETE: "CAP_TERMS_ACCEPT",
  },
  requestGroups: crud("CAP_LIBRARIES_REQUEST_GROUPS"),
};

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

export function capability(kind: Kind, verb: Verb): string {
  return CAPABILITIES[kind][verb];
}

const sorted = (caps: string[]) => [...new Set(caps)].sort();

export const ALL_CAPABILITIES: string[] = sorted([
  ...Object.values(CAPABILITIES).flatMap((verbs) => Object.values(verbs)),
  ...Object.values(OTHER_CAPABILITIES),
]);

const READS = sorted([
  ...Object.values(CAPABILITIES).map((verbs) => verbs.LIST),
  OTHER_CAPABILITIES.termsList,
  OTHER_CAPABILITIES.librariesList,
  OTHER_CAPABILITIES.requestGroupsList,
]);
const EDITABLE: Kind[] = ["groups", "identities", "repos", "tags", "overlays", "overlayBindings", "subscriptions"];

export interface BuiltinRole {
  uid: string;
  name: string;
  description: string;
  capabilities: string[];
}

export const BUILTIN_ROLES: BuiltinRole[] = [
  { name: "viewer", description: "Viewer Role (built-in)", capabilities: READS },
  {
    name: "editor",
    description: "Editor Role (built-in)",
    capabilities: [
      ...READS,
      ...EDITABLE.flatMap((kind) => (["CREATE", "UPDATE", "DELETE"] as Verb[]).map((verb) => capability(kind, verb))),
    ],
  },
  { name: "owner", description: "Owner Role (built-in)", capabilities: ALL_CAPABILITIES },
].map((role) => ({ ...role, uid: builtinRoleUid(role.name), capabilities: sorted(role.capabilities) }));

export function builtinRole(name: string): BuiltinRole {
  const role = BUILTIN_ROLES.find((r) => r.name === name);
  if (!role) throw new Error(`no built-in role ${name}`);
  return role;
}
