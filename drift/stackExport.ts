/**
 * A Pulumi stack as a source of "managed": the output of `pulumi stack export` (format version 3),
 * from a file or from the user's own `pulumi` run in their project folder. The native resources
 * (`platform:<module>:<Type>`) and this package's dynamic ones (`pulumi-nodejs:dynamic/<module>:<Type>`,
 * docs/guides/dynamic-to-native.md) alike; other providers' resources are skipped and counted.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { changedFields } from "../core/runtime/changes";
import type { Kind } from "../core/model/kind";
import { secretProperties } from "../core/model/kindSecrets";
import { recordOutputs } from "../core/runtime/recordOutputs";
import { isObject, pick, Props } from "../core/common/values";
import { describedKinds, typeTokenOf } from "../native/kinds";
import type { FieldChange, Managed, Pending, SourceRead } from "./managed";
import { isStateSecret } from "./secretSignature";

const DYNAMIC = "pulumi-nodejs:dynamic/";
/** A value the export keeps encrypted: no comparison can be made of it. */
const ENCRYPTED = Symbol("encrypted");

/** The kind of a stack resource's type, native or dynamic, or undefined for another provider's. */
export function kindOfType(type: string): Kind | undefined {
  const token = type.startsWith(DYNAMIC) ? `platform:${type.slice(DYNAMIC.length)}` : type;
  return describedKinds().find((kind) => typeTokenOf(kind) === token);
}

interface ExportedResource {
  urn?: unknown;
  type?: unknown;
  id?: unknown;
  custom?: unknown;
  external?: unknown;
  delete?: unknown;
  outputs?: unknown;
}

/** Reads the text of a stack export; `source` names it in messages and the report. */
export function readStackExport(text: string, source: string): SourceRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON: give the output of \`pulumi stack export\``);
  }
  if (!isObject(parsed) || !("version" in parsed))
    throw new Error(
      `${source} is no Pulumi stack export: it has no "version" (give the output of \`pulumi stack export\`)`,
    );
  if (parsed.version !== 3)
    throw new Error(
      `${source} is a stack export of version ${JSON.stringify(parsed.version)}; this command reads version 3 ` +
        "(what `pulumi stack export` of Pulumi 3 writes)",
    );
  const deployment = isObject(parsed.deployment) ? parsed.deployment : {};
  const resources = Array.isArray(deployment.resources) ? (deployment.resources as ExportedResource[]) : [];
  const managed: Managed[] = [];
  const skipped: Record<string, number> = {};
  for (const resource of resources) {
    const type = typeof resource.type === "string" ? resource.type : "";
    // The stack itself and its providers are the engine's, not records of anyone's.
    if (type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:")) continue;
    const kind = kindOfType(type);
    if (!kind || kind.partOf || resource.custom === false) {
      skipped[type] = (skipped[type] ?? 0) + 1;
      continue;
    }
    // Read by a look-up (`get`), or an old copy the engine has yet to delete: not what the stack manages.
    if (resource.external === true || resource.delete === true) continue;
    const outputs = isObject(resource.outputs) ? resource.outputs : {};
    const uid = typeof outputs.uid === "string" ? outputs.uid : typeof resource.id === "string" ? resource.id : "";
    if (uid === "") continue;
    managed.push(stackResource(kind, source, String(resource.urn), uid, outputs));
  }
  const pending: Pending[] = [];
  for (const operation of (Array.isArray(deployment.pending_operations)
    ? deployment.pending_operations
    : []) as unknown[]) {
    const resource = (
      isObject(operation) && isObject(operation.resource) ? operation.resource : {}
    ) as ExportedResource;
    const kind = kindOfType(String(resource.type));
    if (!kind) continue;
    pending.push({
      source,
      uid: typeof resource.id === "string" && resource.id !== "" ? resource.id : null,
      type: typeTokenOf(kind),
      urn: String(resource.urn),
      operation: String(isObject(operation) ? operation.type : undefined),
    });
  }
  return { source, managed, pending, skipped };
}

function stackResource(kind: Kind, source: string, urn: string, uid: string, stored: Props): Managed {
  const secret = new Set(secretProperties(kind));
  const encrypted = new Set<string>();
  const recorded: Props = {};
  for (const [field, value] of Object.entries(stored)) {
    const plain = unwrapped(value);
    if (plain.secret) secret.add(field);
    if (plain.value === ENCRYPTED) encrypted.add(field);
    else recorded[field] = plain.value;
  }
  const outputs = recordOutputs(kind, () => undefined);
  const carried = [kind.parentField, ...kind.localInputs];
  // A companion document (a repo's readme) is one more GET per record: not read, not compared.
  const companions = new Set(kind.companions.map((c) => c.input));
  const fields = kind.declared.filter((field) => !companions.has(field) && !encrypted.has(field));
  const parent = recorded[kind.parentField];
  return {
    source,
    uid,
    kind,
    type: typeTokenOf(kind),
    urn,
    parent: typeof parent === "string" ? parent : undefined,
    changes(record) {
      // What a refresh's Read makes of the record (core/runtime/operations/read.ts), compared as the diff compares.
      const live = outputs.keepWriteOnly(outputs.outputsOf(record, pick(recorded, carried)), recorded);
      return changedFields(recorded, live, fields, kind.unordered).map((name): FieldChange =>
        secret.has(name) ? { name, secret: true } : { name, recorded: recorded[name], live: live[name] },
      );
    },
  };
}

/** A state's value without the engine's secret wrapping, and whether it was secret (anywhere inside). */
function unwrapped(value: unknown): { value: unknown; secret: boolean } {
  if (Array.isArray(value)) {
    const items = value.map(unwrapped);
    if (items.some((i) => i.value === ENCRYPTED)) return { value: ENCRYPTED, secret: true };
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (!isObject(value)) return { value, secret: false };
  if (isStateSecret(value)) {
    if (typeof value.plaintext !== "string") return { value: ENCRYPTED, secret: true };
    try {
      return { value: unwrapped(JSON.parse(value.plaintext)).value, secret: true };
    } catch {
      return { value: ENCRYPTED, secret: true };
    }
  }
  const out: Props = {};
  let secret = false;
  for (const [key, member] of Object.entries(value)) {
    const inner = unwrapped(member);
    if (inner.value === ENCRYPTED) return { value: ENCRYPTED, secret: true };
    secret ||= inner.secret;
    out[key] = inner.value;
  }
  return { value: out, secret };
}

/** `--stack-file FILE`. */
export function readStackFile(file: string): SourceRead {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read the stack file ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  return readStackExport(text, `stack file ${file}`);
}

/**
 * `--stack NAME`: the user's own `pulumi stack export --stack NAME --show-secrets` in `cwd`, with
 * their backend and credentials; the secrets are decrypted to be compared, and never shown.
 */
export async function readStack(name: string, cwd: string, pulumi = "pulumi"): Promise<SourceRead> {
  const args = ["stack", "export", "--stack", name, "--show-secrets"];
  const text = await new Promise<string>((resolve, reject) => {
    execFile(pulumi, args, { cwd, maxBuffer: 2 ** 30, encoding: "utf8" }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? `no \`${pulumi}\` on PATH`
          : `it failed${typeof error.code === "number" ? ` (exit ${error.code})` : ""}: ${stderr.trim().split("\n").slice(-3).join(" ")}`;
      reject(new Error(`\`pulumi stack export --stack ${name}\` in ${cwd}: ${why}`));
    });
  });
  return readStackExport(text, `stack ${name}`);
}
