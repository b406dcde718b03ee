/**
 * A Terraform state as a source of "managed", read as `export --from-terraform` reads it
 * (exporter/terraform/state.ts): the vendor provider's managed instances of the types this package
 * manages, each by its `id` (the record's uid), compared with the record in the state's own terms
 * (exporter/terraform/translate.ts). Data sources, other providers' resources and types this
 * package does not manage are skipped and counted; sensitive values never leave the reader.
 */
import { valueAt } from "../core/common/values";
import { typeTokenOf, describedKinds } from "../native/kinds";
import { declaredInputs } from "../exporter/declarable";
import { ReadState, readStateFile, StateFormatError } from "../exporter/terraform/state";
import { differences, translate } from "../exporter/terraform/translate";
import { MANAGED_TYPES, rootOf, VENDOR_PROVIDER } from "../resources/terraform/vendorProvider";
import type { FieldChange, Managed, SourceRead } from "./managed";

/** `--terraform-state FILE`, read as `export --from-terraform` reads it (its bytes strictly UTF-8, a BOM allowed). */
export function readTerraformFile(file: string): SourceRead {
  try {
    return sourceOf(readStateFile(file), file);
  } catch (error) {
    if (error instanceof StateFormatError) throw new Error(`the Terraform state ${error.message}`);
    throw error;
  }
}

function sourceOf(read: ReadState, file: string): SourceRead {
  const source = `terraform state ${file}`;
  const managed: Managed[] = [];
  const skipped: Record<string, number> = {};
  const skip = (what: string) => (skipped[what] = (skipped[what] ?? 0) + 1);
  for (const instance of read.instances) {
    const type = MANAGED_TYPES[instance.type];
    if (instance.mode === "data" || instance.provider !== VENDOR_PROVIDER || !type || instance.deposed !== undefined) {
      skip(instance.mode === "data" ? `data.${instance.type}` : instance.type);
      continue;
    }
    const kind = describedKinds().find((k) => typeTokenOf(k) === `platform:${type.kind}`);
    const uid = instance.attributes.id;
    // A root organization (a group with no parent) is the organization itself, never below a group.
    if (!kind || kind.partOf || typeof uid !== "string" || uid === "" || rootOf(type, instance.attributes)) {
      skip(instance.type);
      continue;
    }
    const translated = translate(type, instance.attributes);
    const parent = translated.fields.get(kind.parentField);
    const secrets = new Set(kind.secrets ?? []);
    managed.push({
      source,
      uid,
      kind,
      type: typeTokenOf(kind),
      address: instance.address,
      parent: typeof parent === "string" ? parent : undefined,
      changes(record) {
        const live = declaredInputs(kind, record);
        return differences(kind, type, record, translated).map((name): FieldChange =>
          secrets.has(name) || secrets.has(name.split(".")[0])
            ? { name, secret: true }
            : { name, recorded: translated.fields.get(name) ?? null, live: valueAt(live, name) ?? null },
        );
      },
    });
  }
  return { source, managed, pending: [], skipped };
}
