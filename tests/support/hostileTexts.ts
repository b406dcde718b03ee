/**
 * Texts a program must write so that they read back as themselves: YAML 1.1's words for booleans
 * and null, what YAML reads as numbers, dates or syntax, Pulumi YAML's interpolation, quotes and
 * backslashes, line breaks of every kind (YAML 1.1 counts NEL, LS and PS as breaks), what YAML
 * readers refuse raw (DEL, C1 controls, U+FFFF), leading and trailing spaces, tabs, text beyond the
 * BMP, and a text as long as a description may be.
 */
export const HOSTILE_TEXTS: readonly string[] = [
  ...["null", "Null", "NULL", "~", "true", "True", "FALSE", "yes", "Yes", "no", "on", "Off", "y", "n"],
  ...["1e3", "0x1F", "012", "0o12", "0b101", "1_000", "-1", "+1", "12:30:00", ".inf", "-.Inf", ".nan", "2001-12-14"],
  ...["${x}", "$${x}", "$$${x}", "$", "$$", "a$b", "cost $5", "${", "}", "${group.id}", "${pulumi.stack}"],
  ...["#", "# not a comment", "a #b", "'", '"', "'single'", '"double"', "\\", "\\n", "\\u0041"],
  ...["a\nb", "\n", "\r\n", "trailing\n", "\ttab", " lead", "trail ", " ", ""],
  ...["- item", "? key", ": value", "a: b", "[a]", "{a: b}", "&anchor", "*alias", "!tag", "%directive"],
  ...["@", "`", "|", ">", "---", "...", "<<", "=", "fn::join", "__proto__", "\u0000 nul", "\u001b esc", "\b\f\v"],
  ...["é", "日本語", "😀 beyond the BMP", "\u0085 NEL", "\u2028 LS", "\u2029 PS", "\u007f DEL", "\u0090 C1"],
  ...["\ufeff BOM", "\uffff", "\u00a0 nbsp", "\u200b zwsp", "\u00ad shy"],
  "x".repeat(4000) + " end",
];

/** Group names the service takes (lowercase letters, digits, space, `.`, `_`, `-`) that YAML 1.1 reads otherwise. */
export const HOSTILE_GROUP_TEXTS: readonly string[] = [
  ...["null", "true", "false", "yes", "no", "on", "off", "y", "n", "1e3", "012", "0x1f", "0o12", "1_000"],
  ...["-1", ".inf", ".nan", "---", "...", " lead", "trail ", "12.5", "2001-12-14"],
];

/**
 * Map keys that must read back as themselves (a claim's name: 1 to 256 characters), each with a
 * value of its own so that a key read back as another is seen.
 */
export const HOSTILE_KEYS: readonly string[] = [
  ...["null", "~", "true", "yes", "on", "1e3", "0x1F", "012", "${x}", "$${x}", "$", "#", "a: b", "- item"],
  ...[" lead", "trail ", "\ttab", "a\nb", "'", '"', "\\", "&a", "*a", "!a", "é", "😀", "\u0085", "\u2028", "\u007f"],
  ...["__proto__x", "constructor", "fn:join", "parentUid", "k".repeat(256)],
];

/** The longest text a claim's value may be. */
const CLAIM_VALUE_LIMIT = 1024;

/** One claim per hostile key, each with its own hostile value. */
export function hostileClaims(): Record<string, string> {
  const values = HOSTILE_TEXTS.filter((text) => text.length <= CLAIM_VALUE_LIMIT);
  return Object.fromEntries(HOSTILE_KEYS.map((key, i) => [key, values[i % values.length]]));
}
