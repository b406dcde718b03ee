/**
 * The errors a resource operation throws. The engine shows a thrown error's message alone, so
 * every message says what was being done, to which record, what the API answered and, where it
 * helps, what to do; every one goes through safeMessage (secrets redacted, length capped).
 */
import { toHostKeys } from "./hostKeys";
import { safeMessage } from "../common/messages";
import type { Props } from "../common/values";

/** A failure the engine will show as its message alone. */
export class ResourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(safeMessage(message), options);
    this.name = "ResourceError";
  }
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function failed(operation: string, what: string, error: unknown, hint?: string): ResourceError {
  return new ResourceError(`${operation} ${what} failed: ${messageOf(error)}${hint ? `. ${hint}` : ""}`, {
    cause: error,
  });
}

/**
 * A record written but not all of it (a companion document or a follow-up call failed): the
 * dynamic-provider host hands `id` and `properties` to the engine as an initialization failure,
 * so the record stays in the state (never lost, never created twice) and the next update writes
 * what is missing.
 */
export class PartlyWrittenError extends ResourceError {
  readonly reasons: string[];
  /** As the host carries them (core/runtime/hostKeys.ts): they go to the host as they are. */
  readonly properties: Props;
  constructor(
    message: string,
    readonly id: string,
    properties: Props,
    cause: unknown,
  ) {
    super(message, { cause });
    this.properties = toHostKeys(properties);
    this.reasons = [this.message];
  }
}
