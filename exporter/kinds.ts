/**
 * The kinds an export reads and declares: every kind of the kind list (resources/kinds.ts) whose
 * provider carries the description it was made from.
 */
import { versionRefusal } from "../core/transport/apiVersions";
import type { Kind } from "../core/model/kind";
import { KINDS } from "../resources/kinds";

export interface ExportedKind {
  /** The namespace a program reaches it through: `platform.<domain>.<typeName>`. */
  domain: string;
  kind: Kind;
}

/** Every managed kind, in the kind list's order. */
export function exportedKinds(): ExportedKind[] {
  // A part of another kind's record (a SCIM token) has no records of its own to export.
  return KINDS.flatMap(({ provider }) =>
    provider.kind && !provider.kind.partOf ? [{ domain: provider.kind.domain, kind: provider.kind }] : [],
  );
}

/**
 * The kinds the configured API version serves, and for each other one why it is not read (its
 * collection exists only in another version: a List there would fail on a bare "not found").
 */
export function servedKinds(kinds: ExportedKind[]): { served: ExportedKind[]; unserved: string[] } {
  const served: ExportedKind[] = [];
  const unserved: string[] = [];
  for (const exported of kinds) {
    const { kind } = exported;
    const refusal = versionRefusal(`${kind.domain} ${kind.collection}`, kind.apiVersions);
    if (refusal === undefined) served.push(exported);
    else unserved.push(refusal);
  }
  return { served, unserved };
}
