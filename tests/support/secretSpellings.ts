/**
 * The spellings in which servers echo a value: JSON-escaped by different writers (once and
 * twice), URL-encoded, base64 (alone and inside HTTP Basic credentials). Tests use them to
 * make hostile servers echo a secret, and to check that none of them is ever printed.
 */

/** Every UTF-16 unit as `\uXXXX`, hex in the given case: what a writer escaping everything sends. */
const everyUnitEscaped = (text: string, upper: boolean) =>
  Array.from({ length: text.length }, (_, i) => {
    const hex = text.charCodeAt(i).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  }).join("");

/** Python's json.dumps (ensure_ascii): non-ASCII as `\uXXXX`, lower-case hex. */
const asciiOnlyJson = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Go's encoding/json (`<`, `>` and `&` as `\u003c`…) from a writer that escapes `/` too. */
const goJson = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)
    .replace(/\//g, "\\/");

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const formEncoded = (text: string) => new URLSearchParams({ s: text }).toString().slice(2);

/** [label, spelling] pairs of `secret`. */
export function spellingsOf(secret: string): Array<[string, string]> {
  return [
    ["as it is", secret],
    ["JSON.stringify", JSON.stringify(secret).slice(1, -1)],
    ["JSON escaping every unit, lower-case hex", everyUnitEscaped(secret, false)],
    ["JSON escaping every unit, upper-case hex", everyUnitEscaped(secret, true)],
    ["JSON, ASCII only (Python)", asciiOnlyJson(secret)],
    ["JSON, Go's escapes and \\/", goJson(secret)],
    ["JSON text inside a JSON string", JSON.stringify(JSON.stringify(secret)).slice(2, -2)],
    ["encodeURIComponent", encodeURIComponent(secret)],
    ["encodeURIComponent, lower-case hex", encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ["a form (URLSearchParams, + for a space)", formEncoded(secret)],
    ["encodeURI (reserved characters left as they are)", encodeURI(secret)],
    ["base64", base64(secret)],
    ["base64url", base64url(secret)],
    ["base64 without padding", base64(secret).replace(/=+$/, "")],
    ["HTTP Basic: base64 of clientId:secret", base64(`platform:${secret}`)],
    ["HTTP Basic, another offset", base64(`platform1:${secret}`)],
    ["HTTP Basic, the third offset", base64(`platform12:${secret}`)],
    ["HTTP Basic of the form-encoded secret (RFC 6749)", base64(`c:${formEncoded(secret)}`)],
    ["base64url inside a longer value", base64url(`{"client_secret":"${secret}","n":1}`)],
  ];
}
