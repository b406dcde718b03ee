/**
 * Terraform's resource addresses as Terraform writes them (`module.teams["eu"].chainguard_group.team[0]`),
 * the words a migrated resource's name is made from, and an address as one argument of a shell
 * command (`terraform state rm '…'`).
 *
 * An instance key is a number (`count`) or a string (`for_each`); a string is written in HCL's
 * quoted-template syntax, so that the address reads back as a traversal: `\n`, `\r`, `\t`, `\"`
 * and `\\` escaped, `${` and `%{` with the introducer doubled, and any other character that is not
 * printable as `\uXXXX` (or `\UXXXXXXXX` beyond the BMP). A `terraform show -json` address is
 * written by Terraform itself; a `terraform.tfstate` keeps the parts, and `instanceAddress` writes
 * them the same way, so both forms name an instance alike.
 */

export type InstanceKey = number | string;

/** Letters, marks, numbers, punctuation, symbols and the ASCII space: what Go's unicode.IsPrint keeps. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A string as HCL's quoted template that reads back as it. */
export function hclQuoted(text: string): string {
  let out = '"';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    const escaped = { "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\" }[char];
    if (escaped !== undefined) out += escaped;
    else if (char === "$" || char === "%") out += chars[i + 1] === "{" ? char + char : char;
    else if (PRINTABLE.test(char)) out += char;
    else {
      const code = char.codePointAt(0)!;
      out += code < 0x10000 ? `\\u${code.toString(16).padStart(4, "0")}` : `\\U${code.toString(16).padStart(8, "0")}`;
    }
  }
  return `${out}"`;
}

/** `[0]` or `["payments"]`; nothing for an instance of a resource with neither count nor for_each. */
export function keySuffix(key: InstanceKey | undefined): string {
  if (key === undefined) return "";
  return typeof key === "number" ? `[${key}]` : `[${hclQuoted(key)}]`;
}

/** An instance's address: its module's (`""` at the root), `data.` for a data source, type, name, key. */
export function instanceAddress(parts: {
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  key?: InstanceKey;
}): string {
  const own = `${parts.mode === "data" ? "data." : ""}${parts.type}.${parts.name}${keySuffix(parts.key)}`;
  return parts.module ? `${parts.module}.${own}` : own;
}

/** One step of a module path: `module.teams["eu"]` is { name: "teams", key: "eu" }. */
export interface ModuleStep {
  name: string;
  key?: InstanceKey;
}

/**
 * The steps of a module address as Terraform writes it (`module.a["k"].module.b[2]`); throws on
 * text that is not one, naming it.
 */
export function moduleSteps(address: string): ModuleStep[] {
  const steps: ModuleStep[] = [];
  let at = 0;
  const fail = (): never => {
    throw new Error(`"${address}" is not a Terraform module address (module.NAME, an optional [KEY], ...)`);
  };
  while (at < address.length) {
    if (steps.length > 0) {
      if (address[at] !== ".") fail();
      at++;
    }
    const name = /^module\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(address.slice(at));
    if (!name) fail();
    at += name![0].length;
    const step: ModuleStep = { name: name![1] };
    if (address[at] === "[") {
      const number = /^\[(\d+)\]/.exec(address.slice(at));
      if (number) {
        step.key = Number(number[1]);
        at += number[0].length;
      } else if (address[at + 1] === '"') {
        const { text, end } = readQuoted(address, at + 1);
        if (address[end] !== "]") fail();
        step.key = text;
        at = end + 1;
      } else fail();
    }
    steps.push(step);
  }
  return steps;
}

/** The HCL quoted string starting at `start` (its opening quote), and where it ends (after its closing quote). */
function readQuoted(text: string, start: number): { text: string; end: number } {
  let out = "";
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') return { text: out, end: at + 1 };
    if (char === "\\") {
      const next = text[at + 1];
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
      if (next in simple) {
        out += simple[next];
        at += 2;
        continue;
      }
      const digits = next === "u" ? 4 : next === "U" ? 8 : 0;
      const hex = text.slice(at + 2, at + 2 + digits);
      if (digits === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits)
        throw new Error(`an escape in "${text}" that HCL does not have`);
      out += String.fromCodePoint(parseInt(hex, 16));
      at += 2 + digits;
      continue;
    }
    // `$${` and `%%{` are a literal `${` and `%{`.
    if ((char === "$" || char === "%") && text[at + 1] === char && text[at + 2] === "{") {
      out += char;
      at += 2;
      continue;
    }
    out += char;
    at++;
  }
  throw new Error(`an unterminated string in "${text}"`);
}

/**
 * The words a migrated resource's name is made from: each module's name and key, the resource's
 * name and key (`module.teams.chainguard_group.team["payments"]` → "teams team payments"; the
 * type is the resource's class, and a name already taken gets it appended).
 */
export function nameWords(module: string, name: string, key: InstanceKey | undefined): string {
  const words: string[] = [];
  for (const step of module ? moduleSteps(module) : []) words.push(step.name, ...keyWords(step.key));
  words.push(name, ...keyWords(key));
  return words.join(" ");
}

const keyWords = (key: InstanceKey | undefined) => (key === undefined ? [] : [String(key)]);

/** Text as one argument of a POSIX shell command, quoted only when it must be. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_.\-/:=@]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
