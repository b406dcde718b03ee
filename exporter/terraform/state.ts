/**
 * A Terraform state in either form a user has, read into the same instances:
 *
 * - `terraform.tfstate` (format version 4, Terraform 0.12 and later): `resources`, each with its
 *   module, mode, type, name, provider configuration and `instances` (key, status, deposed key,
 *   attributes, the paths of its sensitive values);
 * - the output of `terraform show -json` (format version 1.x): `values.root_module` and its
 *   `child_modules`, each resource one instance with its address, provider, values, the mirror of
 *   its sensitive values, `tainted` and `deposed_key`.
 *
 * They are told apart by content. Anything else is refused, naming what it is when it can tell
 * (an older state format, a plan, provider schemas, a Pulumi checkpoint, UTF-16, bytes that are
 * not UTF-8). Sensitive values are
 * dropped as they are read: nothing after this module can show one.
 */
import * as fs from "node:fs";
import { instanceAddress, InstanceKey } from "./address";

export interface StateInstance {
  /** `module.teams.chainguard_group.team["payments"]`, as Terraform writes it. */
  address: string;
  /** The module's address, `""` at the root. */
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  key?: InstanceKey;
  /** The provider's registry address, lowercase (`registry.terraform.io/chainguard-dev/chainguard`). */
  provider: string;
  tainted: boolean;
  /** The key of a deposed object (one Terraform has not finished replacing). */
  deposed?: string;
  /** The instance's values, its sensitive ones left out. */
  attributes: Record<string, unknown>;
}

export interface ReadState {
  /** What the file was read as, for messages: "terraform.tfstate (format 4)". */
  form: string;
  instances: StateInstance[];
}

/** The file is no Terraform state this command reads: nothing was written. */
export class StateFormatError extends Error {
  constructor(
    /** The file, as given: the message begins with it. */
    readonly file: string,
    what: string,
  ) {
    super(`${file} ${what}`);
    this.name = "StateFormatError";
  }
}

const READS =
  "a terraform.tfstate of format version 4 (Terraform 0.12 or later; `terraform state pull` prints one) " +
  "or the output of `terraform show -json`";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads the state file at `file` (its bytes decoded as `decodeState` does). */
export function readStateFile(file: string): ReadState {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read the state ${file}: ${(error as Error).message}`);
  }
  return readState(bytes, file);
}

/**
 * Reads one state file's text, or its bytes (decoded by `decodeState`); `file` names it in
 * messages.
 */
export function readState(content: string | Uint8Array, file: string): ReadState {
  const text = typeof content === "string" ? content.replace(/^\uFEFF/, "") : decodeState(content, file);
  return readParsed(parseJson(text, file), file);
}

function readParsed(state: unknown, file: string): ReadState {
  if (!isObject(state)) throw new StateFormatError(file, `is JSON but not an object: this command reads ${READS}`);
  if ("format_version" in state) return readShowJson(state, file);
  if ("version" in state) return readTfstate(state, file);
  throw new StateFormatError(
    file,
    `is no Terraform state: it has neither "version" and "resources" (a terraform.tfstate) nor "format_version" ` +
      `and "values" (terraform show -json). This command reads ${READS}`,
  );
}

const RESAVE =
  "re-save it as UTF-8 (PowerShell: `terraform state pull | Out-File -Encoding utf8 terraform.tfstate`; " +
  "elsewhere: `iconv -f UTF-16 -t UTF-8 FILE > terraform.tfstate`), or write it with `terraform state pull > FILE` " +
  "from a shell that writes UTF-8";

/**
 * A state file's bytes as text: UTF-8 (as Terraform writes it), a leading byte order mark
 * dropped. UTF-16 (what PowerShell 5's `>` writes) is named as such; any other bytes that are not
 * UTF-8 are refused by the offset of the first, and by the instance and attribute that hold it,
 * never read into text that would name instances that do not exist.
 */
export function decodeState(bytes: Uint8Array, file: string): string {
  const utf16 = utf16Order(bytes);
  if (utf16)
    throw new StateFormatError(
      file,
      `is UTF-16 (${utf16}), not UTF-8: Terraform writes its states in UTF-8, and a shell that re-encodes ` +
        `its output (PowerShell 5's \`>\`) made this one: ${RESAVE}`,
    );
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const offset = firstBadByte(bytes);
    const prefix = new TextDecoder("utf-8").decode(bytes.subarray(0, offset)).replace(/^\uFEFF/, "");
    const lines = prefix.split("\n");
    const place = holderOf(prefix, new TextDecoder("utf-8").decode(bytes.subarray(offset)));
    throw new StateFormatError(
      file,
      `is not UTF-8: the byte at offset ${offset} (line ${lines.length}, column ${lines[lines.length - 1].length + 1})` +
        `${place ? `, in ${place},` : ""} is no UTF-8 character. Terraform writes its states in UTF-8; this one ` +
        "was re-encoded (Latin-1 or Windows-1252?): re-save it as UTF-8 (`iconv -f LATIN1 -t UTF-8 FILE`), or " +
        "write it again with `terraform state pull > FILE`",
    );
  }
}

/** Whether the bytes are UTF-16 JSON, and which byte order: by its byte order mark, or the zero bytes of ASCII. */
function utf16Order(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "little-endian, with a byte order mark";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "big-endian, with a byte order mark";
  // JSON begins with ASCII (whitespace or `{`): in UTF-16 each such character has a zero byte.
  const pairs = Math.min(64, Math.floor(bytes.length / 2));
  if (pairs === 0) return undefined;
  let low = 0;
  let high = 0;
  for (let i = 0; i < pairs; i++) {
    if (bytes[2 * i] === 0 && bytes[2 * i + 1] !== 0) high++;
    if (bytes[2 * i] !== 0 && bytes[2 * i + 1] === 0) low++;
  }
  if (low === pairs) return "little-endian, without a byte order mark";
  if (high === pairs) return "big-endian, without a byte order mark";
  return undefined;
}

/**
 * The offset of the first byte of the first sequence that is not UTF-8: found by chunk with one
 * fatal decoder reading the file as a stream, then within the chunk that fails.
 */
function firstBadByte(bytes: Uint8Array): number {
  const CHUNK = 1 << 16;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let start = 0;
  for (; start < bytes.length; start += CHUNK) {
    try {
      decoder.decode(bytes.subarray(start, start + CHUNK), { stream: true });
    } catch {
      break;
    }
  }
  // No chunk failed: the file ends inside a character.
  const end = Math.min(bytes.length, start + CHUNK);
  const failed = Math.min(start, Math.max(0, bytes.length - 4));
  // Back to the start of a character (a bad sequence may begin in the chunk before): what comes before decoded whole.
  let from = failed;
  while (from > 0 && from > failed - 4 && (bytes[from] & 0xc0) === 0x80) from--;
  if ((bytes[from] & 0xc0) === 0x80) from = failed;
  return from + firstBadIn(bytes.subarray(from, end));
}

/** firstBadByte within a piece that starts at a character: the longest prefix a stream takes, less an open end. */
function firstBadIn(bytes: Uint8Array): number {
  const fine = (length: number) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let good = 0;
  let bad = bytes.length;
  if (fine(bad)) good = bad;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (fine(middle)) good = middle;
    else bad = middle;
  }
  // `good` bytes decode as a stream's start; if they end inside a character, its lead byte begins the bad sequence.
  for (let back = 1; back <= 3 && good - back >= 0; back++) {
    const byte = bytes[good - back];
    if (byte >= 0xc0) return back < (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) ? good - back : good;
    if ((byte & 0xc0) !== 0x80) break;
  }
  return good;
}

/**
 * Where the first bytes that are not UTF-8 are: "the attribute name of chainguard_group.team"
 * (or the key of its address), if the text is a state this module reads. `rest` is the text from
 * them on, read with replacement characters: its first is theirs, marked by a character the text
 * does not hold, so that no replacement character elsewhere is taken for it.
 */
function holderOf(before: string, rest: string): string | undefined {
  let mark = 0xf8ff;
  while (before.includes(String.fromCodePoint(mark)) || rest.includes(String.fromCodePoint(mark))) mark--;
  const sentinel = String.fromCodePoint(mark);
  let state: unknown;
  try {
    state = JSON.parse(before + sentinel + rest.slice(1));
  } catch {
    return undefined;
  }
  const bad = (value: string) => value.includes(sentinel);
  // An address shows the mark as HCL's escape of it (a tfstate) or as it is (show -json): as U+FFFD.
  const shown = (address: string) =>
    address.replaceAll(`\\u${mark.toString(16)}`, "\uFFFD").replaceAll(sentinel, "\uFFFD");
  const pathIn = (value: unknown, path: string): string | undefined => {
    if (typeof value === "string") return bad(value) ? path : undefined;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        const found = pathIn(item, `${path}[${i}]`);
        if (found !== undefined) return found;
      }
    } else if (isObject(value))
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (bad(key)) return at;
        const found = pathIn(item, at);
        if (found !== undefined) return found;
      }
    return undefined;
  };
  let instances: StateInstance[];
  try {
    instances = readParsed(state, "").instances;
  } catch {
    return undefined;
  }
  // Both forms list the instances in the order readParsed does; each is found by its own values.
  const raw = rawInstances(state);
  for (const [i, instance] of instances.entries()) {
    const { values, key } = raw[i] ?? {};
    if (typeof key === "string" && bad(key)) return `the key of ${shown(instance.address)}`;
    const at = pathIn(values, "");
    if (at !== undefined) return `the attribute ${shown(at)} of ${shown(instance.address)}`;
  }
  const at = pathIn(state, "");
  return at === undefined ? undefined : `"${shown(at)}"`;
}

/** Each instance's values and key as the file holds them, in the order the readers list instances. */
function rawInstances(state: unknown): Array<{ values: unknown; key: unknown }> {
  const out: Array<{ values: unknown; key: unknown }> = [];
  if (!isObject(state)) return out;
  if ("format_version" in state) {
    const walk = (module: unknown) => {
      if (!isObject(module)) return;
      for (const resource of Array.isArray(module.resources) ? module.resources : [])
        out.push({
          values: isObject(resource) ? resource.values : undefined,
          key: isObject(resource) ? resource.index : undefined,
        });
      for (const child of Array.isArray(module.child_modules) ? module.child_modules : []) walk(child);
    };
    walk(isObject(state.values) ? state.values.root_module : undefined);
  } else
    for (const resource of Array.isArray(state.resources) ? state.resources : [])
      for (const instance of isObject(resource) && Array.isArray(resource.instances) ? resource.instances : [])
        out.push({
          values: isObject(instance) ? instance.attributes : undefined,
          key: isObject(instance) ? instance.index_key : undefined,
        });
  return out;
}

/** JSON.parse, its error told by position only: a parser's own message quotes the text, which may hold a secret. */
function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    const where =
      at === undefined
        ? ""
        : (() => {
            const before = text.slice(0, Number(at)).split("\n");
            return ` (line ${before.length}, column ${before[before.length - 1].length + 1})`;
          })();
    throw new StateFormatError(file, `is not JSON${where}: this command reads ${READS}`);
  }
}

function readTfstate(state: Json, file: string): ReadState {
  const version = state.version;
  if (typeof version === "number" && "checkpoint" in state)
    throw new StateFormatError(file, `is a Pulumi stack's state (pulumi stack export), not Terraform's`);
  if (version !== 4) {
    const older = typeof version === "number" && version >= 1 && version <= 3;
    throw new StateFormatError(
      file,
      `is a Terraform state of format version ${JSON.stringify(version)}` +
        (older
          ? ` (Terraform before 0.12, "attributes_flat"): run \`terraform apply -refresh-only\` with Terraform 0.12 or later, which writes format 4`
          : "") +
        `. This command reads ${READS}`,
    );
  }
  const resources = state.resources ?? [];
  if (!Array.isArray(resources)) throw new StateFormatError(file, `has "resources" that is not a list`);
  const instances: StateInstance[] = [];
  for (const [i, resource] of resources.entries()) {
    const where = `resources[${i}]`;
    if (!isObject(resource)) throw new StateFormatError(file, `has ${where} that is not an object`);
    const module = optionalText(resource.module, file, `${where}.module`) ?? "";
    const mode = modeOf(resource.mode, file, `${where}.mode`);
    const type = text(resource.type, file, `${where}.type`);
    const name = text(resource.name, file, `${where}.name`);
    const provider = providerOfConfiguration(text(resource.provider, file, `${where}.provider`));
    const list = resource.instances ?? [];
    if (!Array.isArray(list)) throw new StateFormatError(file, `has ${where}.instances that is not a list`);
    for (const [j, instance] of list.entries()) {
      const at = `${where}.instances[${j}]`;
      if (!isObject(instance)) throw new StateFormatError(file, `has ${at} that is not an object`);
      const key = keyOf(instance.index_key, file, `${at}.index_key`);
      const attributes = instance.attributes ?? {};
      if (!isObject(attributes)) throw new StateFormatError(file, `has ${at}.attributes that is not an object`);
      instances.push({
        address: instanceAddress({ module, mode, type, name, key }),
        module,
        mode,
        type,
        name,
        ...(key === undefined ? {} : { key }),
        provider,
        tainted: instance.status === "tainted",
        ...(typeof instance.deposed === "string" ? { deposed: instance.deposed } : {}),
        attributes: withoutPaths(attributes, sensitivePaths(instance.sensitive_attributes)),
      });
    }
  }
  return { form: "terraform.tfstate (format version 4)", instances };
}

function readShowJson(state: Json, file: string): ReadState {
  const version = String(state.format_version);
  if ("provider_schemas" in state)
    throw new StateFormatError(file, `is provider schemas (terraform providers schema -json), not a state`);
  if (!("values" in state) && ("planned_values" in state || "resource_changes" in state))
    throw new StateFormatError(
      file,
      `is a plan (terraform show -json PLANFILE), not a state: run terraform show -json with no plan file`,
    );
  if (!/^1\.\d+$/.test(version))
    throw new StateFormatError(
      file,
      `is terraform show -json output of format version ${version}. This command reads ${READS} (format version 1.x)`,
    );
  const form = `terraform show -json (format version ${version})`;
  // An empty state's show -json has no values at all.
  if (state.values === undefined || state.values === null) return { form, instances: [] };
  if (!isObject(state.values)) throw new StateFormatError(file, `has "values" that is not an object`);
  const instances: StateInstance[] = [];
  const walk = (module: unknown, where: string) => {
    if (module === undefined || module === null) return;
    if (!isObject(module)) throw new StateFormatError(file, `has ${where} that is not an object`);
    const moduleAddress = where === "values.root_module" ? "" : text(module.address, file, `${where}.address`);
    const resources = module.resources ?? [];
    if (!Array.isArray(resources)) throw new StateFormatError(file, `has ${where}.resources that is not a list`);
    for (const [i, resource] of resources.entries()) {
      const at = `${where}.resources[${i}]`;
      if (!isObject(resource)) throw new StateFormatError(file, `has ${at} that is not an object`);
      const values = resource.values ?? {};
      if (!isObject(values)) throw new StateFormatError(file, `has ${at}.values that is not an object`);
      const key = keyOf(resource.index, file, `${at}.index`);
      instances.push({
        address: text(resource.address, file, `${at}.address`),
        module: moduleAddress,
        mode: modeOf(resource.mode, file, `${at}.mode`),
        type: text(resource.type, file, `${at}.type`),
        name: text(resource.name, file, `${at}.name`),
        ...(key === undefined ? {} : { key }),
        provider: text(resource.provider_name, file, `${at}.provider_name`).toLowerCase(),
        tainted: resource.tainted === true,
        ...(typeof resource.deposed_key === "string" ? { deposed: resource.deposed_key } : {}),
        attributes: withoutMirrored(values, resource.sensitive_values),
      });
    }
    const children = module.child_modules ?? [];
    if (!Array.isArray(children)) throw new StateFormatError(file, `has ${where}.child_modules that is not a list`);
    for (const [i, child] of children.entries()) walk(child, `${where}.child_modules[${i}]`);
  };
  walk(state.values.root_module, "values.root_module");
  return { form, instances };
}

function text(value: unknown, file: string, where: string): string {
  if (typeof value !== "string" || value === "") throw new StateFormatError(file, `has ${where} that is not a text`);
  return value;
}

function optionalText(value: unknown, file: string, where: string): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : text(value, file, where);
}

function modeOf(value: unknown, file: string, where: string): "managed" | "data" {
  if (value === "managed" || value === "data") return value;
  throw new StateFormatError(file, `has ${where} ${JSON.stringify(value)}, neither "managed" nor "data"`);
}

function keyOf(value: unknown, file: string, where: string): InstanceKey | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value) && value >= 0))
    return value;
  throw new StateFormatError(file, `has ${where} that is neither a whole number (count) nor a text (for_each)`);
}

/**
 * The registry address of the provider a resource's configuration names:
 * `module.a.provider["registry.terraform.io/chainguard-dev/chainguard"].eu` →
 * `registry.terraform.io/chainguard-dev/chainguard` (module prefix and alias are the configuration's,
 * not the provider's). Terraform 0.12's `provider.NAME` is the legacy address `-/NAME`.
 */
export function providerOfConfiguration(configuration: string): string {
  const modern = /(?:^|\.)provider\["([^"]+)"\](?:\.[A-Za-z_][A-Za-z0-9_-]*)?$/.exec(configuration);
  if (modern) return modern[1].toLowerCase();
  const legacy = /(?:^|\.)provider\.([A-Za-z0-9_-]+)(?:\.[A-Za-z_][A-Za-z0-9_-]*)?$/.exec(configuration);
  if (legacy) return `registry.terraform.io/-/${legacy[1].toLowerCase()}`;
  return configuration.toLowerCase();
}

type Step = string | number;

/** The paths of a format-4 instance's `sensitive_attributes` (`[[{"type":"get_attr","value":"code"}]]`). */
function sensitivePaths(paths: unknown): Step[][] {
  if (!Array.isArray(paths)) return [];
  const out: Step[][] = [];
  for (const path of paths) {
    if (!Array.isArray(path)) continue;
    const steps: Step[] = [];
    for (const step of path) {
      if (!isObject(step)) break;
      const value = isObject(step.value) ? step.value.value : step.value;
      if (typeof value === "string" || typeof value === "number") steps.push(value);
      else break;
    }
    if (steps.length > 0) out.push(steps);
  }
  return out;
}

/** `value` with whatever is at each path left out. */
function withoutPaths(value: Json, paths: Step[][]): Json {
  let out: unknown = value;
  for (const path of paths) out = without(out, path);
  return out as Json;
}

function without(value: unknown, path: Step[]): unknown {
  const [step, ...rest] = path;
  if (Array.isArray(value) && typeof step === "number" && step < value.length)
    return value.map((item: unknown, i) => (i !== step ? item : rest.length === 0 ? null : without(item, rest)));
  if (isObject(value) && typeof step === "string" && Object.hasOwn(value, step)) {
    if (rest.length === 0) {
      const { [step]: _dropped, ...kept } = value;
      return kept;
    }
    return { ...value, [step]: without(value[step], rest) };
  }
  return value;
}

/** `values` with each value its `sensitive_values` mirror marks `true` left out. */
function withoutMirrored(values: Json, mirror: unknown): Json {
  const walk = (value: unknown, marks: unknown): unknown => {
    if (marks === true) return undefined;
    if (Array.isArray(value) && Array.isArray(marks)) return value.map((item, i) => walk(item, marks[i]) ?? null);
    if (isObject(value) && isObject(marks)) {
      const out: Json = {};
      for (const [key, item] of Object.entries(value)) {
        const kept = walk(item, marks[key]);
        if (kept !== undefined) out[key] = kept;
      }
      return out;
    }
    return value;
  };
  return walk(values, mirror) as Json;
}
