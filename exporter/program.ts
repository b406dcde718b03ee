/**
 * Writing what was read as a Pulumi program that declares exactly it: one resource per record,
 * references between records as Outputs (`parentUid: team.uid`), roles outside the tree by uid,
 * readable unique names, a stable order (what a record refers to comes first), adoption on every
 * resource (exporter/adoption.ts: by uid where no key tells records apart), and secrets never
 * written: each is read from a config key the program names. A resource's logical name is its
 * variable's name, so both are unique.
 *
 * Record contents never change the program's structure: only the fields the kind describes as
 * references become Outputs, names become safe identifiers (exporter/identifiers.ts), and every
 * text, key and comment is written so that it reads back as the same value.
 */
import type { Kind } from "../provider/kind";
import { isObject } from "../provider/values";
import { adoptionInputs } from "./adoption";
import { declaredInputs, LeftOut, leftOutLine } from "./declarable";
import { Names, identifier, pascal } from "./identifiers";
import { compareText, Subtree } from "./read";
import { referenceFields } from "./references";
import { jsString } from "./text";

export interface ProgramOptions {
  /** CommonJS JavaScript instead of TypeScript. */
  js: boolean;
  /** Leave out `retainOnDelete: true`: removing a resource from the program deletes the record. */
  manageDeletes: boolean;
  /** Roles outside the tree that records refer to, by uid, with their names: declared as uid constants. */
  roles: Map<string, string>;
  /** Records read but not declared, each with why: named in a comment at the top of the program. */
  leftOut?: LeftOut[];
}

export interface GeneratedProgram {
  text: string;
  /** Config keys the program reads secrets from, to be set before `pulumi up`. */
  secretKeys: string[];
  /** How many resources of each type it declares, e.g. { "iam.Group": 200 }. */
  counts: Record<string, number>;
  /** Each resource in declaration order, by its logical name (what an import file names it). */
  resources: DeclaredResource[];
}

export interface DeclaredResource {
  kind: Kind;
  uid: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** The names the program declares besides its resources (`pulumi` and `platform` are its imports). */
const PROGRAM_NAMES = ["pulumi", "platform", "config", "underUid", "opts"];

interface Node {
  domain: string;
  kind: Kind;
  uid: string;
  inputs: Record<string, unknown>;
  name?: string;
  variable?: string;
}

/** A write-only secret member the service never answers (a client secret): read from a config key. */
class SecretFromConfig {
  constructor(readonly path: string) {}
}

/**
 * The record's inputs with a placeholder for each write-only secret member of a message it
 * has: nothing can read its value, and adopting the record writes it, so the program must say it.
 * Paths are a field or a member of a message field (`oidc.clientSecret`), as kinds declare them.
 */
function withSecretPlaceholders(kind: Kind, inputs: Record<string, unknown>): Record<string, unknown> {
  const out = { ...inputs };
  for (const path of kind.writeOnly.filter((p) => kind.secrets?.includes(p))) {
    const [field, member] = path.split(".");
    if (member === undefined) out[field] = new SecretFromConfig(path);
    else if (isObject(out[field])) out[field] = { ...out[field], [member]: new SecretFromConfig(path) };
  }
  return out;
}

const holdsPlaceholder = (value: unknown): boolean =>
  value instanceof SecretFromConfig ||
  (Array.isArray(value)
    ? value.some(holdsPlaceholder)
    : isObject(value) && Object.values(value).some(holdsPlaceholder));

/** The uid a reference field of `node` holds, or undefined for any other field. */
function referenceAt(node: Node, field: string): string | undefined {
  const value = node.inputs[field];
  return typeof value === "string" && referenceFields(node.kind).has(field) ? value : undefined;
}

export function generateProgram(tree: Subtree, options: ProgramOptions): GeneratedProgram {
  const nodes: Node[] = [];
  for (const { exported, records } of tree.kinds) {
    for (const record of records) {
      const { kind } = exported;
      nodes.push({
        domain: exported.domain,
        kind,
        uid: record.uid,
        inputs: withSecretPlaceholders(kind, declaredInputs(kind, record)),
        name: typeof record.name === "string" ? record.name : undefined,
      });
    }
  }
  // What references point at. A record keyed by its parent shares its parent's uid and is never
  // referred to: the uid names the parent.
  const byUid = new Map(nodes.filter((n) => !n.kind.keyedByParent).map((n) => [n.uid, n]));
  const ordered = declarationOrder(nodes, byUid);

  const names = new Names(PROGRAM_NAMES);
  const roleVariables = new Map<string, string>();
  for (const [uid, name] of [...options.roles].sort((a, b) => compareText(a[1], b[1]) || compareText(a[0], b[0]))) {
    roleVariables.set(uid, names.claim([`${identifier(name)}RoleUid`]));
  }
  for (const node of ordered) {
    const base = baseName(node, byUid, options.roles);
    const parent = parentOf(node, byUid);
    // A base that is already the kind's noun (a record with nothing to name it by) is numbered rather than doubled.
    const typed = base === identifier(node.kind.noun) ? [] : [`${base}${node.kind.typeName}`];
    node.variable = names.claim([base, ...typed, ...(parent?.variable ? [`${parent.variable}${pascal(base)}`] : [])]);
  }

  const secretKeys: string[] = [];
  const counts: Record<string, number> = {};
  const lines: string[] = [];
  lines.push(
    "// Generated by `platform-pulumi export`: what the organization held below",
    `// ${tree.under} when it was read. Every resource adopts its record on the first \`up\``,
    options.manageDeletes
      ? "// and is deleted when it leaves this program (--manage-deletes)."
      : "// and is kept in the organization when it leaves this program or on destroy (retainOnDelete).",
  );
  if (options.leftOut?.length) {
    lines.push(
      "//",
      "// Left out (export --partial): records this program cannot declare as they are, because the",
      "// provider's check refuses them or a Pulumi program cannot carry them unchanged. Each stays in",
      "// the organization as it is; fix it there and export again to declare it.",
      ...options.leftOut.map((left) => `//${leftOutLine(left)}`),
    );
  }
  const usesConfig = ordered.some((node) =>
    Object.entries(node.inputs).some(([f, value]) => node.kind.secrets?.includes(f) || holdsPlaceholder(value)),
  );
  if (options.js) {
    if (usesConfig) lines.push('const pulumi = require("@pulumi/pulumi");');
    lines.push('const platform = require("platform-pulumi");');
  } else {
    if (usesConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
    lines.push('import * as platform from "platform-pulumi";');
  }
  lines.push("");
  if (usesConfig) lines.push("const config = new pulumi.Config();");
  lines.push(
    `const underUid = ${jsString(tree.under)};`,
    options.manageDeletes ? "const opts = {};" : "const opts = { retainOnDelete: true };",
  );
  if (roleVariables.size > 0) lines.push("");
  for (const [uid, variable] of roleVariables) {
    // By uid: a name can match several roles (a custom role named like a built-in one), a uid one.
    const name = jsString(options.roles.get(uid));
    lines.push(`const ${variable} = ${jsString(uid)}; // the role ${name}, not declared here`);
  }

  for (const node of ordered) {
    const type = `${node.domain}.${node.kind.typeName}`;
    counts[type] = (counts[type] ?? 0) + 1;
    const fields: string[] = [];
    for (const [field, value] of Object.entries(node.inputs)) {
      fields.push(`  ${property(field)}: ${render(node, field, value)},`);
    }
    for (const [field, value] of Object.entries(adoptionInputs(node.kind, node.uid)))
      fields.push(`  ${property(field)}: ${literal(value, "    ")},`);
    lines.push(
      "",
      `const ${node.variable} = new platform.${node.domain}.${node.kind.typeName}(`,
      `  ${jsString(node.variable)},`,
      "  {",
      ...fields.map((line) => `  ${line}`),
      "  },",
      "  opts,",
      ");",
    );
  }
  lines.push("");

  function fromConfig(node: Node, path: string): string {
    const key = `${node.variable}${path.split(".").map(pascal).join("")}`;
    secretKeys.push(key);
    return `config.requireSecret(${jsString(key)})`;
  }

  function render(node: Node, field: string, value: unknown): string {
    if (node.kind.secrets?.includes(field) && !(value instanceof SecretFromConfig)) return fromConfig(node, field);
    const uid = referenceAt(node, field);
    if (uid !== undefined) {
      const target = byUid.get(uid);
      if (target && target !== node) return `${target.variable}.uid`;
      if (field === node.kind.parentField && uid === tree.under) return "underUid";
      const role = roleVariables.get(uid);
      if (role) return role;
    }
    return literal(value, "    ", (v) => (v instanceof SecretFromConfig ? fromConfig(node, v.path) : undefined));
  }

  const resources = ordered.map((node) => ({
    kind: node.kind,
    uid: node.uid,
    name: node.variable!,
    inputs: node.inputs,
  }));
  return { text: lines.join("\n"), secretKeys, counts, resources };
}

/** What each record refers to comes first; otherwise shallow before deep, then kind, then name. */
function declarationOrder(nodes: Node[], byUid: Map<string, Node>): Node[] {
  const kindOrder = new Map<Kind, number>();
  for (const node of nodes) if (!kindOrder.has(node.kind)) kindOrder.set(node.kind, kindOrder.size);
  const depth = (uid: string) => uid.split("/").length;
  const sorted = [...nodes].sort(
    (a, b) =>
      depth(a.uid) - depth(b.uid) ||
      kindOrder.get(a.kind)! - kindOrder.get(b.kind)! ||
      compareText(a.name ?? "", b.name ?? "") ||
      compareText(a.uid, b.uid),
  );
  const done = new Set<Node>();
  const visiting = new Set<Node>();
  const out: Node[] = [];
  const visit = (node: Node) => {
    if (done.has(node) || visiting.has(node)) return;
    visiting.add(node);
    for (const field of Object.keys(node.inputs)) {
      const uid = referenceAt(node, field);
      const target = uid === undefined ? undefined : byUid.get(uid);
      if (target && target !== node) visit(target);
    }
    visiting.delete(node);
    done.add(node);
    out.push(node);
  };
  for (const node of sorted) visit(node);
  return out;
}

function parentOf(node: Node, byUid: Map<string, Node>): Node | undefined {
  const parent = referenceAt(node, node.kind.parentField);
  return parent === undefined ? undefined : byUid.get(parent);
}

/**
 * A record's own name when it has one; otherwise (a role binding) the names of what it
 * refers to, then "on" its parent: `githubDeployViewerOnPlatform`.
 */
function baseName(node: Node, byUid: Map<string, Node>, roles: Map<string, string>): string {
  if (node.name) return identifier(node.name);
  const parts: string[] = [];
  for (const field of Object.keys(node.inputs)) {
    const uid = field === node.kind.parentField ? undefined : referenceAt(node, field);
    if (uid === undefined) continue;
    const target = byUid.get(uid);
    const part = target?.variable ?? (roles.has(uid) ? identifier(roles.get(uid)!) : undefined);
    if (part) parts.push(part);
  }
  const parent = parentOf(node, byUid);
  if (parts.length > 0 && parent?.variable) parts.push("on", parent.variable);
  return parts.length > 0 ? identifier(parts.join(" ")) : identifier(node.kind.noun);
}

/**
 * A value as a TypeScript literal, objects and arrays one member a line, keys unquoted where they
 * can be; `expression` writes the values that are code (a config read) rather than data.
 */
function literal(value: unknown, indent: string, expression?: (value: unknown) => string | undefined): string {
  const code = expression?.(value);
  if (code !== undefined) return code;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${indent}  ${literal(v, `${indent}  `, expression)},`).join("\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const members = entries.map(([k, v]) => `${indent}  ${property(k)}: ${literal(v, `${indent}  `, expression)},`);
    return `{\n${members.join("\n")}\n${indent}}`;
  }
  return jsString(value);
}

/**
 * A key of an object literal that makes a key of that name. `__proto__: v` and `"__proto__": v`
 * set the object's prototype instead (and the entry is gone); only a computed key makes the key.
 */
export function property(key: string): string {
  if (key === "__proto__") return `[${jsString(key)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : jsString(key);
}
