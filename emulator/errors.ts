/**
 * AIP-193 Status errors. Every failure the emulator answers is an ApiError, so the
 * HTTP layer has one way to turn it into a body and never leaks a stack trace.
 */

export const ERROR_DOMAIN = "iam.platform.emulator";

/** gRPC status codes the emulator answers with (AIP-193 bodies carry the number). */
export const CODES = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type CodeName = keyof typeof CODES;

/**
 * The HTTP status of each error code: the usual gRPC-to-HTTP mapping the service's gateway
 * uses. The emulator keeps its own table (the client keeps another) so that a test can catch
 * a wrong entry on either side.
 */
export const HTTP_STATUS: Readonly<Record<number, number>> = {
  [CODES.INVALID_ARGUMENT]: 400,
  [CODES.FAILED_PRECONDITION]: 400,
  [CODES.OUT_OF_RANGE]: 400,
  [CODES.NOT_FOUND]: 404,
  [CODES.ALREADY_EXISTS]: 409,
  [CODES.ABORTED]: 409,
  [CODES.PERMISSION_DENIED]: 403,
  [CODES.UNAUTHENTICATED]: 401,
  [CODES.RESOURCE_EXHAUSTED]: 429,
  [CODES.CANCELLED]: 499,
  [CODES.UNIMPLEMENTED]: 501,
  [CODES.INTERNAL]: 500,
  [CODES.UNKNOWN]: 500,
  [CODES.DATA_LOSS]: 500,
  [CODES.UNAVAILABLE]: 503,
  [CODES.DEADLINE_EXCEEDED]: 504,
};

export interface FieldViolation {
  field: string;
  description: string;
}

export interface StatusBody {
  code: number;
  message: string;
  details: Array<Record<string, unknown>>;
}

export class ApiError extends Error {
  readonly code: number;
  readonly details: Array<Record<string, unknown>>;
  readonly headers: Record<string, string>;

  constructor(
    codeName: CodeName,
    message: string,
    extraDetails: Array<Record<string, unknown>> = [],
    reason: string = codeName,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = CODES[codeName];
    this.details = [
      { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: ERROR_DOMAIN },
      ...extraDetails,
    ];
    this.headers = headers;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code] ?? 500;
  }

  toBody(): StatusBody {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** One violation per failing field; the message names each field and the rule it broke. */
export function invalidArgument(violations: FieldViolation[]): ApiError {
  const summary = violations.map((v) => `${v.field}: ${v.description}`).join("; ");
  return new ApiError("INVALID_ARGUMENT", `Invalid argument: ${summary}`, [
    { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations },
  ]);
}

export function invalidField(field: string, description: string): ApiError {
  return invalidArgument([{ field, description }]);
}

export function failedPrecondition(
  violations: Array<{ type: string; subject?: string; description: string }>,
): ApiError {
  return new ApiError(
    "FAILED_PRECONDITION",
    `Precondition failed: ${violations.map((v) => v.description).join("; ")}`,
    [{ "@type": "type.googleapis.com/google.rpc.PreconditionFailure", violations }],
  );
}

export function notFound(resourceType: string, uid: string): ApiError {
  return new ApiError("NOT_FOUND", `Not found: ${resourceType} "${uid}" does not exist`, [
    {
      "@type": "type.googleapis.com/google.rpc.ResourceInfo",
      resourceType,
      resourceName: uid,
      owner: "",
      description: `${resourceType} not found`,
    },
  ]);
}

export function alreadyExists(resourceType: string, description: string, existingUid: string): ApiError {
  return new ApiError("ALREADY_EXISTS", `Already exists: ${description}`, [
    {
      "@type": "type.googleapis.com/google.rpc.ResourceInfo",
      resourceType,
      resourceName: existingUid,
      owner: "",
      description,
    },
  ]);
}

export function permissionDenied(description: string): ApiError {
  return new ApiError("PERMISSION_DENIED", `Permission denied: ${description}`);
}

export function unauthenticated(description: string): ApiError {
  return new ApiError("UNAUTHENTICATED", `Unauthenticated: ${description}`);
}

export function unavailable(description: string): ApiError {
  return new ApiError("UNAVAILABLE", `Unavailable: ${description}`);
}

export function resourceExhausted(retryAfterSeconds: number): ApiError {
  return new ApiError(
    "RESOURCE_EXHAUSTED",
    `Resource exhausted: rate limit reached, retry after ${retryAfterSeconds}s`,
    [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterSeconds}s` }],
    "RATE_LIMITED",
    { "retry-after": String(retryAfterSeconds) },
  );
}

export function unimplemented(description: string): ApiError {
  return new ApiError("UNIMPLEMENTED", `Unimplemented: ${description}`);
}

export function internal(description: string): ApiError {
  return new ApiError("INTERNAL", `Internal: ${description}`);
}
