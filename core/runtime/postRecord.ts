/**
 * A create's POST: the one request that makes the record, or what it comes to when the record
 * already exists (adoption, core/runtime/takeOver.ts) or its answer is lost (core/runtime/lostCreate.ts).
 * A lost answer is never taken for a failure: the record it may have made is looked for first,
 * and the create is sent again only when none was made (or the one made was deleted).
 */
import { wireBody } from "./changes";
import { UnknownOutcomeError, isAlreadyExists } from "../common/errors";
import type { ApiRecord } from "../model/kind";
import type { KindContext } from "./kindContext";
import { lostCreate } from "./lostCreate";
import { ResourceError, failed, messageOf } from "./resourceError";
import { mayResendCreate } from "../transport/retryPolicy";
import { Created, TakeOver, adoptionWanted } from "./takeOver";
import { Props, isObject } from "../common/values";

export type PostRecord = (inputs: Props, what: string) => Promise<Created>;

export function postRecord(context: KindContext, takeOver: TakeOver): PostRecord {
  const { kind, client, requests, claims } = context;
  const lost = lostCreate(context);
  /** A record this create made or settled on: taken (claimed), so no other resource takes it. */
  const taken = (record: ApiRecord, adopted: boolean, what: string): Created => {
    if (!claims.take(record.uid))
      throw new ResourceError(
        `creating ${what} failed: ${kind.noun} ${record.uid} is already held by another resource of this program; ` +
          "nothing was taken over or deleted: run `pulumi up` again",
      );
    return { record, adopted };
  };
  // Twins (the same natural key) one at a time, from the look before the POST to the claim
  // (core/runtime/claims.ts): a lost answer's search then meets every twin's record held or older.
  return (inputs, what) => claims.alone(inputs, () => send(inputs, what));

  async function send(inputs: Props, what: string): Promise<Created> {
    const adopting = adoptionWanted(inputs);
    // The records holding the key before the create, where it must look first: a service that
    // never refuses a duplicate never says ALREADY_EXISTS (adoption looks), and a record that
    // tells no time can only be recognised after a lost answer by not having been there before.
    let before: ReadonlySet<string> | undefined;
    if ((kind.duplicatesAllowed && adopting) || kind.createdAtField === null) {
      const found = await takeOver.holdersOfKey(inputs, what);
      if (kind.duplicatesAllowed && adopting) {
        // The one record no other resource holds; every one held (a twin's) makes a record of its own.
        const adopted = takeOver.adoptFree(found, what);
        if (adopted) return adopted;
      }
      before = new Set(found.map((record) => record.uid));
    }
    const request = {
      method: "POST" as const,
      domain: kind.domain,
      path: requests.itemPath(String(inputs[kind.parentField])),
      body: wireBody(kind, inputs),
    };
    const sent = { at: Date.now(), before, held: (uid: string) => claims.held(uid) };
    let answerLost = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return answered(await client().request(request), what);
      } catch (error) {
        const unknownOutcome = error instanceof UnknownOutcomeError;
        // After a lost answer, ALREADY_EXISTS may be our own first request: look before refusing.
        if (!unknownOutcome && !(answerLost && isAlreadyExists(error))) {
          if (isAlreadyExists(error)) return takeOver.onAlreadyExists(inputs, what, error);
          throw failed("creating", what, error);
        }
        answerLost = true;
        // Records held by other resources of this process (a twin's) are no candidates.
        const search = await lost.search(inputs, what, sent);
        if (search.unproven.length > 0) {
          // Taking over a record that may be another's is the program's word to give (adoption).
          if (adopting && search.unproven.length === 1) return taken(search.unproven[0], true, what);
          throw lost.unproven(what, error, search.unproven, sent.at);
        }
        if (search.ours && !kind.onlyAtCreate?.length) return taken(search.ours, false, what);
        // What the service answers only at create (an invite's code) cannot be read back: the
        // record the lost create made, proven its own, is deleted and the create sent again.
        if (search.ours) await lost.discard(search.ours, what);
        if (isAlreadyExists(error)) return takeOver.onAlreadyExists(inputs, what, error);
        if (!mayResendCreate(attempt)) {
          const outcome = kind.onlyAtCreate?.length
            ? `each ${kind.noun} it made was deleted again (its ${kind.onlyAtCreate.join(", ")} is only answered to the create)`
            : `no such ${kind.noun} was found afterwards`;
          throw new ResourceError(
            `creating ${what} failed: the answer was lost ${attempt} times (last: ${messageOf(error)}) and ${outcome}, ` +
              "so none was created; check the network between here and platform:apiUrl and run the update again",
            { cause: error },
          );
        }
      }
    }
  }

  /** The record a POST answered, taken; an answer without a uid is left for outputsOf to refuse. */
  function answered(record: unknown, what: string): Created {
    const uid = isObject(record) ? record.uid : undefined;
    return typeof uid === "string" && uid !== "" ? taken(record as ApiRecord, false, what) : { record, adopted: false };
  }
}
