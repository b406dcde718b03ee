/**
 * The lifecycle every kind shares: defineProvider turns a kind's description into the object
 * the dynamic-provider host calls (configure, check, diff, create, read, update, delete), with
 * one request per create, read, update and delete (plus one per companion document the program
 * sets, where it is written or read), and none for check and diff.
 *
 * Each operation that calls the API runs as one call with one overall deadline across its
 * retries (provider/deadline.ts); every error is a ResourceError (provider/resourceError.ts).
 */
import type { dynamic } from "@pulumi/pulumi";
import type * as CheckModule from "./check";
import { ApiClient, sharedClient } from "./client";
import { ApiError, Code, UnknownOutcomeError, isAlreadyExists, isApiError, isNotFound } from "./errors";
import { callBudgetMs, withCallDeadline } from "./deadline";
import { findByNaturalKey, findCreated } from "./adoption";
import { versionRefusal } from "./apiVersions";
import {
  changedFields,
  inputsOf,
  maskPaths,
  replacedFields,
  updateBody,
  updateMask,
  wireBody,
  wirePaths,
} from "./changes";
import { ApiRecord, Companion, Kind, ResourceKind, completeKind } from "./kind";
import { registerSecret } from "./messages";
import { PartlyWrittenError, ResourceError, failed, messageOf } from "./resourceError";
import { mayResendCreate } from "./retryPolicy";
import { configureFromPulumi, raw as settingOf } from "./settings";
import { quoteUid, uidIssue } from "./uid";
import {
  Props,
  UNKNOWN,
  containsUnknown,
  isObject,
  pick,
  sameValue,
  shown,
  stripUndefined,
  valueAt,
  withValuesAt,
  withoutUndefined,
  withoutValuesAt,
} from "./values";

/** The operations of dynamic.ResourceProvider a kind's provider implements: all of them. */
export type Lifecycle = Required<
  Pick<dynamic.ResourceProvider, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/** A kind's provider: the lifecycle, and the description it was made from (for look-ups and adoption). */
export type Provider = Lifecycle & { readonly kind: Kind };

/** The validation library loads on the first check, not when a kind is described. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
const loadCheck = () => require("./check") as typeof CheckModule;

/** What a create's POST came to: the record made, or the existing one to take over. */
interface Created {
  record: unknown;
  adopted: boolean;
}

/** The output that says a record was taken over rather than created; kept for the resource's life. */
const ADOPTED = { adopted: true } as const;
const adoptedIn = (props: Props | undefined) => (props?.adopted === true ? ADOPTED : {});

/**
 * Whether a create may take over an existing record: the resource's `adopt` input wins, then
 * the stack-wide platform:adopt (PLATFORM_ADOPT); off by default.
 */
function adoptionWanted(inputs: Props): boolean {
  if (typeof inputs.adopt === "boolean") return inputs.adopt;
  const setting = settingOf("adopt");
  if (!setting) return false;
  const value = setting.value.trim().toLowerCase();
  if (value === "true" || value === "false") return value === "true";
  throw new ResourceError(
    `${setting.from} must be true or false (it is ${JSON.stringify(setting.value.slice(0, 20))})`,
  );
}

export function defineProvider(description: ResourceKind, client: () => ApiClient = sharedClient): Provider {
  const kind = completeKind(description);
  const itemPath = (uid: string) => `${kind.collection}/${uid}`;
  // What the service never answers again, from the state: `adopted`, and the outputs it gives
  // only at create (an invite's code).
  const onlyAtCreate = kind.onlyAtCreate ?? [];
  const kept = (props: Props = {}): Props => ({
    ...stripUndefined(pick(props, onlyAtCreate)),
    ...adoptedIn(props),
  });
  // Whether `kept` has anything to add: on most reads (a kind answering everything, a record
  // created rather than adopted) it has not, and a refresh of N resources skips N copies.
  const keepsAny = (props: Props) => onlyAtCreate.length > 0 || props.adopted === true;
  // What read carries over from the state into the outputs (see read).
  const carriedByRead = [kind.parentField, ...kind.localInputs];
  // A parent the record does not tell (a role's uid is one segment) comes from the inputs or the state.
  const parentOf = (props: Props = {}) => pick(props, [kind.parentField]);
  // What the service never answers back (a client secret) comes from the inputs or the state.
  const keepWriteOnly = (outs: Props, from: Props = {}) => withValuesAt(outs, from, kind.writeOnly);

  /** Every secret value a call carries is one no message may show (provider/messages.ts). */
  const registerSecrets = (...all: Array<Props | undefined>) => {
    for (const props of all)
      for (const path of kind.secrets ?? []) {
        const value = props && valueAt(props, path);
        // The sentinel of a value not known yet (preview) is no secret: redacting it would mangle messages.
        if (typeof value === "string" && value !== UNKNOWN) registerSecret(value);
      }
  };

  const companionPath = (id: string, companion: Companion) => `${itemPath(id)}/${companion.suffix}`;
  const companionValue = (answer: unknown, companion: Companion) =>
    isObject(answer) && answer[companion.field] !== undefined ? answer[companion.field] : "";

  /** The companion documents the state holds, read with the record: one GET each (none when it holds none). */
  async function readCompanions(id: string, props: Props, outs: Props): Promise<Props> {
    if (!kind.companions.some((companion) => props[companion.input] !== undefined)) return outs;
    const out = { ...outs };
    for (const companion of kind.companions) {
      if (props[companion.input] === undefined) continue;
      try {
        const answer = await client().request({
          method: "GET",
          domain: kind.domain,
          path: companionPath(id, companion),
        });
        out[companion.input] = companionValue(answer, companion);
      } catch (error) {
        throw failed(`reading the ${companion.input} of`, kind.label({ ...props, uid: id }), error);
      }
    }
    return out;
  }

  /**
   * Writes each companion document the program sets whose value the state does not hold (all of
   * them after a create or an adoption: nothing is known of them yet); one the program leaves
   * out is no longer managed (the service keeps it). `outs` with what the service answered.
   */
  async function writeCompanions(id: string, olds: Props, news: Props, outs: Props, what: string): Promise<Props> {
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
          path: companionPath(id, companion),
          body: { [companion.field]: wanted },
        });
        out[companion.input] = companionValue(answer, companion);
      } catch (error) {
        // The record itself is written: the state keeps it with the document's old value, so the
        // next `pulumi up` writes the document again.
        const properties = stripUndefined({
          ...out,
          [companion.input]: olds[companion.input],
          __provider: news.__provider,
        });
        throw new PartlyWrittenError(
          `writing the ${companion.input} of ${what} (${id}) failed: ${messageOf(error)}. The ${kind.noun} itself ` +
            `is written and kept in the state; run \`pulumi up\` again to write its ${companion.input}`,
          id,
          properties,
          error,
        );
      }
    }
    return out;
  }

  /** A record as a message may show it: its secret fields (and members) left out. */
  const withoutSecrets = (record: unknown): unknown =>
    isObject(record) && kind.secrets?.length ? withoutValuesAt(record, kind.secrets) : record;

  // Runs for every record read or written (a refresh of N resources, N times): a plain uid check
  // instead of a schema.
  const outputsOf = (record: unknown, inputs: Props = {}): Props => {
    const answered: Props = record !== null && typeof record === "object" ? (record as Props) : {};
    const uid = answered.uid;
    // A secret output (an invite's code) is redacted from every message from here on.
    registerSecrets(answered);
    if (typeof uid !== "string" || uid === "")
      throw new ResourceError(
        `the API answered a ${kind.noun} without a uid: ${JSON.stringify(withoutSecrets(record))?.slice(0, 200)}`,
      );
    // An answered uid becomes the resource id and, later, part of request paths: same grammar as inputs.
    const issue = uidIssue(uid, "path");
    if (issue)
      throw new ResourceError(
        `the API answered a ${kind.noun} whose uid ${quoteUid(uid)} is not well formed (it ${issue}); ` +
          "it was not recorded; check that platform:apiUrl points at the Platform API",
      );
    // The server's values win; inputs fill in only what it leaves out, after the record's own
    // fields (every read answers the same key order, so the host converts objects of one shape).
    // A fresh object; the record's own members are shared, not copied (nothing changes them).
    const outputs: Props = { ...kind.toOutputs(record as ApiRecord) };
    for (const field of kind.declared)
      if (!Object.hasOwn(outputs, field) && inputs[field] !== undefined) outputs[field] = inputs[field];
    return withoutUndefined(outputs);
  };

  /** The same List filters and the same key fields: the two would be one record to the service. */
  const sameNaturalKey = (olds: Props, news: Props) =>
    sameValue(kind.naturalKey(olds), kind.naturalKey(news)) &&
    kind.keyFields.every((field) => !containsUnknown(news[field]) && sameValue(olds[field], news[field]));

  const said = (error: unknown) =>
    error instanceof ApiError ? error.serviceMessage || error.message : messageOf(error);

  function alreadyExists(what: string, error: unknown): ResourceError {
    return new ResourceError(
      `creating ${what} failed: it already exists (${said(error)}). This program does not take over existing records silently: ` +
        `${kind.alreadyExistsHint}; or take it over: set \`adopt: true\` on this resource, or \`pulumi config set platform:adopt true\` for the whole stack`,
      { cause: error },
    );
  }

  /** Why adoption by key stops when several records hold it, and how to name the one meant. */
  const severalToAdopt = (found: ApiRecord[]) =>
    `adopting it found ${found.length} ${kind.collection} with the same ${[kind.parentField, ...kind.keyFields].join(", ")} ` +
    `(${found.map((r) => r.uid).join(", ")}); take over the one meant by its uid: set \`adoptUid\` on this resource`;

  /** The one existing record these inputs name, to take over after ALREADY_EXISTS. */
  async function existingRecord(inputs: Props, what: string, error: unknown): Promise<ApiRecord> {
    const found = await findByNaturalKey(client(), kind, (record) => outputsOf(record, parentOf(inputs)), inputs);
    if (found.length === 1) return found[0];
    const key = [kind.parentField, ...kind.keyFields].join(", ");
    throw new ResourceError(
      found.length === 0
        ? `creating ${what} failed: it already exists (${said(error)}) but no ${kind.noun} with the same ${key} could be listed to adopt; check that the caller may list ${kind.collection} there`
        : `creating ${what} failed: ${severalToAdopt(found)}`,
      { cause: error },
    );
  }

  /**
   * The record `adoptUid` names, to take over: read by its uid, and refused unless it sits under
   * the declared parent. A record whose uid does not tell its parent (a role's) is looked for
   * among the parent's records by its own key.
   */
  async function namedRecord(inputs: Props, uid: string, what: string): Promise<ApiRecord> {
    const refused = (why: string, cause?: unknown) =>
      new ResourceError(`adopting ${what} (adoptUid ${quoteUid(uid)}) failed: ${why}`, { cause });
    let record: unknown;
    try {
      record = await client().request({ method: "GET", domain: kind.domain, path: itemPath(uid) });
    } catch (error) {
      if (isNotFound(error))
        throw refused(
          `no such ${kind.noun} exists (${said(error)}); check the uid, or remove adoptUid to create the ${kind.noun}`,
          error,
        );
      throw refused(messageOf(error), error);
    }
    const current = outputsOf(record);
    if (current.uid !== uid) throw refused(`the API answered ${kind.noun} ${quoteUid(String(current.uid))} instead`);
    const parent = inputs[kind.parentField];
    const placed = current[kind.parentField];
    if (placed === undefined) {
      const siblings = await findByNaturalKey(client(), kind, (item) => outputsOf(item, parentOf(inputs)), {
        ...current,
        [kind.parentField]: parent,
      });
      if (!siblings.some((item) => item.uid === uid))
        throw refused(`it is not one of the ${kind.collection} of ${kind.parentField} "${shown(parent)}"`);
    } else if (!sameValue(placed, parent)) {
      throw refused(
        `it sits under "${shown(placed)}", not under the declared ${kind.parentField} "${shown(parent)}"; ` +
          `declare its own ${kind.parentField}, or check the uid`,
      );
    }
    return record as ApiRecord;
  }

  /** What to do about ALREADY_EXISTS: adopt when asked to, refuse with a message saying how otherwise. */
  async function onAlreadyExists(inputs: Props, what: string, error: unknown): Promise<Created> {
    if (!adoptionWanted(inputs)) throw alreadyExists(what, error);
    return { record: await existingRecord(inputs, what, error), adopted: true };
  }

  async function discard(record: ApiRecord, what: string): Promise<void> {
    try {
      await client().request({ method: "DELETE", domain: kind.domain, path: itemPath(record.uid) });
    } catch (error) {
      if (!isNotFound(error))
        throw new ResourceError(
          `creating ${what}: the answer to the create was lost and ${kind.noun} ${record.uid} it made could not be ` +
            `deleted to create it again (${messageOf(error)}); delete it by hand, then run the update again`,
          { cause: error },
        );
    }
  }

  /** One PATCH of the `changed` writable fields: every declared field in the body, the changed ones in the mask. */
  async function patch(id: string, olds: Props, news: Props, changed: string[], what: string): Promise<unknown> {
    try {
      return await client().request({
        method: "PATCH",
        domain: kind.domain,
        path: itemPath(id),
        query: { updateMask: updateMask(wirePaths(kind, maskPaths(olds, news, changed, kind.nested))) },
        body: updateBody(kind, news),
      });
    } catch (error) {
      const hint = isNotFound(error)
        ? `It no longer exists: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` creates it again`
        : undefined;
      throw failed("updating", what, error, hint);
    }
  }

  async function post(inputs: Props, what: string): Promise<Created> {
    // A service that never refuses a duplicate never says ALREADY_EXISTS: look first.
    if (kind.duplicatesAllowed && adoptionWanted(inputs)) {
      const found = await findByNaturalKey(client(), kind, (record) => outputsOf(record, parentOf(inputs)), inputs);
      if (found.length === 1) return { record: found[0], adopted: true };
      if (found.length > 1) throw new ResourceError(`creating ${what} failed: ${severalToAdopt(found)}`);
    }
    const request = {
      method: "POST" as const,
      domain: kind.domain,
      path: itemPath(String(inputs[kind.parentField])),
      body: wireBody(kind, inputs),
    };
    const sentAt = Date.now();
    let answerLost = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return { record: await client().request(request), adopted: false };
      } catch (error) {
        const lost = error instanceof UnknownOutcomeError;
        // After a lost answer, ALREADY_EXISTS may be our own first request: look before refusing.
        if (!lost && !(answerLost && isAlreadyExists(error))) {
          if (isAlreadyExists(error)) return onAlreadyExists(inputs, what, error);
          throw failed("creating", what, error);
        }
        answerLost = true;
        let found: ApiRecord | undefined;
        try {
          found = await findCreated(client(), kind, (record) => outputsOf(record, parentOf(inputs)), inputs, sentAt);
        } catch (searchError) {
          throw new ResourceError(
            `creating ${what}: the answer to the create was lost and looking for the record failed (${messageOf(searchError)}). ` +
              `Check whether it exists: if so, delete it or use ${kind.typeName}.get, then run the update again`,
            { cause: searchError },
          );
        }
        if (found && !kind.onlyAtCreate?.length) return { record: found, adopted: false };
        // What the service answers only at create (an invite's code) cannot be read back: the
        // record the lost create made is deleted and the create sent again.
        if (found) await discard(found, what);
        if (isAlreadyExists(error)) return onAlreadyExists(inputs, what, error);
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

  const operations: Lifecycle = {
    async configure(req) {
      try {
        configureFromPulumi(req.config);
      } catch {
        // Configure was never sent: settings come from the environment.
      }
    },

    async check(_olds, news: Props) {
      registerSecrets(news);
      refuseUnservedVersion(kind);
      return loadCheck().checkInputs(kind, news);
    },

    async diff(id, olds: Props, news: Props) {
      registerSecrets(olds, news);
      const changed = changedFields(olds ?? {}, news ?? {}, kind.declared, kind.unordered);
      const replaces = replacedFields(kind, olds ?? {}, news ?? {}, changed);
      // A replacement deletes the old record: a kind that refuses that delete refuses it here,
      // before the new one is created (the old one's delete would fail after).
      const refusal = replaces.length > 0 ? kind.refuseDelete?.(olds ?? {}) : undefined;
      if (refusal)
        throw new ResourceError(
          `replacing ${kind.label({ ...olds, uid: id })} (${replaces.join(", ")} changed) refused: ${refusal}`,
        );
      return {
        changes: changed.length > 0,
        replaces,
        // A replacement under the same natural key (a tag's new digest under its old name) would
        // collide with the record it replaces, so that one goes first; under another key (a new
        // subscription sink) the new record is created first.
        deleteBeforeReplace: replaces.length > 0 && sameNaturalKey(olds ?? {}, news ?? {}),
      };
    },

    async create(inputs: Props) {
      registerSecrets(inputs);
      const what = kind.label(inputs);
      // Exactly the record the program names, or a POST (and, where asked, the one holding the key).
      const created: Created =
        typeof inputs.adoptUid === "string"
          ? { record: await namedRecord(inputs, inputs.adoptUid, what), adopted: true }
          : await post(inputs, what);
      if (!created.adopted) {
        const outs = keepWriteOnly(outputsOf(created.record, inputs), inputs);
        const id = String(outs.uid);
        return { id, outs: await writeCompanions(id, {}, inputs, outs, what) };
      }
      // Taken over: brought to the declared values with one PATCH of the fields that differ. What
      // the service never answers (write-only members) cannot be compared, so it differs and is
      // written; companion documents are written too.
      const current = outputsOf(created.record, parentOf(inputs));
      const changed = changedFields(current, inputs, kind.writable, kind.unordered);
      const fixed = changed.filter((field) => kind.replaceOn.includes(field));
      if (fixed.length)
        throw new ResourceError(
          `adopting ${what} (${String(current.uid)}) failed: it differs in ${fixed.join(", ")}, which cannot change ` +
            `in place; declare its current values, or delete it and let the program create it`,
        );
      const record = changed.length ? await patch(String(current.uid), current, inputs, changed, what) : created.record;
      const outs: Props = { ...keepWriteOnly(outputsOf(record, inputs), inputs), ...ADOPTED };
      const id = String(outs.uid);
      return { id, outs: await writeCompanions(id, {}, inputs, outs, what) };
    },

    async read(id, props: Props = {}) {
      registerSecrets(props);
      let record: unknown;
      try {
        record = await client().request({ method: "GET", domain: kind.domain, path: itemPath(id) });
      } catch (error) {
        // Gone: an empty id tells the engine to drop it from the state.
        if (isNotFound(error)) return { id: "", props: {} };
        throw failed("reading", kind.label({ ...props, uid: id }), error);
      }
      // A parent the record does not tell (a role's uid is one segment), the local inputs and the
      // write-only members carry over from the state.
      const outputs = keepWriteOnly(outputsOf(record, pick(props, carriedByRead)), props);
      const answered: Props = keepsAny(props) ? { ...outputs, ...kept(props) } : outputs;
      const outs = await readCompanions(id, props, answered);
      return { id: String(outs.uid), props: outs, inputs: inputsOf(kind, outs) };
    },

    async update(id, olds: Props, news: Props) {
      registerSecrets(olds, news);
      const changed = changedFields(olds, news, kind.writable, kind.unordered);
      if (changed.length === 0) {
        // Local inputs are the program's alone: one it no longer sets is gone from the state too.
        const state = { ...olds };
        for (const field of kind.localInputs) delete state[field];
        const { __provider: _p, ...outs } = { ...state, ...pick(news, kind.declared) };
        return { outs: await writeCompanions(id, olds, news, stripUndefined(outs), kind.label({ ...news, uid: id })) };
      }
      const what = kind.label({ ...news, uid: id });
      const record = await patch(id, olds, news, changed, what);
      const outs = { ...keepWriteOnly(outputsOf(record, news), news), ...kept(olds) };
      return { outs: await writeCompanions(id, olds, news, outs, what) };
    },

    async delete(id, props: Props) {
      registerSecrets(props);
      const refusal = kind.refuseDelete?.(props ?? {});
      if (refusal) throw new ResourceError(`deleting ${kind.label({ ...props, uid: id })} refused: ${refusal}`);
      try {
        await client().request({ method: "DELETE", domain: kind.domain, path: itemPath(id) });
      } catch (error) {
        if (isNotFound(error)) return;
        const what = kind.label({ ...props, uid: id });
        if (isApiError(error, Code.FAILED_PRECONDITION) && kind.explainDeleteRefusal) {
          throw new ResourceError(`deleting ${what} failed: ${kind.explainDeleteRefusal(error)}`, { cause: error });
        }
        throw failed("deleting", what, error);
      }
    },
  };
  return { ...withCallDeadlines(kind, operations), kind };
}

/** Each operation that calls the API is one call with one overall deadline across its retries. */
function withCallDeadlines(kind: Kind, ops: Lifecycle): Lifecycle {
  // Not async (one promise fewer per call); a refusal still arrives as a rejection.
  const scoped = <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      refuseUnservedVersion(kind);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
      return Promise.reject(error);
    }
    return withCallDeadline(what, callBudgetMs(), fn);
  };
  return {
    ...ops,
    create: (inputs: Props) => scoped(`creating ${kind.label(inputs)}`, () => ops.create(inputs)),
    read: (id, props?: Props) => scoped(`reading ${kind.label({ ...props, uid: id })}`, () => ops.read(id, props)),
    update: (id, olds, news: Props) =>
      scoped(`updating ${kind.label({ ...news, uid: id })}`, () => ops.update(id, olds, news)),
    delete: (id, props: Props) => scoped(`deleting ${kind.label({ ...props, uid: id })}`, () => ops.delete(id, props)),
  };
}

/** A kind the configured API version does not serve fails before any request, naming the setting. */
function refuseUnservedVersion(kind: Kind): void {
  // Most kinds are served by every version: nothing to resolve or word on each call.
  if (!kind.apiVersions) return;
  const refusal = versionRefusal(`${kind.domain}.${kind.typeName} resources`, kind.apiVersions);
  if (refusal) throw new ResourceError(refusal);
}
