/**
 * How an exported program takes each record over on its first `up`, instead of creating one.
 *
 * The kinds whose records no key tells apart (the service takes two identical invites or
 * subscriptions: `duplicatesAllowed`) name their record by uid, `adoptUid`, on every record:
 * adopting by key could not say which of two twins is meant, and a twin made between the export
 * and the `up` would stop it; and a record's text does not depend on whether a twin exists.
 * Every other kind adopts by its natural key (`adopt: true`), which names one record, since the
 * service refuses a second one: no uid to carry, and a record deleted later is created again.
 */
import type { Kind } from "../core/model/kind";
import type { Props } from "../core/common/values";

/** The input that makes a create take over the record holding the natural key instead of failing. */
export const ADOPT_INPUT = "adopt";
/** The input that makes a create take over exactly the record of that uid. */
export const ADOPT_UID_INPUT = "adoptUid";

/** The adoption inputs of the resource declaring the record `uid` of this kind. */
export function adoptionInputs(kind: Kind, uid: string): Props {
  return kind.duplicatesAllowed ? { [ADOPT_UID_INPUT]: uid } : { [ADOPT_INPUT]: true };
}
