/**
 * How the engine marks a secret value in a state: this key with this value, and `ciphertext` or
 * `plaintext` (the SDK's specialSigKey and specialSecretSig, written out so a reader of states never
 * loads the SDK). A module of its own, so that reading it loads nothing else.
 */
export const SECRET_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** Whether a state holds this value as a secret (the wrapping itself, not a secret somewhere inside). */
export function isStateSecret(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_KEY] === SECRET_VALUE;
}
