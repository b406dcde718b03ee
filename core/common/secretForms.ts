/**
 * The spellings in which a secret can come back inside a server's text, worked out once when
 * the secret is registered, so that finding them in a message costs a few scans:
 *
 * - as it is;
 * - JSON-escaped, in any spelling a JSON writer may choose for each character (`\"`, `\\`,
 *   `\/`, `\t`, `\u0009` or `\u0009` upper-cased, `\u00e9` for non-ASCII, surrogate pairs for
 *   astral characters, Go's `\u003c` for `<`), once or twice (JSON text inside a JSON string);
 * - URL-encoded (encodeURIComponent, or a form's `+` for a space; either hex case; any
 *   character may be escaped or left alone but `%`);
 * - base64, standard and URL-safe, also inside a longer encoded value (HTTP Basic credentials
 *   `clientId:secret`): found by the groups that encode the secret's bytes alone, whatever
 *   bytes precede it, and the whole base64 run around them is hidden.
 *
 * Every pattern is a chain of per-character alternatives that begin differently (a character
 * as it is never begins with the escape character), so a scan never backtracks more than one
 * character: no text can make it slow.
 */

export interface SecretForms {
  /** Spellings matched as they are. */
  literals: string[];
  /** Escaped spellings, each character in any of its forms. */
  patterns: RegExp[];
  /** base64 runs holding the secret's bytes: each of these inside a run means the run holds it. */
  base64Cores: string[];
}

/** The characters a JSON string may spell with a two-character escape. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** A hex digit in either case: `e` becomes `[eE]`. */
const hexDigits = (hex: string) => [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("");

/** One more level of JSON string escaping of text that holds no control character. */
const jsonEscaped = (text: string) => text.replace(/[\\"]/g, "\\$&");

/** The pattern source of one character (a code point) JSON-escaped `depth` times (1 or 2). */
function jsonCharacter(char: string, depth: number): string {
  const level = (text: string) => (depth === 1 ? text : jsonEscaped(text));
  const backslashU = escapeRegExp(level("\\")) + "u";
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i).toString(16).padStart(4, "0"));
  const forms = [units.map((unit) => backslashU + hexDigits(unit)).join("")];
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) forms.push(escapeRegExp(level(short)));
  // As it is, where a JSON string may hold it so: never a quote, a backslash or a control character.
  if (char !== '"' && char !== "\\" && char >= " ") forms.push(escapeRegExp(char));
  return `(?:${forms.join("|")})`;
}

/** The pattern source of one character URL-encoded, in a path, a query or a form. */
function urlCharacter(char: string): string {
  const bytes = [...Buffer.from(char, "utf8")].map((b) => `%${hexDigits(b.toString(16).padStart(2, "0"))}`);
  const forms = [bytes.join("")];
  if (char === " ") forms.push("\\+");
  if (char !== "%") forms.push(escapeRegExp(char));
  return `(?:${forms.join("|")})`;
}

/**
 * The base64 groups (4 characters for 3 bytes) that encode only bytes of `bytes`, for each of
 * the 3 offsets at which it can start inside a longer value; standard and URL-safe.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores = new Set<string>();
  for (const offset of [0, 1, 2]) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    // The first group holds the unknown bytes before the secret (when offset > 0), the last
    // partial one the unknown bytes after it: only the groups in between are the secret's alone.
    const first = offset === 0 ? 0 : 1;
    const last = Math.floor(shifted.length / 3);
    if (last - first < 2) continue;
    const core = shifted.subarray(first * 3, last * 3).toString("base64");
    cores.add(core);
    cores.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...cores];
}

export function formsOf(secret: string): SecretForms {
  const chars = [...secret];
  const json = [1, 2].map((depth) => chars.map((c) => jsonCharacter(c, depth)).join(""));
  const url = chars.map(urlCharacter).join("");
  const formEncoded = new URLSearchParams({ s: secret }).toString().slice(2);
  const bytes = [Buffer.from(secret, "utf8"), ...(formEncoded === secret ? [] : [Buffer.from(formEncoded, "utf8")])];
  return {
    literals: [secret],
    patterns: [new RegExp(json.map((source) => `(?:${source})`).join("|"), "g"), new RegExp(url, "g")],
    base64Cores: [...new Set(bytes.flatMap(base64Cores))],
  };
}

const BASE64_CHAR = /[A-Za-z0-9+/=_-]/;

/** `text` with every form of one secret replaced by `marker`. */
export function hideForms(text: string, forms: SecretForms, marker: string): string {
  let out = text;
  // Escaped spellings first: the secret as it is may be part of one (a tail of `\\\\"x` is `\\"x`).
  for (const pattern of forms.patterns) out = out.replace(pattern, marker);
  for (const literal of forms.literals) if (out.includes(literal)) out = out.split(literal).join(marker);
  for (const core of forms.base64Cores) {
    for (let at = out.indexOf(core); at >= 0; at = out.indexOf(core, at + marker.length)) {
      let start = at;
      let end = at + core.length;
      while (start > 0 && BASE64_CHAR.test(out[start - 1])) start--;
      while (end < out.length && BASE64_CHAR.test(out[end])) end++;
      out = out.slice(0, start) + marker + out.slice(end);
      at = start;
    }
  }
  return out;
}
