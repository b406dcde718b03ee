/**
 * Variable names an exported program may declare: readable names made from record names, never
 * one that the language, the module system or the program itself already gives a meaning to.
 *
 * A record named `require` once made the program declare `const require`: TypeScript refuses it
 * ("Compiler reserves name 'require'") and the compiled CommonJS fails before it starts ("Cannot
 * access 'require' before initialization"); `Object` or `undefined` break the import helpers
 * TypeScript emits above the declarations in the same way. Hence one list of everything a
 * top-level `const` of a CommonJS or ES module must not be named.
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

/** A camelCase JavaScript identifier from any text: "platform team-2" → platformTeam2. */
export function identifier(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
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

const JAVASCRIPT: NamingRules = { spell: (c) => c, safe: isSafeIdentifier, numbered: (name, n) => `${name}${n}` };

/**
 * Unique, safe variable names: the first of the candidates that is neither taken nor forbidden,
 * else the last one numbered. `taken` starts with the names the program declares itself.
 */
export class Names {
  private readonly taken: Set<string>;

  constructor(
    declaredByProgram: readonly string[],
    private readonly rules: NamingRules = JAVASCRIPT,
  ) {
    this.taken = new Set(declaredByProgram);
  }

  claim(candidates: readonly string[]): string {
    const free = (name: string) => !this.taken.has(name) && this.rules.safe(name);
    const spelled = candidates.map((candidate) => this.rules.spell(candidate));
    let chosen = spelled.find(free);
    const last = spelled[spelled.length - 1];
    for (let n = 2; chosen === undefined; n++) {
      const numbered = this.rules.numbered(last, n);
      if (free(numbered)) chosen = numbered;
    }
    this.taken.add(chosen);
    return chosen;
  }
}
