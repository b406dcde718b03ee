/**
 * Record contents as program text and report lines: written so they read back as the same
 * text, and so that no content ends a string, a comment or a line where it should not.
 */

/** Line terminators (which end a `//` comment) and the other control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE = /[\u0000-\u001f\u007f\u2028\u2029]/g;

const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * A value as a literal that reads back as the same value: JSON's escapes, plus the two line
 * separators JSON leaves raw (older parsers end a string at them).
 */
export function jsString(value: unknown): string {
  const json = JSON.stringify(value);
  return json === undefined ? "undefined" : json.replace(/[\u2028\u2029]/g, escaped);
}

/** Text on one line (a `//` comment, a report line): every line terminator and control character escaped. */
export function oneLine(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}
