/**
 * How one kind's records become a resource's outputs, worked out once per kind: the service's
 * values win, the program's inputs fill in only what it leaves out, and what it never answers
 * again (write-only members, outputs given only at create, `adopted`) comes from the inputs or
 * the state. Runs for every record read or written (a refresh of N resources, N times).
 */
import type { ApiRecord, Kind } from "../model/kind";
import type { SecretRegistrar } from "../model/kindSecrets";
import { safeMessage } from "../common/messages";
import { ResourceError } from "./resourceError";
import { quoteUid, uidIssue } from "../common/uid";
import {
  Props,
  isObject,
  parentOfUid,
  pick,
  stripUndefined,
  withValuesAt,
  withoutUndefined,
  withoutValuesAt,
} from "../common/values";

/** The output that says a record was taken over rather than created; kept for the resource's life. */
export const ADOPTED = { adopted: true } as const;

export interface RecordOutputs {
  /** The outputs of a record the service answered, the inputs filling in what it leaves out. */
  outputsOf(record: unknown, inputs?: Props): Props;
  /** `outs` with the write-only members (a client secret) taken from the inputs or the state. */
  keepWriteOnly(outs: Props, from?: Props): Props;
  /** What the service never answers again, from the state: `adopted`, outputs answered only at create. */
  keptFromState(props?: Props): Props;
  /** Whether keptFromState has anything to add (most reads: nothing, and a refresh skips N copies). */
  keepsAny(props: Props): boolean;
  /** The parent field of `props`: a record whose uid does not tell it (a role's) takes it from there. */
  parentOf(props?: Props): Props;
  /** The uid naming the record in request paths, from the resource's id and its state. */
  recordUid(id: string, props?: Props): string;
}

export function recordOutputs(kind: Kind, registerSecrets: SecretRegistrar): RecordOutputs {
  const onlyAtCreate = kind.onlyAtCreate ?? [];
  const keptFromState = (props: Props = {}): Props => ({
    ...stripUndefined(pick(props, onlyAtCreate)),
    ...(props.adopted === true ? ADOPTED : {}),
  });

  /** A record as a message may show it: its secret fields (and members) left out. */
  const withoutSecrets = (record: unknown): unknown =>
    isObject(record) && kind.secrets?.length ? withoutValuesAt(record, kind.secrets) : record;

  // A plain uid check instead of a schema: this runs for every record.
  const outputsOf = (record: unknown, inputs: Props = {}): Props => {
    const answered: Props = record !== null && typeof record === "object" ? (record as Props) : {};
    const uid = answered.uid;
    // A secret output (an invite's code) is redacted from every message from here on.
    registerSecrets(answered);
    // Redacted before it is cut: half a secret would no longer be recognised.
    if (typeof uid !== "string" || uid === "")
      throw new ResourceError(
        `the API answered a ${kind.noun} without a uid: ${safeMessage(JSON.stringify(withoutSecrets(record)) ?? "", 200)}`,
      );
    // An answered uid becomes the resource id and, later, part of request paths: same grammar as inputs.
    const issue = uidIssue(uid, "path");
    if (issue)
      throw new ResourceError(
        `the API answered a ${kind.noun} whose uid ${quoteUid(uid)} is not well formed (it ${issue}); ` +
          "it was not recorded; check that platform:apiUrl points at the Platform API",
      );
    // Inputs fill in only after the record's own fields (every read answers the same key order,
    // so the host converts objects of one shape). A fresh object; the record's own members are
    // shared, not copied (nothing changes them).
    const outputs: Props = { ...kind.toOutputs(record as ApiRecord) };
    for (const field of kind.declared)
      if (!Object.hasOwn(outputs, field) && inputs[field] !== undefined) outputs[field] = inputs[field];
    return withoutUndefined(outputs);
  };

  /**
   * A record keyed by its parent is named by the parent's uid from the state. Earlier versions
   * stored a uid of its own below the parent as such a record's id; it still names the record,
   * and a refresh replaces it with the parent's.
   */
  const recordUid = (id: string, props: Props = {}): string => {
    const parent = props[kind.parentField];
    if (!kind.keyedByParent || typeof parent !== "string" || parent === id) return id;
    if (parentOfUid(id) === parent) return parent;
    throw new ResourceError(
      `${kind.label({ ...props, uid: id })}: its id is not its ${kind.parentField} ${quoteUid(parent)}, which is how ` +
        `the API names a ${kind.noun}; remove it from the state (\`pulumi state delete <urn>\`) and take the record ` +
        "over again with `adopt: true`",
    );
  };

  return {
    outputsOf,
    keepWriteOnly: (outs, from = {}) => withValuesAt(outs, from, kind.writeOnly),
    keptFromState,
    keepsAny: (props) => onlyAtCreate.length > 0 || props.adopted === true,
    parentOf: (props = {}) => pick(props, [kind.parentField]),
    recordUid,
  };
}
