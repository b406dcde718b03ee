/**
 * Variable names an exported program may declare: readable names made from record names, never
 * one that the language, the module system or the program itself already gives a meaning to.
 *
 * TypeScript refuses a top-level `const require` ("Compiler reserves name 'require'"), and `Object`
 * or `undefined` break the import helpers it emits above the declarations: FORBIDDEN holds every
 * name a top-level `const` of a CommonJS or ES module must not take.
 */

/** Reserved words of JavaScript, with those of strict mode and of module code, and the names strict mode forbids. */
const RESERVED_WORDS =
  "break case catch class const continue debugger default delete do else enum export extends false finally for " +
  "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
  "let static implements interface package private protected public yield await arguments eval";

/**
 * Bindings every CommonJS module has (the module wrapper's parameters), and the helpers
 * TypeScript emits at the top of a compiled module (`__importStar` for `import * as`).
 */
const MODULE_BINDINGS =
  "require module exports __filename __dirname __esModule __importStar __importDefault __createBinding " +
  "__setModuleDefault __awaiter __generator __rest __spreadArray";

/**
 * Globals of ECMAScript and Node.js. Shadowing one is legal, but the code TypeScript emits above
 * the declarations (or the SDK's) may use it before the `const` is initialized; the globals of
 * the Node.js that runs the export are added below, so a global a later Node adds is avoided too.
 */
const GLOBALS =
  "globalThis global Infinity NaN undefined isFinite isNaN parseFloat parseInt decodeURI decodeURIComponent " +
  "encodeURI encodeURIComponent escape unescape Object Function Array Number Boolean String Symbol BigInt Date " +
  "Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError JSON Math " +
  "Reflect Proxy Intl Map Set WeakMap WeakSet WeakRef FinalizationRegistry ArrayBuffer SharedArrayBuffer DataView " +
  "Atomics Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array " +
  "Float64Array BigInt64Array BigUint64Array Iterator WebAssembly process Buffer console setTimeout clearTimeout " +
  "setInterval clearInterval setImmediate clearImmediate queueMicrotask structuredClone atob btoa fetch Headers " +
  "Request Response FormData Blob File URL URLSearchParams TextEncoder TextDecoder AbortController AbortSignal " +
  "Event EventTarget DOMException BroadcastChannel MessageChannel MessagePort MessageEvent performance crypto " +
  "navigator";

const FORBIDDEN: ReadonlySet<string> = new Set([
  ...`${RESERVED_WORDS} ${MODULE_BINDINGS} ${GLOBALS}`.split(" "),
  ...Object.getOwnPropertyNames(globalThis),
]);

/** Whether a top-level `const` of this name is safe in a CommonJS or ES module (program-declared names aside). */
export function isSafeIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !FORBIDDEN.has(name);
}

/** Latin letters that Unicode does not decompose into a letter and marks, as they are written in ASCII. */
const LATIN: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "SS",
  æ: "ae",
  Æ: "AE",
  œ: "oe",
  Œ: "OE",
  ø: "o",
  Ø: "O",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  ð: "d",
  Ð: "D",
  þ: "th",
  Þ: "TH",
  ı: "i",
};

/**
 * The words of any text in ASCII letters and digits, none lost: a Latin letter with marks is
 * the letter (`ü` → u, `é` → e, by Unicode's compatibility decomposition), another script's
 * letter, digit or symbol its code point (`東京` → u6771u4eac, one word of its own), so that
 * different texts stay apart; anything else parts words.
 */
export function identifierWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let escaped = false;
  const add = (part: string, isEscape: boolean) => {
    if (word !== "" && isEscape !== escaped) {
      words.push(word);
      word = "";
    }
    word += part;
    escaped = isEscape;
  };
  for (const char of text.normalize("NFC")) {
    const plain = LATIN[char] ?? char.normalize("NFKD").replace(/\p{M}/gu, "");
    if (/^[A-Za-z0-9]+$/.test(plain)) add(plain, false);
    else if (/^[\p{L}\p{N}\p{S}]$/u.test(char) && char.codePointAt(0)! > 0x7f)
      add(`u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`, true);
    else if (word !== "") {
      words.push(word);
      word = "";
    }
  }
  if (word !== "") words.push(word);
  return words;
}

/** A camelCase JavaScript identifier from any text: "platform team-2" → platformTeam2, "東京" → u6771u4eac. */
export function identifier(text: string): string {
  const words = identifierWords(text);
  if (words.length === 0) return "record";
  const joined = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : pascal(w))).join("");
  return /^[0-9]/.test(joined) ? `n${joined}` : joined;
}

export function pascal(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** What a language takes as a variable name, and how it spells and numbers one. */
export interface NamingRules {
  /** A candidate as this language's identifier (JavaScript's candidates already are). */
  spell(candidate: string): string;
  safe(name: string): boolean;
  numbered(name: string, n: number): string;
}

const JAVASCRIPT: NamingRules = { spell: identifier, safe: isSafeIdentifier, numbered: (name, n) => `${name}${n}` };

/**
 * Unique, safe variable names: the first of the candidates (texts, spelled by the language's
 * rules) that is neither taken nor forbidden, else the last one numbered. `taken` starts with the
 * names the program declares itself.
 */
export class Names {
  private readonly taken: Set<string>;
  /** The text each name was spelled from, its number a word of its own: what another language spells it from. */
  private readonly texts = new Map<string, string>();

  constructor(
    declaredByProgram: readonly string[],
    private readonly rules: NamingRules = JAVASCRIPT,
  ) {
    this.taken = new Set(declaredByProgram);
  }

  claim(candidates: readonly string[]): string {
    const free = (name: string) => !this.taken.has(name) && this.rules.safe(name);
    const spelled = candidates.map((candidate) => this.rules.spell(candidate));
    const found = spelled.findIndex(free);
    let chosen = spelled[found];
    let text = candidates[found];
    const last = spelled.length - 1;
    for (let n = 2; found === -1 && chosen === undefined; n++) {
      const numbered = this.rules.numbered(spelled[last], n);
      if (free(numbered)) [chosen, text] = [numbered, `${candidates[last]} ${n}`];
    }
    this.taken.add(chosen);
    this.texts.set(chosen, text);
    return chosen;
  }

  /** The text a name claimed here was spelled from (its words, which camelCase would lose). */
  textOf(name: string): string {
    return this.texts.get(name) ?? name;
  }
}
