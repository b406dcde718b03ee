/**
 * What a source of "managed" says of one record: which source, which resource in it, and how the
 * record it last applied compares with the record the API holds now (each source compares in its
 * own terms: a stack's outputs, a Terraform state's attributes).
 */
import type { ApiRecord, Kind } from "../core/model/kind";

/** One field whose live value differs from what the source last applied. */
export interface FieldChange {
  name: string;
  recorded?: unknown;
  live?: unknown;
  /** The field is secret: that it changed is said, its values never. */
  secret?: true;
}

export interface Managed {
  /** The source, as the command names it: `stack dev`, `stack file dev.json`, `terraform state prod.tfstate`. */
  source: string;
  uid: string;
  kind: Kind;
  /** The native type token, `platform:iam:Group`. */
  type: string;
  urn?: string;
  /** The Terraform address. */
  address?: string;
  /** The parent group's uid as the source recorded it (a role's uid does not tell it). */
  parent?: string;
  /** The fields the source last applied that the live record holds otherwise. */
  changes(record: ApiRecord): FieldChange[];
}

/** A resource of a stack's pending operations (an interrupted `up`). */
export interface Pending {
  source: string;
  uid: string | null;
  type: string;
  urn: string;
  operation: string;
}

/** What one source holds. */
export interface SourceRead {
  source: string;
  managed: Managed[];
  pending: Pending[];
  /** Resources of other providers (or no record of their own), skipped, by type. */
  skipped: Record<string, number>;
}
