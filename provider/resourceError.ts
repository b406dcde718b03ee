/**
 * The errors a resource operation throws. The engine shows a thrown error's message alone, so
 * every message says what was being done, to which record, what the API answered and, where it
 * helps, what to do; every one goes through safeMessage (secrets redacted, length capped).
 */
import { safeMessage } from "./messages";

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
