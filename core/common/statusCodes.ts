/**
 * The API's status codes (gRPC's numbering, as AIP-193 bodies carry them) and the HTTP status the
 * spec gives each. The client's own table: the emulator keeps its own, so a test can catch a wrong
 * mapping on either side.
 */
export const STATUS_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

export type StatusName = (typeof STATUS_NAMES)[number];

export const Code = Object.fromEntries(STATUS_NAMES.map((name, code) => [name, code])) as {
  readonly [N in StatusName]: number;
};

/** HTTP status of an error answer, by code. */
export const HTTP_STATUS_OF_CODE: Readonly<Record<number, number>> = {
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};
