/**
 * Capabilities and the built-in roles. viewer reads, editor also writes the organization's
 * contents, owner may do everything including managing roles and who holds them.
 */
import { Kind } from "./store";
import { builtinRoleUid } from "./ids";

export type Verb = "LIST" | "CREATE" | "UPDATE" | "DELETE";

const PREFIX: Record<Kind, string> = {
  groups: "CAP_IAM_GROUPS",
  identities: "CAP_IAM_IDENTITY",
  roles: "CAP_IAM_ROLES",
  roleBindings: "CAP_IAM_ROLE_BINDINGS",
  repos: "CAP_REPO",
  tags: "CAP_TAG",
  advisories: "CAP_ADVISORIES",
};

const VERBS: Verb[] = ["LIST", "CREATE", "UPDATE", "DELETE"];

export function capability(kind: Kind, verb: Verb): string {
  return `${PREFIX[kind]}_${verb}`;
}

export const ALL_CAPABILITIES: string[] = Object.values(PREFIX).flatMap((prefix) =>
  VERBS.map((verb) => `${prefix}_${verb}`),
);

const READS = (Object.keys(PREFIX) as Kind[]).map((kind) => capability(kind, "LIST"));
const EDITABLE: Kind[] = ["groups", "identities", "repos", "tags"];

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
].map((role) => ({ ...role, uid: builtinRoleUid(role.name), capabilities: [...new Set(role.capabilities)].sort() }));

export function builtinRole(name: string): BuiltinRole {
  const role = BUILTIN_ROLES.find((r) => r.name === name);
  if (!role) throw new Error(`no built-in role ${name}`);
  return role;
}
