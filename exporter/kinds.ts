/**
 * The kinds an export reads and declares: every kind of the registry (resources/kinds.ts) whose
 * provider carries the description it was made from.
 */
import type { Kind } from "../provider/kind";
import { KINDS } from "../resources/kinds";

export interface ExportedKind {
  /** The namespace a program reaches it through: `platform.<domain>.<typeName>`. */
  domain: string;
  kind: Kind;
}

/** Every managed kind, in the registry's order. */
export function exportedKinds(): ExportedKind[] {
  // A part of another kind's record (a SCIM token) has no records of its own to export.
  return KINDS.flatMap(({ provider }) =>
    provider.kind && !provider.kind.partOf ? [{ domain: provider.kind.domain, kind: provider.kind }] : [],
  );
}
