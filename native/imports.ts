/**
 * `pulumi import`: a Read with no state. Most kinds read back whole from their uid; two need
 * more than the engine gives:
 *
 * - a record whose uid does not tell where it was created (a custom role's is one segment, and
 *   the service answers no parent) is imported as `<parentUid>/<uid>`, the parent's uid then its
 *   own, as a child's uid is spelled; the resource's id is the record's own uid;
 * - a kind with outputs the service answers only at create (an invite's code, a SCIM token) cannot
 *   be imported: the imported resource would never have them. That is said before any request.
 */
import type { Kind } from "../provider/kind";
import type { Props } from "../provider/values";

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
