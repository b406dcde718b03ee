/**
 * What an exported program declares, in no language: its resources (each a record of a kind,
 * with a logical name, comments, values and how it is adopted), the named values it declares
 * before them, the secrets it reads from config and its resource options. Reading the records
 * (exporter/read.ts, or another source such as a Terraform state) builds one
 * (exporter/declare.ts); each writer (exporter/program.ts for TypeScript and JavaScript,
 * exporter/yamlProgram.ts, exporter/pythonProgram.ts) writes it in one language and decides
 * nothing of its own about what is declared.
 *
 * A value is plain data (text, numbers, booleans, lists and objects, written so that it reads
 * back as the same value) or one of the three things a program computes: another resource's
 * output, a named value, a secret read from config.
 */
import type { Kind } from "../core/model/kind";
import type { Props } from "../core/common/values";

/** Another resource's output: `team.uid`, `${team.uid}`. */
export class ResourceOutput {
  constructor(
    /** The logical name of the resource it is an output of. */
    readonly resource: string,
    readonly output: string,
  ) {}
}

/** A value the program names before its resources (the group exported below, a role outside the tree). */
export class NamedValue {
  constructor(readonly name: string) {}
}

/** A secret the program reads from the stack's config (`pulumi config set --secret KEY …`). */
export class SecretConfig {
  constructor(readonly key: string) {}
}

export type ComputedValue = ResourceOutput | NamedValue | SecretConfig;

export function isComputed(value: unknown): value is ComputedValue {
  return value instanceof ResourceOutput || value instanceof NamedValue || value instanceof SecretConfig;
}

/** A text constant declared before the resources: `const underUid = "…";`. */
export interface ProgramConstant {
  name: string;
  /** The text the name was spelled from (`viewer role uid`), for a language that spells names otherwise. */
  text?: string;
  value: string;
  /** One line said beside it, or nothing. */
  comment?: string;
}

export interface ModelResource {
  /** The resource's logical name: unique in the program, what an import file names it. */
  name: string;
  /** The text the name was spelled from (`squad team-a ci`), whose words a language's own spelling keeps. */
  text?: string;
  /** Lines said above it (none for an organization's export; a Terraform address for a migration). */
  comments: string[];
  kind: Kind;
  /** The record it declares and adopts. */
  uid: string;
  /** The record's inputs as read, plain data (what an import id is made from). */
  inputs: Props;
  /**
   * What the program writes, in order: the record's inputs with computed values where the
   * program computes them (references, secrets), then the adoption inputs.
   */
  values: Record<string, unknown>;
}

export interface ProgramModel {
  /** Comment lines at the top of the program ("" for an empty comment line). */
  header: string[];
  constants: ProgramConstant[];
  /** In declaration order: what a resource refers to comes before it. */
  resources: ModelResource[];
  /** Whether each resource leaves its record in the organization when it leaves the program or on destroy. */
  retainOnDelete: boolean;
}

/** Every value in `value`, depth first, objects' members in order. */
export function* valuesIn(value: unknown): Generator<unknown> {
  yield value;
  if (Array.isArray(value)) for (const item of value) yield* valuesIn(item);
  else if (value !== null && typeof value === "object" && !isComputed(value))
    for (const item of Object.values(value)) yield* valuesIn(item);
}

/** The config keys the program reads secrets from, in the order it reads them. */
export function secretKeysOf(model: ProgramModel): string[] {
  const keys: string[] = [];
  for (const resource of model.resources)
    for (const value of valuesIn(resource.values)) if (value instanceof SecretConfig) keys.push(value.key);
  return keys;
}

/** How many resources of each type the program declares, e.g. { "iam.Group": 200 }. */
export function countsOf(model: ProgramModel): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { kind } of model.resources) {
    const type = `${kind.domain}.${kind.typeName}`;
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}
