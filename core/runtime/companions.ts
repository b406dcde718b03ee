/**
 * Companion documents (core/model/kind.ts, Companion): documents of a record's own with operations
 * of their own (a repo's readme, `repos/{uid}/readme`), read with the record and written after
 * it, one request each, only for the ones the program sets.
 */
import type { Companion } from "../model/kind";
import type { KindContext } from "./kindContext";
import { PartlyWrittenError, failed, messageOf } from "./resourceError";
import { Props, isObject, sameValue, stripUndefined } from "../common/values";

const valueIn = (answer: unknown, companion: Companion) =>
  isObject(answer) && answer[companion.field] !== undefined ? answer[companion.field] : "";

export interface Companions {
  /** `outs` with each companion document the state holds read: one GET each (none when it holds none). */
  read(uid: string, props: Props, outs: Props): Promise<Props>;
  /**
   * `outs` with each companion document the program sets written where the state does not hold
   * its value (all of them after a create or an adoption: nothing is known of them yet); one the
   * program leaves out is no longer managed (the service keeps it).
   */
  write(uid: string, olds: Props, news: Props, outs: Props, what: string): Promise<Props>;
}

export function companions({ kind, client, requests }: KindContext): Companions {
  const pathOf = (uid: string, companion: Companion) => `${requests.itemPath(uid)}/${companion.suffix}`;
  return {
    async read(uid, props, outs) {
      if (!kind.companions.some((companion) => props[companion.input] !== undefined)) return outs;
      const out = { ...outs };
      for (const companion of kind.companions) {
        if (props[companion.input] === undefined) continue;
        try {
          const answer = await client().request({ method: "GET", domain: kind.domain, path: pathOf(uid, companion) });
          out[companion.input] = valueIn(answer, companion);
        } catch (error) {
          throw failed(`reading the ${companion.input} of`, kind.label({ ...props, uid }), error);
        }
      }
      return out;
    },

    async write(uid, olds, news, outs, what) {
      const out = { ...outs };
      for (const companion of kind.companions) {
        const wanted = news[companion.input];
        if (wanted === undefined) {
          delete out[companion.input];
          continue;
        }
        if (olds[companion.input] !== undefined && sameValue(olds[companion.input], wanted)) {
          out[companion.input] = olds[companion.input];
          continue;
        }
        try {
          const answer = await client().request({
            method: "PATCH",
            domain: kind.domain,
            path: pathOf(uid, companion),
            body: { [companion.field]: wanted },
          });
          out[companion.input] = valueIn(answer, companion);
        } catch (error) {
          // The record itself is written: the state keeps it with the document's old value, so the
          // next `pulumi up` writes the document again.
          const properties = stripUndefined({
            ...out,
            [companion.input]: olds[companion.input],
            __provider: news.__provider,
          });
          throw new PartlyWrittenError(
            `writing the ${companion.input} of ${what} (${uid}) failed: ${messageOf(error)}. The ${kind.noun} itself ` +
              `is written and kept in the state; run \`pulumi up\` again to write its ${companion.input}`,
            uid,
            properties,
            error,
          );
        }
      }
      return out;
    },
  };
}
