/**
 * Every kind the package manages, each listed once: the only place the package learns which
 * kinds exist. The exporter, the native provider, the benchmarks, the package test, the
 * documents check and the generator take the list from here; nothing finds kinds by reading
 * folders. (The emulator takes its collections from the API document instead: it judges the
 * provider independently.)
 *
 * Each entry is the kind's provider module: its exports are the provider object a resource's
 * state stores as `__provider` (a bare `require` of the module's path), and carry the
 * description it was made from. `formerModules` are the paths earlier versions stored for the
 * same kind; each stays a module whose exports are this provider, so every state still loads.
 */
import * as path from "node:path";
import type { Provider } from "../core/runtime/lifecycle";
import subscription = require("./events/subscription/provider");
import accountAssociation = require("./iam/accountAssociation/provider");
import externalGroupRoleMapping = require("./iam/externalGroupRoleMapping/provider");
import group = require("./iam/group/provider");
import groupInvite = require("./iam/groupInvite/provider");
import identity = require("./iam/identity/provider");
import identityProvider = require("./iam/identityProvider/provider");
import role = require("./iam/role/provider");
import roleBinding = require("./iam/roleBinding/provider");
import scimToken = require("./iam/scimToken/provider");
import overlay = require("./registry/overlay/provider");
import overlayBinding = require("./registry/overlayBinding/provider");
import repo = require("./registry/repo/provider");
import tag = require("./registry/tag/provider");

export interface RegisteredKind {
  /** The provider object, with the kind's description when the generic lifecycle made it. */
  readonly provider: Partial<Provider> & Pick<Provider, "create" | "read" | "delete">;
  /** Package-relative module paths (no extension) that earlier versions stored in states for this kind. */
  readonly formerModules: readonly string[];
}

/** By domain; within one, the order exports have always listed the kinds in (an exported program's order). */
export const KINDS: readonly RegisteredKind[] = [
  { provider: subscription, formerModules: ["resources/events/subscriptionProvider"] },
  { provider: accountAssociation, formerModules: ["resources/iam/accountAssociationProvider"] },
  { provider: externalGroupRoleMapping, formerModules: ["resources/iam/externalGroupRoleMappingProvider"] },
  { provider: groupInvite, formerModules: ["resources/iam/groupInviteProvider"] },
  { provider: group, formerModules: ["resources/iam/groupProvider"] },
  { provider: identity, formerModules: ["resources/iam/identityProvider"] },
  { provider: identityProvider, formerModules: ["resources/iam/idpProvider"] },
  { provider: roleBinding, formerModules: ["resources/iam/roleBindingProvider"] },
  { provider: role, formerModules: ["resources/iam/roleProvider"] },
  { provider: scimToken, formerModules: ["resources/iam/scimTokenProvider"] },
  { provider: overlayBinding, formerModules: ["resources/registry/overlayBindingProvider"] },
  { provider: overlay, formerModules: ["resources/registry/overlayProvider"] },
  { provider: repo, formerModules: ["resources/registry/repoProvider"] },
  { provider: tag, formerModules: ["resources/registry/tagProvider"] },
];

/** The compiled package's root (dist/), which module paths are relative to. */
const packageRoot = path.resolve(__dirname, "..");

/**
 * The package-relative path (no extension) of the module whose exports are `provider`: the path
 * a state written now stores (the closure serializer finds a provider the same way, in the
 * require cache). Never one of the kind's former paths, which export the same object.
 */
export function modulePathOf(registered: RegisteredKind): string {
  for (const module of Object.values(require.cache)) {
    if (module?.exports !== registered.provider) continue;
    const relative = path.relative(packageRoot, module.filename).split(path.sep).join("/").replace(/\.js$/, "");
    if (!registered.formerModules.includes(relative)) return relative;
  }
  throw new Error(`no loaded module exports the provider of ${registered.provider.kind?.typeName ?? "a kind"}`);
}
