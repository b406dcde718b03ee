/**
 * The YAML writer: a program model (exporter/model.ts) as a Pulumi YAML program, the project's
 * Pulumi.yaml, on the native provider's type tokens (`type: platform:iam:Group`).
 *
 * Every text the records hold reads back as the same string, under pulumi-yaml's reading (Go's
 * yaml.v3, a YAML 1.1 reader in what it takes for a line break, then Pulumi YAML's interpolation):
 *
 * - each is double-quoted, so no text is taken for another type (`null`, `~`, `yes`, `on`, `1e3`,
 *   `0x1F`, `012`) or for YAML syntax (`#`, `- `, `: `, `&`, `*`, `!`, a leading space);
 * - inside the quotes, JSON's escapes (YAML takes every one of them), and `\u` escapes for what a
 *   YAML reader would not keep as it is: DEL and the C1 controls (yaml.v3 refuses them, "control
 *   characters are not allowed"), NEL, LS and PS (line breaks to YAML 1.1: folded into a space),
 *   the byte order mark and U+FFFE/U+FFFF (not printable). The `yaml` package's own double quotes
 *   write all of these raw, so it lays out the document and this module writes every scalar;
 * - every `$` doubled: Pulumi YAML reads `${…}` in any string (a map's keys too) as an
 *   interpolation and `$$` as `$`, so `${x}` is written `$${x}` and `$${x}` is `$$$${x}`.
 *
 * Pulumi YAML gives a one-key map whose key starts with `fn::` a meaning of its own (a function
 * call, an asset) and has no escape for it, so a record holding such a key cannot be declared in
 * YAML: `yamlRefusals` says so, and the export leaves the record out as it does any other that a
 * program cannot carry.
 */
import * as YAML from "yaml";
import { typeTokenOf } from "../native/kinds";
import { ModelResource, NamedValue, ProgramModel, ResourceOutput, SecretConfig, secretKeysOf } from "./model";
import { formatPath } from "../core/common/zodIssues";
import { isObject } from "../core/common/values";

export interface YamlProject {
  /** The Pulumi project's name. */
  name: string;
  description: string;
  /** A comment above `runtime`, one line each: the plugin the program runs on and how to install it. */
  plugin: string[];
}

/** What YAML keeps raw that a YAML reader would not read back as it is (see above). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNREADABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** A double-quoted YAML scalar that any YAML 1.1 or 1.2 reader reads back as `text`. */
export function yamlQuoted(text: string): string {
  return JSON.stringify(text).replace(UNREADABLE, unicodeEscape);
}

/** Text as a Pulumi YAML expression reads it: every `$` doubled, so no part of it is an interpolation. */
export function uninterpolated(text: string): string {
  return text.replaceAll("$", () => "$$");
}

/** YAML 1.1's words for booleans and null: a plain scalar spelled so is not a string to every reader. */
const SPECIAL_WORDS = /^(?:y|yes|n|no|true|false|on|off|null)$/i;
/** What this writer leaves unquoted: names, type tokens, `${…}` of names; never a special word or a number. */
const PLAIN = /^(?:[A-Za-z_][A-Za-z0-9_:./-]*|\$\{[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?\})$/;

/** Every string scalar of the document: double-quoted as above, unless it is marked plain and safe so. */
const STRINGS: YAML.ScalarTag = {
  tag: "tag:yaml.org,2002:str",
  default: true,
  identify: (value) => typeof value === "string",
  resolve: (text) => text,
  stringify: (item) => {
    const text = String(item.value);
    const plain = item.type === YAML.Scalar.PLAIN && PLAIN.test(text) && !SPECIAL_WORDS.test(text);
    return plain ? text : yamlQuoted(text);
  },
};

/** A name a `${name.uid}` can reach: pulumi-yaml reads letters, digits, `_` and `-` there. */
const REFERABLE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function referable(name: string): string {
  if (!REFERABLE.test(name)) throw new Error(`the program model names "${name}", which a YAML program cannot refer to`);
  return name;
}

/** A string left unquoted where that reads back as the same string (keys, type tokens, references), else quoted. */
function plain(text: string): YAML.Scalar {
  const scalar = new YAML.Scalar(text);
  scalar.type = YAML.Scalar.PLAIN;
  return scalar;
}

/** A map of these keys (each unquoted where that is safe) and values. */
function mapOf(entries: Iterable<readonly [string, YAML.Node]>): YAML.YAMLMap {
  const map = new YAML.YAMLMap();
  for (const [key, value] of entries) map.items.push(new YAML.Pair(plain(key), value));
  return map;
}

/** A comment's text (after `#`), one line each whatever it holds; the `yaml` package writes a lone space as `#`. */
function commentText(lines: readonly string[]): string {
  return lines.map((line) => ` ${line.replace(UNREADABLE, unicodeEscape)}`).join("\n");
}

/** The reasons a record's inputs cannot be declared in a YAML program (none when they can). */
export function yamlRefusals(inputs: Record<string, unknown>): string[] {
  const reasons: string[] = [];
  const visit = (value: unknown, path: PropertyKey[]) => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else if (isObject(value))
      for (const [key, item] of Object.entries(value)) {
        if (path.length > 0 && /^fn::/i.test(key))
          reasons.push(
            `${formatPath(path)}: has the key ${JSON.stringify(key)}, which Pulumi YAML reads as a function ` +
              "(it reserves the fn:: prefix), so a YAML program cannot declare it",
          );
        visit(item, [...path, key]);
      }
  };
  visit(inputs, []);
  return reasons;
}

export function writeYaml(model: ProgramModel, project: YamlProject): string {
  const doc = new YAML.Document(undefined, { customTags: (tags) => [STRINGS, ...tags] });
  const text = (value: string) => new YAML.Scalar(value);

  /** A value as Pulumi YAML evaluates it back: data, or the expression computing it. */
  const node = (value: unknown, path: string[]): YAML.Node => {
    if (value instanceof ResourceOutput) return plain(`\${${referable(value.resource)}.${value.output}}`);
    if (value instanceof NamedValue) return plain(`\${${referable(value.name)}}`);
    if (value instanceof SecretConfig) return plain(`\${${referable(value.key)}}`);
    if (typeof value === "string") return text(uninterpolated(value));
    if (Array.isArray(value)) {
      const seq = new YAML.YAMLSeq();
      value.forEach((item, i) => seq.items.push(node(item, [...path, String(i)])));
      return seq;
    }
    if (isObject(value))
      return mapOf(
        Object.entries(value).map(([key, item]) => {
          if (/^fn::/i.test(key)) throw new Error(`${path.join(".")}: the key "${key}" cannot be written in YAML`);
          return [uninterpolated(key), node(item, [...path, key])] as const;
        }),
      );
    return doc.createNode(value);
  };

  const resource = (declared: ModelResource): YAML.YAMLMap => {
    const properties = Object.entries(declared.values).map(
      ([field, value]) => [field, node(value, [declared.name, field])] as const,
    );
    return mapOf([
      ["type", plain(typeTokenOf(declared.kind))],
      ["properties", mapOf(properties)],
      ...(model.retainOnDelete ? [["options", mapOf([["retainOnDelete", doc.createNode(true)]])] as const] : []),
    ]);
  };

  const top = mapOf([
    ["name", text(project.name)],
    ["runtime", plain("yaml")],
    ["description", text(project.description)],
  ]);
  if (project.plugin.length > 0) (top.items[1].key as YAML.Scalar).commentBefore = commentText(project.plugin);

  const secretKeys = secretKeysOf(model);
  if (secretKeys.length > 0) {
    const secret = () =>
      mapOf([
        ["type", plain("string")],
        ["secret", doc.createNode(true)],
      ]);
    top.items.push(new YAML.Pair(plain("config"), mapOf(secretKeys.map((key) => [referable(key), secret()] as const))));
  }
  if (model.constants.length > 0) {
    const variables = mapOf(
      model.constants.map((constant) => [referable(constant.name), node(constant.value, [constant.name])] as const),
    );
    model.constants.forEach((constant, i) => {
      if (constant.comment !== undefined)
        (variables.items[i].key as YAML.Scalar).commentBefore = commentText([constant.comment]);
    });
    top.items.push(new YAML.Pair(plain("variables"), variables));
  }
  const resources = mapOf(model.resources.map((declared) => [referable(declared.name), resource(declared)] as const));
  model.resources.forEach((declared, i) => {
    const key = resources.items[i].key as YAML.Scalar;
    key.spaceBefore = i > 0;
    if (declared.comments.length > 0) key.commentBefore = commentText(declared.comments);
  });
  top.items.push(new YAML.Pair(plain("resources"), resources));

  doc.contents = top;
  if (model.header.length > 0) doc.commentBefore = commentText(model.header);
  return doc.toString({ lineWidth: 0 });
}
