/**
 * One error type for everything the API answers with, decoded from the AIP-193 Status body,
 * and the two other ways a call can fail (settings, lost answers). The engine shows a
 * provider error as its message alone, so every message says what failed and what to do.
 */
import { lazily } from "./lazyZod";
import { safeMessage } from "./messages";
import { Code, STATUS_NAMES } from "./statusCodes";

export { Code };

/**
 * Only used when the body is not a Status (a proxy's page, an empty answer): the spec's mapping of
 * codes to HTTP statuses, read backwards.
 */
const CODE_OF_HTTP_STATUS: Record<number, number> = {
  400: Code.INVALID_ARGUMENT,
  401: Code.UNAUTHENTICATED,
  403: Code.PERMISSION_DENIED,
  404: Code.NOT_FOUND,
  409: Code.ALREADY_EXISTS,
  429: Code.RESOURCE_EXHAUSTED,
  500: Code.INTERNAL,
  501: 12,
  502: Code.UNAVAILABLE,
  503: Code.UNAVAILABLE,
  504: Code.DEADLINE_EXCEEDED,
};

export interface FieldViolation {
  field: string;
  description: string;
}
export interface PreconditionViolation {
  type: string;
  description: string;
}

// Loose on purpose: the service may add fields and detail types; only what we read is checked.
// Built on the first error answer decoded (core/common/lazyZod.ts).
const statusSchema = lazily((z) =>
  z.object({
    code: z.number().int(),
    message: z.string().optional(),
    details: z.array(z.looseObject({ "@type": z.string() })).optional(),
  }),
);
const errorInfoSchema = lazily((z) => z.looseObject({ reason: z.string().optional(), domain: z.string().optional() }));
const badRequestSchema = lazily((z) =>
  z.looseObject({
    fieldViolations: z.array(z.looseObject({ field: z.string(), description: z.string() })).optional(),
  }),
);
const resourceInfoSchema = lazily((z) =>
  z.looseObject({
    resourceType: z.string().optional(),
    resourceName: z.string().optional(),
  }),
);
const preconditionSchema = lazily((z) =>
  z.looseObject({
    violations: z.array(z.looseObject({ type: z.string(), description: z.string() })).optional(),
  }),
);

export interface ApiErrorInit {
  code: number;
  httpStatus: number;
  method: string;
  path: string;
  serviceMessage: string;
  reason?: string;
  fieldViolations?: FieldViolation[];
  preconditionViolations?: PreconditionViolation[];
  /** The record a ResourceInfo detail names (a NOT_FOUND's missing record). */
  resourceName?: string;
  /** The full URL requested, for messages that must say where the request went. */
  url?: string;
  /** The uid the request named (for a POST, the parent); see `recordGone`. */
  askedUid?: string;
  /** The collection the request named, to recognise `groups/<uid>`-style resource names. */
  collection?: string;
}

export class ApiError extends Error {
  readonly code: number;
  readonly status: string;
  readonly reason?: string;
  readonly httpStatus: number;
  readonly fieldViolations: FieldViolation[];
  readonly preconditionViolations: PreconditionViolation[];
  readonly method: string;
  readonly path: string;
  /** The service's own text, without our additions. */
  readonly serviceMessage: string;
  readonly resourceName?: string;
  readonly url?: string;
  readonly askedUid?: string;
  /**
   * The answer proves the record asked for is gone: NOT_FOUND as an AIP-193 Status whose
   * ResourceInfo names that very record. A 404 from anything else (a wrong apiUrl prefix, a
   * proxy's page, a Status naming another record) proves nothing, and treating it as "gone"
   * would make refresh drop and destroy forget records that still exist.
   */
  readonly recordGone: boolean;

  constructor(given: ApiErrorInit) {
    const init = bounded(given);
    const status = STATUS_NAMES[init.code] ?? `CODE_${init.code}`;
    const recordGone = init.code === Code.NOT_FOUND && namesRecord(init.resourceName, init.askedUid, init.collection);
    super(safeMessage(describe(status, init, recordGone)));
    this.name = "ApiError";
    this.code = init.code;
    this.status = status;
    this.reason = init.reason;
    this.httpStatus = init.httpStatus;
    this.fieldViolations = init.fieldViolations ?? [];
    this.preconditionViolations = init.preconditionViolations ?? [];
    this.method = init.method;
    this.path = init.path;
    this.serviceMessage = init.serviceMessage;
    this.resourceName = init.resourceName;
    this.url = init.url;
    this.askedUid = init.askedUid;
    this.recordGone = recordGone;
  }
}

/**
 * A ResourceInfo name names the uid asked for: the uid itself or `<collection>/<uid>`. Nothing
 * looser: a server that answers every unknown path with its path as the name (the path ends in
 * the uid) must not pass for the service saying the record is missing.
 */
function namesRecord(
  resourceName: string | undefined,
  uid: string | undefined,
  collection: string | undefined,
): boolean {
  if (!resourceName || !uid) return false;
  return resourceName === uid || (collection !== undefined && resourceName === `${collection}/${uid}`);
}

/** The service's own text kept at most: enough for any real message, never a 100 KB page. */
export const MAX_SERVICE_MESSAGE_CHARS = 1_000;
/** Field and precondition violations kept at most, and the length of each of their texts. */
export const MAX_VIOLATIONS = 20;
const MAX_VIOLATION_TEXT_CHARS = 300;

/**
 * What an error keeps of an answer: bounded in size (a hostile or broken server can answer
 * anything) and with every registered secret redacted, since a server may echo the token.
 */
function bounded(init: ApiErrorInit): ApiErrorInit {
  const text = (value: string) => safeMessage(value, MAX_VIOLATION_TEXT_CHARS);
  const cap = <T>(list: T[] | undefined, map: (item: T) => T, more: (n: number) => T): T[] | undefined => {
    if (!list) return undefined;
    const kept = list.slice(0, MAX_VIOLATIONS).map(map);
    if (list.length > MAX_VIOLATIONS) kept.push(more(list.length - MAX_VIOLATIONS));
    return kept;
  };
  const left = (n: number) => `${n} more left out`;
  return {
    ...init,
    serviceMessage: safeMessage(init.serviceMessage, MAX_SERVICE_MESSAGE_CHARS),
    reason: init.reason === undefined ? undefined : text(init.reason),
    // Longer than any well-formed uid, so a real name is never cut.
    resourceName:
      init.resourceName === undefined ? undefined : safeMessage(init.resourceName, 2 * MAX_SERVICE_MESSAGE_CHARS),
    fieldViolations: cap(
      init.fieldViolations,
      (v) => ({ field: text(v.field), description: text(v.description) }),
      (n) => ({ field: "…", description: left(n) }),
    ),
    preconditionViolations: cap(
      init.preconditionViolations,
      (v) => ({ type: text(v.type), description: text(v.description) }),
      (n) => ({ type: "…", description: left(n) }),
    ),
  };
}

/** What to do about each kind of failure, where the service's text alone does not say. */
const HINTS: Partial<Record<string, string>> = {
  UNAUTHENTICATED: "check platform:token (PLATFORM_TOKEN), or platform:identity and platform:identityTokenFile",
  PERMISSION_DENIED: "the caller's identity needs a role binding that grants this on the group or one of its ancestors",
  RESOURCE_EXHAUSTED: "the service is rate limiting; run again later, or lower platform:maxConcurrency",
  UNAVAILABLE: "the service stayed unavailable through every retry; run again later",
};

function describe(status: string, init: ApiErrorInit, recordGone: boolean): string {
  const where = `${init.method} ${init.path}`;
  let detail: string;
  if (init.fieldViolations?.length) {
    detail = init.fieldViolations.map((v) => `${v.field}: ${v.description}`).join("; ");
  } else if (init.preconditionViolations?.length) {
    detail = init.preconditionViolations.map((v) => `${v.type}: ${v.description}`).join("; ");
  } else {
    detail = init.serviceMessage || `HTTP ${init.httpStatus}`;
  }
  let hint = HINTS[status];
  if (status === "NOT_FOUND" && !recordGone) {
    const asked = init.askedUid ? `that "${init.askedUid}" is missing` : "what is missing";
    hint =
      `the answer does not say ${asked} (no ResourceInfo naming it), so nothing is taken as deleted: ` +
      `check that platform:apiUrl (PLATFORM_API_URL) is the API's base URL; the request went to ${init.url ?? init.path}`;
  }
  return `${status}: ${detail} (${where})${hint ? `; ${hint}` : ""}`;
}

/** Decodes an error answer; the body's code and details win over the HTTP status, as the spec says. */
export function decodeErrorAnswer(answer: {
  httpStatus: number;
  contentType: string;
  text: string;
  method: string;
  path: string;
  url?: string;
  askedUid?: string;
  collection?: string;
}): ApiError {
  const base = {
    httpStatus: answer.httpStatus,
    method: answer.method,
    path: answer.path,
    url: answer.url,
    askedUid: answer.askedUid,
    collection: answer.collection,
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    parsed = undefined;
  }
  const status = statusSchema().safeParse(parsed);
  if (!status.success) {
    const kind = answer.contentType.split(";")[0].trim() || "no content type";
    return new ApiError({
      ...base,
      code: CODE_OF_HTTP_STATUS[answer.httpStatus] ?? 2,
      serviceMessage: `HTTP ${answer.httpStatus} with a body that is not an API Status (${kind}): is platform:apiUrl the API's base URL, and is a proxy in the way?`,
    });
  }
  const init: ApiErrorInit = { ...base, code: status.data.code, serviceMessage: status.data.message ?? "" };
  for (const detail of status.data.details ?? []) {
    const type = detail["@type"];
    if (type.endsWith("google.rpc.ErrorInfo")) {
      init.reason = errorInfoSchema().safeParse(detail).data?.reason;
    } else if (type.endsWith("google.rpc.BadRequest")) {
      const violations = badRequestSchema().safeParse(detail).data?.fieldViolations ?? [];
      init.fieldViolations = violations.map(({ field, description }) => ({ field, description }));
    } else if (type.endsWith("google.rpc.ResourceInfo")) {
      init.resourceName = resourceInfoSchema().safeParse(detail).data?.resourceName;
    } else if (type.endsWith("google.rpc.PreconditionFailure")) {
      const violations = preconditionSchema().safeParse(detail).data?.violations ?? [];
      init.preconditionViolations = violations.map(({ type: t, description }) => ({ type: t, description }));
    }
  }
  return new ApiError(init);
}

/**
 * A write was sent and its answer was lost (connection dropped, timeout): it may or may not
 * have been applied. Callers that create must look for the record before trying again.
 */
export class UnknownOutcomeError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly causeCode: string,
  ) {
    super(`${method} ${path}: the answer was lost (${causeCode}); the request may or may not have been applied`);
    this.name = "UnknownOutcomeError";
  }
}

/** A repeatable request kept losing its answer (reset, stalled) through every send the policy allows. */
export class ConnectionLostError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly causeCode: string,
    readonly detail: string,
    readonly sends: number,
  ) {
    super(
      `${method} ${path}: the answer was lost (${detail === causeCode ? causeCode : `${detail}, ${causeCode}`}) ` +
        `${sends === 1 ? "on the only send" : `on each of ${sends} sends`}; check the network between here and platform:apiUrl, then run again`,
    );
    this.name = "ConnectionLostError";
  }
}

/** Nothing reached the service: wrong URL, DNS, refused connection. */
export class UnreachableError extends Error {
  constructor(
    readonly url: string,
    readonly causeCode: string,
  ) {
    super(
      `cannot reach ${url} (${causeCode}): check platform:apiUrl / PLATFORM_API_URL (and platform:authUrl) and the network`,
    );
    this.name = "UnreachableError";
  }
}

/** A setting is missing or malformed; the message names the config key and the environment variable. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/**
 * The one test the lifecycle uses for "this record is gone" (read drops it, delete succeeds):
 * only a NOT_FOUND whose ResourceInfo names the record asked for. Any other 404 is an error.
 */
export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.recordGone;
export const isAlreadyExists = (error: unknown): boolean => isApiError(error, Code.ALREADY_EXISTS);
