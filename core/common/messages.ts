/**
 * Every message the package hands to the engine, the host's stderr or a program passes through
 * `safeMessage`: secrets the process holds are replaced by a marker, in every spelling a server
 * may echo them in (core/common/secretForms.ts), and a message longer than the host can carry
 * comfortably is cut, the cut marked.
 */
import { SecretForms, formsOf, hideForms } from "./secretForms";

/** Beyond this a message is cut: the host and the engine's display are not made for more. */
export const MAX_MESSAGE_CHARS = 4_000;
/** Shorter values are not treated as secrets: redacting them would mangle ordinary words. */
const MIN_SECRET_CHARS = 8;

const MARKER = "[redacted]";

/** Each secret with its spellings, worked out once: a refresh registers the same values again and again. */
const secrets = new Map<string, SecretForms>();

/** Registers a value (token, OIDC token, exchanged token, client secret) that no message may ever show. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_CHARS && !secrets.has(value)) secrets.set(value, formsOf(value));
}

export function redact(text: string): string {
  let out = text;
  for (const forms of secrets.values()) out = hideForms(out, forms, MARKER);
  return out;
}

/** Redacted, then cut to `limit` characters with the number of characters left out said. */
export function safeMessage(text: string, limit = MAX_MESSAGE_CHARS): string {
  const clean = redact(text);
  if (clean.length <= limit) return clean;
  return `${clean.slice(0, limit)}… [${clean.length - limit} more characters cut]`;
}
