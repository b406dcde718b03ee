/**
 * Names in a Python program on the native provider's generated Python SDK: the SDK's own
 * spelling of each property (Pulumi's Python code generator, `PyName` in pkg/codegen/python),
 * and variable names no Python program gives a meaning to already.
 */
import { identifierWords, type NamingRules } from "./identifiers";

/**
 * Python's keywords and soft keywords (a variable named `match` or `type` is legal, but reads as
 * a statement to a person).
 */
const KEYWORDS =
  "False None True and as assert async await break class continue def del elif else except finally for from " +
  "global if import in is lambda nonlocal not or pass raise return try while with yield match case type _";

/**
 * Python's builtins (3.8 to 3.13): shadowing one is legal, but a later line of the program, or a
 * person editing it, would get the variable instead.
 */
const BUILTINS =
  "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError " +
  "BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError " +
  "ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning " +
  "EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning " +
  "GeneratorExit IOError ImportError ImportWarning IndentationError IndexError InterruptedError " +
  "IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError " +
  "NotADirectoryError NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning " +
  "PermissionError ProcessLookupError PythonFinalizationError RecursionError ReferenceError ResourceWarning " +
  "RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit " +
  "TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError " +
  "UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError abs aiter all anext " +
  "any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits " +
  "delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash " +
  "help hex id input int isinstance issubclass iter len license list locals map max memoryview min next object " +
  "oct open ord pow print property quit range repr reversed round set setattr slice sorted staticmethod str sum " +
  "super tuple vars zip";

const FORBIDDEN: ReadonlySet<string> = new Set(`${KEYWORDS} ${BUILTINS}`.split(" "));

/** What the code generator spells with a trailing `_` (`from_`): Python 3's keywords, Python 2's `exec` and `print`. */
const GENERATOR_KEYWORDS = new Set([...KEYWORDS.split(" ").slice(0, 35), "exec", "print"]);

/**
 * The code generator's snake_case of a schema name (`parentUid` → `parent_uid`, `awsAccount` →
 * `aws_account`, `SHA256Hash` → `sha256_hash`): PyName's states, for the ASCII names a schema
 * of this package holds (a name with anything else is refused, not guessed).
 */
export function pythonName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`"${name}" is not a name this package's schema holds`);
  const upper = (c: string) => c >= "A" && c <= "Z";
  const digit = (c: string) => c >= "0" && c <= "9";
  const components: string[] = [];
  let current = "";
  let state: "first" | "upper" | "acronym" | "lower" = "first";
  for (const c of name) {
    if (state === "first") {
      state = upper(c) ? "upper" : "lower";
      current += c.toLowerCase();
    } else if (state === "upper") {
      state = upper(c) ? "acronym" : "lower";
      current += c.toLowerCase();
    } else if (state === "acronym") {
      if (upper(c)) current += c.toLowerCase();
      else if (digit(c) || c === "s") {
        // A digit, or the plural `s`, stays with the acronym before it (`SHA256Hash`, `IPs`).
        state = "lower";
        current += c;
      } else {
        // The acronym's last capital starts the next word: `HTTPServer` → http_server.
        components.push(current.slice(0, -1));
        current = current.slice(-1) + c;
        state = "lower";
      }
    } else if (upper(c)) {
      components.push(current);
      current = c.toLowerCase();
      state = "upper";
    } else current += c;
  }
  if (current) components.push(current);
  const result = components.join("_");
  return GENERATOR_KEYWORDS.has(result) ? `${result}_` : result;
}

/** A resource constructor's parameter for an input property: `resource_name` and `opts` are the constructor's own. */
export function initParameterName(name: string): string {
  const result = pythonName(name);
  return result === "resource_name" || result === "opts" ? `${result}_` : result;
}

/**
 * A snake_case identifier from any text: "platformGroup" → platform_group, "team 2.ops" →
 * team_2_ops, "SSOAdmins" → sso_admins, "東京" → u6771u4eac (identifierWords).
 */
export function pythonIdentifier(text: string): string {
  const words = identifierWords(text).flatMap((word) =>
    word
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
      .split(" "),
  );
  if (words.length === 0) return "record";
  const joined = words.map((w) => w.toLowerCase()).join("_");
  return /^[0-9]/.test(joined) ? `n${joined}` : joined;
}

/** Whether a module-level variable of this name is safe: an identifier no keyword, builtin or dunder name. */
export function isSafePythonName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !FORBIDDEN.has(name) && !/^__.*__$/.test(name);
}

/** Python's variable names: snake_case, never a keyword, builtin or dunder name, numbered `team_2`. */
export const PYTHON_NAMING: NamingRules = {
  spell: pythonIdentifier,
  safe: isSafePythonName,
  numbered: (name, n) => `${name}_${n}`,
};
