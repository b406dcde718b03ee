/** Every collection the emulator keeps, by kind, and the one way to remove a record with its cascades. */
import { Context } from "../context";
import { Kind, Rec, StoredRec } from "../store";
import { accountAssociations } from "./accountAssociations";
import { advisories } from "./advisories";
import { externalGroupRoleMappings } from "./externalGroupRoleMappings";
import { groupInvites } from "./groupInvites";
import { groups } from "./groups";
import { identities } from "./identities";
import { identityProviders } from "./identityProviders";
import { ResourceDef } from "./kind";
import { overlayBindings } from "./overlayBindings";
import { overlays } from "./overlays";
import { repos } from "./repos";
import { roleBindings } from "./roleBindings";
import { roles } from "./roles";
import { subscriptions } from "./subscriptions";
import { tags } from "./tags";
import { termsAcceptances } from "./termsAcceptances";
import { requestGroups } from "./requestGroups";

export const RESOURCES: Record<Kind, ResourceDef> = {
  groups,
  identities,
  roles,
  roleBindings,
  repos,
  tags,
  advisories,
  identityProviders,
  accountAssociations,
  groupInvites,
  externalGroupRoleMappings,
  subscriptions,
  overlays,
  overlayBindings,
  termsAcceptances,
  requestGroups,
};

/** The collection served at /<domain>/<version>/<collection>. */
export function resourceFor(domain: string, collection: string): ResourceDef | undefined {
  const def = Object.prototype.hasOwnProperty.call(RESOURCES, collection) ? RESOURCES[collection as Kind] : undefined;
  return def && def.domain === domain ? def : undefined;
}

export function removeRecord(ctx: Context, kind: Kind, rec: Rec): void {
  if (ctx.store.of(kind).get(rec.uid) !== rec) return;
  RESOURCES[kind].onDelete?.(ctx, rec);
  ctx.store.of(kind).remove(rec);
}

/**
 * The records of a state file, with those of a kind keyed by its parent at their parent's uid:
 * files written before the emulator keyed them so hold them under a child uid of their own.
 * Two under one parent cannot both move; that is refused, naming them (`why` words the refusal).
 */
export function rekeyByParent(
  records: Partial<Record<Kind, StoredRec[]>>,
  why: (problem: string) => Error,
): Partial<Record<Kind, StoredRec[]>> {
  const out = { ...records };
  for (const [kind, def] of Object.entries(RESOURCES) as Array<[Kind, ResourceDef]>) {
    const recs = records[kind];
    if (!def.keyedByParent || !recs?.some((rec) => rec.uid !== rec.parentUid)) continue;
    const byParent = new Map<string, StoredRec>();
    for (const rec of recs) {
      const parent = String(rec.parentUid);
      const other = byParent.get(parent);
      if (other)
        throw why(
          `holds two ${kind} of "${parent}" ("${other.uid}" and "${rec.uid}"), and there is one per ${RESOURCES[def.parentKind].singular}: ` +
            "delete one of them from the file",
        );
      byParent.set(parent, { ...rec, uid: parent });
    }
    out[kind] = [...byParent.values()];
  }
  return out;
}
