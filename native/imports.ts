/**
 * `pulumi import`: a Read with no state. Most kinds read back whole from their uid; two need
 * more than the engine gives:
 *
 * - a record whose uid does not tell where it was created (a custom role's is one segment, and
 *   the service answers no parent) is imported as `<parentUid>/<uid>`, the parent's uid then its
 *   own, as a child's uid is spelled; the resource's id is the record's own uid;
 * - a kind with outputs the service answers only at create (an invite's code, a SCIM token) cannot
 *   be imported: the imported resource would never have them. That is said before any request.
 *
 * The id forms are importStart and importIdOf; what an import checks before the record is
 * accepted (it exists, it is the kind's, it sits where its id says) is importRecord.
 */
import { findByNaturalKey } from "../core/runtime/adoption";
import type { ApiClient } from "../core/transport/client";
import type { Kind } from "../core/model/kind";
import { messageOf } from "../core/runtime/resourceError";
import { quoteUid } from "../core/common/uid";
import { Props, shown } from "../core/common/values";

/** The id and state a Read of an import starts from, or an error saying why the kind cannot be imported. */
export function importStart(kind: Kind, id: string): { id: string; state: Props } {
  if (kind.partOf || kind.onlyAtCreate?.length)
    throw new Error(
      `a ${kind.noun} cannot be imported: ${
        kind.onlyAtCreate?.length
          ? `its ${kind.onlyAtCreate.join(", ")} ${kind.onlyAtCreate.length === 1 ? "is" : "are"} answered only when it is created, so an imported one would never have ${kind.onlyAtCreate.length === 1 ? "it" : "them"}`
          : "it is part of another record"
      }; declare a new one instead`,
    );
  if (!kind.placedByParent) return { id, state: {} };
  const at = id.lastIndexOf("/");
  if (at <= 0 || at === id.length - 1)
    throw new Error(
      `a ${kind.noun}'s uid does not tell where it is defined: import it as <${kind.parentField}>/<uid> ` +
        `(the uid of the record of ${kind.parentCollection} it belongs to, a slash, then its own uid); got "${id}"`,
    );
  return { id: id.slice(at + 1), state: { [kind.parentField]: id.slice(0, at) } };
}

/** The import id of a record as `importStart` takes it: its uid, after its parent's where the uid does not tell it. */
export function importIdOf(kind: Kind, uid: string, outputs: Props): string {
  const parent = outputs[kind.parentField];
  return kind.placedByParent && typeof parent === "string" && !uid.includes("/") ? `${parent}/${uid}` : uid;
}

/** Whether a kind's records can be imported (importStart would not refuse it). */
export function importable(kind: Kind): boolean {
  return !kind.partOf && !kind.onlyAtCreate?.length;
}

/** What the import checks need of the provider: the kind's read, and the client its requests go through. */
export interface ImportedKind {
  kind: Kind;
  read(id: string, props: Props): Promise<{ id?: string; props?: unknown; inputs?: unknown }>;
  client: ApiClient;
  /** The look-up that finds records the import refuses because they belong to no parent (a built-in role's getRole). */
  lookup?: string;
}

/**
 * `pulumi import <type> <name> <id>`: the record the id names, read, and accepted only where it
 * sits. A record the service does not hold (or that is another kind's) fails naming the kind and
 * the uid, instead of the engine's "does not support importing"; a record whose id names its
 * parent (a role's `<group>/<role>`) must be one of that parent's own, which a List of the
 * parent's records proves: a built-in record at the root, or another parent's, is refused, saying
 * where it is. Nothing is written.
 */
export async function importRecord(
  imported: ImportedKind,
  id: string,
): Promise<{ id?: string; props?: unknown; inputs?: unknown }> {
  const { kind } = imported;
  const start = importStart(kind, id);
  const result = await imported.read(start.id, start.state);
  if (!result.id)
    throw new Error(
      `importing ${kind.noun} ${quoteUid(start.id)} failed: no ${kind.noun} ${quoteUid(start.id)} exists (the API ` +
        `answered NOT_FOUND for it); check the id, and that it is a ${kind.noun}'s: each resource type imports records of its own kind`,
    );
  if (result.id !== start.id)
    throw new Error(
      `importing ${kind.noun} ${quoteUid(start.id)} failed: the API answered ${kind.noun} ${quoteUid(String(result.id))} instead`,
    );
  if (kind.placedByParent) await refuseMisplaced(imported, start, result.props);
  return result;
}

/** Fails unless the record is one of the records of the parent its import id names. */
async function refuseMisplaced(
  { kind, client, lookup }: ImportedKind,
  start: { id: string; state: Props },
  props: unknown,
): Promise<void> {
  const parent = start.state[kind.parentField];
  const where = `${kind.parentField} ${quoteUid(String(parent))}`;
  const refused = (why: string) =>
    new Error(`importing ${kind.noun} ${quoteUid(start.id)} as one of ${where}'s refused: ${why}`);
  /** Whether the record is among those holding its key under `placedUnder` (its name there): every page. */
  const listedUnder = (listing: Kind, placedUnder: unknown) => {
    const outputs = { ...(props as Props), [kind.parentField]: placedUnder };
    return findByNaturalKey(
      client,
      listing,
      (record) => ({ ...kind.toOutputs(record), [kind.parentField]: placedUnder }),
      outputs,
    ).then((records) => records.some((record) => record.uid === start.id));
  };
  let own: boolean;
  try {
    own = await listedUnder(kind, parent);
  } catch (error) {
    throw refused(`listing the ${kind.collection} of ${where} failed: ${messageOf(error)}`);
  }
  if (own) return;
  // Not the parent's: one every organization shares (at the root, such as a built-in role), or another parent's.
  const atRoot = await listedUnder(
    { ...kind, naturalKey: (inputs) => ({ "uidp.inRoot": true, name: shown(inputs.name) }) },
    null,
  ).catch(() => false);
  throw refused(
    atRoot
      ? `it is not ${where}'s own: it sits at the root, shared by every organization (a built-in ${kind.noun}), ` +
          `and no program manages it; refer to it with ${lookup ? `the look-up ${lookup}` : "a look-up"} instead`
      : `it is not one of the ${kind.collection} of ${where} (it is defined elsewhere, or that ${kind.parentField} ` +
          `is not where it lives); import it with the uid of its own ${kind.parentField}, or check the id`,
  );
}
