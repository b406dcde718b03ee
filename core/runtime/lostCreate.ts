/**
 * A create whose answer was lost (the request may or may not have made the record): what the
 * search for its record (core/runtime/adoption.ts, findLostCreate) found, turned into what the
 * create does next, and the messages that say why it stops when nothing can be proven.
 */
import { findLostCreate, LostCreateSearch } from "./adoption";
import { isNotFound } from "../common/errors";
import type { ApiRecord } from "../model/kind";
import type { KindContext } from "./kindContext";
import { ResourceError, messageOf } from "./resourceError";
import type { Props } from "../common/values";

/** When the lost request was sent, and the records holding the key before it (where the kind lists first). */
export interface SentCreate {
  at: number;
  before?: ReadonlySet<string>;
}

export interface LostCreate {
  /** The record a lost create made, if the search proves it. */
  search(inputs: Props, what: string, sent: SentCreate): Promise<LostCreateSearch>;
  /**
   * Records with the request's values that may be its own or another's: nothing is taken over;
   * the refusal says what settles it.
   */
  unproven(what: string, error: unknown, records: ApiRecord[], sentAt: number): ResourceError;
  /** The record a lost create made, proven its own, deleted so that the create can be sent again. */
  discard(record: ApiRecord, what: string): Promise<void>;
}

export function lostCreate({ kind, client, requests, records }: KindContext): LostCreate {
  return {
    async search(inputs, what, sent) {
      try {
        return await findLostCreate(
          client(),
          kind,
          (record) => records.outputsOf(record, records.parentOf(inputs)),
          inputs,
          sent,
        );
      } catch (error) {
        throw new ResourceError(
          `creating ${what}: the answer to the create was lost and looking for the record failed (${messageOf(error)}). ` +
            `Check whether it exists: if one is this resource's, set \`adoptUid\` to its uid on the resource, or delete it; ` +
            "then run the update again",
          { cause: error },
        );
      }
    },

    unproven(what, error, found, sentAt) {
      const field = kind.createdAtField;
      const shownRecords = found
        .slice(0, 10)
        .map((r) => `${r.uid}${field && typeof r[field] === "string" ? ` (${field} ${r[field]})` : ""}`)
        .join(", ");
      const more = found.length > 10 ? ` and ${found.length - 10} more` : "";
      const rule =
        field === null
          ? "the one such record that was not there when the create began"
          : `the one such record made at or after ${new Date(sentAt).toISOString()}, when the request was sent`;
      return new ResourceError(
        `creating ${what} failed: the answer to the create was lost (${messageOf(error)}), and ` +
          `${found.length === 1 ? `a ${kind.noun}` : `${found.length} ${kind.collection}`} with the same values ` +
          `${found.length === 1 ? "exists" : "exist"} that this program cannot prove it made: ${shownRecords}${more}. ` +
          `A record counts as the create's only when it is ${rule}; nothing was taken over or deleted. ` +
          `To settle it: if one of them is this resource's, set \`adoptUid\` to its uid on the resource; if none is, ` +
          `leave them or delete the one this run may have made (in the console); then run \`pulumi up\` again`,
        { cause: error },
      );
    },

    async discard(record, what) {
      try {
        await requests.delete(record.uid);
      } catch (error) {
        if (!isNotFound(error))
          throw new ResourceError(
            `creating ${what}: the answer to the create was lost and ${kind.noun} ${record.uid} it made could not be ` +
              `deleted to create it again (${messageOf(error)}); delete it by hand, then run the update again`,
            { cause: error },
          );
      }
    },
  };
}
