/**
 * AIP-193 Status errors. Every failure the emulator answers is an ApiError, so the
 * HTTP layer has one way to turn it into a body and never leaks a stack trace.
 */

import { Code, HTTP_STATUS_OF_CODE, StatusName } from "../provider/statusCodes";

export const ERROR_DOMAIN = "iam.platform.emulator";

export const CODES = Code;

export type CodeName = StatusName;

const HTTP_STATUS = HTTP_STATUS_OF_CODE;

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
