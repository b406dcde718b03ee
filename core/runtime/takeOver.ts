/**
 * Taking over an existing record instead of creating one (adoption): when the program asks
 * (`adopt`, platform:adopt) and the create finds its natural key held, or exactly the record
 * `adoptUid` names. Finding the records is core/runtime/adoption.ts; this is the create's side: when
 * to take over, which record, and the refusals that say what to do.
 */
import { findByNaturalKey } from "./adoption";
import { ApiError, isNotFound } from "../common/errors";
import type { ApiRecord } from "../model/kind";
import type { KindContext } from "./kindContext";
import { ResourceError, messageOf } from "./resourceError";
import { adoptSetting } from "../transport/settings";
import { quoteUid } from "../common/uid";
import { Props, sameValue, shown } from "../common/values";

/** What a create's POST came to: the record made, or the existing one to take over. */
export interface Created {
  record: unknown;
  adopted: boolean;
}

/**
 * Whether a create may take over an existing record: the resource's `adopt` input wins, then
 * the stack-wide platform:adopt (PLATFORM_ADOPT); off by default.
 */
export function adoptionWanted(inputs: Props): boolean {
  if (typeof inputs.adopt === "boolean") return inputs.adopt;
  try {
    return adoptSetting() ?? false;
  } catch (error) {
    throw new ResourceError(messageOf(error), { cause: error });
  }
}

/** What the service said in an error, for messages that say it in their own words around it. */
export const said = (error: unknown) =>
  error instanceof ApiError ? error.serviceMessage || error.message : messageOf(error);

export interface TakeOver {
  /** The records holding the key of these inputs, every page, for adoption or as the state before a create. */
  holdersOfKey(inputs: Props, what: string): Promise<ApiRecord[]>;
  /**
   * Adoption by key of a kind the service takes twice, which looks before it creates: of the
   * records holding the key, the one no resource of this process holds, taken (claimed); none
   * when every one is held (a twin's: this resource gets a record of its own). Several free ones
   * are refused, naming them.
   */
  adoptFree(found: ApiRecord[], what: string): Created | undefined;
  /** What to do about ALREADY_EXISTS: adopt when asked to, refuse with a message saying how otherwise. */
  onAlreadyExists(inputs: Props, what: string, error: unknown): Promise<Created>;
  /**
   * The record `adoptUid` names: read by its uid, and refused unless it sits under the declared
   * parent and no other resource of this process holds it; then taken (claimed). A record whose
   * uid does not tell its parent (a role's) is looked for among the parent's records by its own key.
   */
  namedRecord(inputs: Props, uid: string, what: string): Promise<ApiRecord>;
}

export function takeOver({ kind, client, requests, records, claims }: KindContext): TakeOver {
  const keyNames = () => [kind.parentField, ...kind.keyFields].join(", ");
  const holding = (inputs: Props, parentFrom: Props = inputs) =>
    findByNaturalKey(client(), kind, (record) => records.outputsOf(record, records.parentOf(parentFrom)), inputs);
  const severalToAdopt = (found: ApiRecord[]) =>
    `adopting it found ${found.length} ${kind.collection} with the same ${keyNames()} that no other resource of ` +
    `this program holds (${found.map((r) => r.uid).join(", ")}); take over the one meant by its uid: set ` +
    "`adoptUid` on this resource";
  /** Why a record held by another resource of this process cannot be this one's. */
  const heldByAnother = (uids: string[]) =>
    `${uids.length === 1 ? `${kind.noun} ${uids[0]} is` : `${kind.collection} ${uids.join(", ")} are`} already ` +
    `held by another resource of this program (created or taken over in this run, or in its state): two ` +
    `resources never hold one record`;

  const alreadyExists = (what: string, error: unknown) =>
    new ResourceError(
      `creating ${what} failed: it already exists (${said(error)}). This program does not take over existing records silently: ` +
        `${kind.alreadyExistsHint}; or take it over: set \`adopt: true\` on this resource, or \`pulumi config set platform:adopt true\` for the whole stack`,
      { cause: error },
    );

  /** The one existing record these inputs name, to take over after ALREADY_EXISTS: taken (claimed). */
  async function existingRecord(inputs: Props, what: string, error: unknown): Promise<ApiRecord> {
    const found = await holding(inputs);
    // Taken in the same turn as it is found free: no other create can take it in between.
    const free = found.filter((record) => !claims.held(record.uid));
    if (free.length === 1 && claims.take(free[0].uid)) return free[0];
    throw new ResourceError(
      found.length === 0
        ? `creating ${what} failed: it already exists (${said(error)}) but no ${kind.noun} with the same ${keyNames()} could be listed to adopt; check that the caller may list ${kind.collection} there`
        : free.length === 0
          ? `creating ${what} failed: it already exists (${said(error)}), and ${heldByAnother(found.map((r) => r.uid))}. ` +
            `Two resources of this program declare the same ${keyNames()}: remove one, or change its ${keyNames()}`
          : `creating ${what} failed: ${severalToAdopt(free)}`,
      { cause: error },
    );
  }

  return {
    async holdersOfKey(inputs, what) {
      try {
        return await holding(inputs);
      } catch (error) {
        throw new ResourceError(
          `creating ${what} failed: listing the ${kind.collection} that could be the same record failed first ` +
            `(${messageOf(error)}); check that the caller may list ${kind.collection} there`,
          { cause: error },
        );
      }
    },

    adoptFree(found, what) {
      const free = found.filter((record) => !claims.held(record.uid));
      if (free.length > 1) throw new ResourceError(`creating ${what} failed: ${severalToAdopt(free)}`);
      if (free.length === 1 && claims.take(free[0].uid)) return { record: free[0], adopted: true };
      return undefined;
    },

    async onAlreadyExists(inputs, what, error) {
      if (!adoptionWanted(inputs)) throw alreadyExists(what, error);
      return { record: await existingRecord(inputs, what, error), adopted: true };
    },

    async namedRecord(inputs, uid, what) {
      const refused = (why: string, cause?: unknown) =>
        new ResourceError(`adopting ${what} (adoptUid ${quoteUid(uid)}) failed: ${why}`, { cause });
      let record: unknown;
      try {
        record = await requests.get(uid);
      } catch (error) {
        if (isNotFound(error))
          throw refused(
            `no such ${kind.noun} exists (${said(error)}); check the uid, or remove adoptUid to create the ${kind.noun}`,
            error,
          );
        throw refused(messageOf(error), error);
      }
      const current = records.outputsOf(record);
      if (current.uid !== uid) throw refused(`the API answered ${kind.noun} ${quoteUid(String(current.uid))} instead`);
      const parent = inputs[kind.parentField];
      const placed = current[kind.parentField];
      if (placed === undefined) {
        let siblings: ApiRecord[];
        try {
          siblings = await holding({ ...current, [kind.parentField]: parent }, inputs);
        } catch (error) {
          throw refused(
            `listing the ${kind.collection} of ${kind.parentField} "${shown(parent)}" failed: ${messageOf(error)}`,
            error,
          );
        }
        if (!siblings.some((item) => item.uid === uid))
          throw refused(`it is not one of the ${kind.collection} of ${kind.parentField} "${shown(parent)}"`);
      } else if (!sameValue(placed, parent)) {
        throw refused(
          `it sits under "${shown(placed)}", not under the declared ${kind.parentField} "${shown(parent)}"; ` +
            `declare its own ${kind.parentField}, or check the uid`,
        );
      }
      // Read and placed, then taken in one turn: a twin naming the same uid meets it held.
      if (!claims.take(uid)) throw refused(`${heldByAnother([uid])}; check the uid`);
      return record as ApiRecord;
    },
  };
}
