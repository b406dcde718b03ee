/**
 * `export --import-file`: the exported records as Pulumi's import file
 * (`pulumi import --file FILE`), for the native provider `platform`: each resource by its type
 * token, the logical name the exported program gives it and the id its import takes
 * (native/imports.ts), so that the CLI writes the program in the project's own language.
 */
import type { ApiRecord, Kind } from "../core/model/kind";
import { importable, importIdOf, importStart } from "../native/imports";
import { typeTokenOf } from "../native/kinds";
import type { LeftOut } from "./declarable";
import type { ModelResource } from "./model";
import type { Subtree } from "./read";

export interface ImportFile {
  resources: Array<{ type: string; name: string; id: string }>;
}

export function importFileOf(resources: readonly ModelResource[]): ImportFile {
  return {
    resources: resources.map(({ kind, uid, name, inputs }) => ({
      type: typeTokenOf(kind),
      name,
      id: importIdOf(kind, uid, inputs),
    })),
  };
}

/** The tree without the records no import can bring in, and those records with why. */
export function withoutUnimportable(tree: Subtree): { importable: Subtree; leftOut: LeftOut[] } {
  const leftOut: LeftOut[] = [];
  const kinds = tree.kinds.map(({ exported, records }) => {
    if (importable(exported.kind)) return { exported, records };
    const reason = refusal(exported.kind, records[0]);
    for (const record of records) leftOut.push({ uid: record.uid, noun: exported.kind.noun, reasons: [reason] });
    return { exported, records: [] };
  });
  return { importable: { ...tree, kinds }, leftOut };
}

function refusal(kind: Kind, record: ApiRecord | undefined): string {
  try {
    importStart(kind, record?.uid ?? "");
    return "cannot be imported";
  } catch (error) {
    return (error as Error).message;
  }
}
