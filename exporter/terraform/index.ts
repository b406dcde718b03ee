/**
 * `platform-pulumi export --from-terraform FILE…`: the records the vendor's Terraform provider
 * manages in one or more states become a Pulumi program (and, if asked, Pulumi's import file)
 * that brings each in with no change.
 *
 * Which records: exactly the managed instances of the vendor's provider (any alias, any module)
 * whose type this package manages (resources/terraform/vendorProvider.ts), each by its `id`, the
 * record's uid. What they declare: the record as the API answers it now, read as an export reads
 * records (one List per kind, filtered by uid), so that the program matches the organization; the
 * state gives each resource its name (its address: module path, name and key) and is checked
 * against the record, each difference reported. The program, its names and the import file come
 * from the same model as an export's (exporter/declare.ts), so every language and the import path
 * work alike.
 *
 * Refused before anything is written, naming each instance: a file that is no state of a form it
 * reads (or not UTF-8), a tainted or deposed instance, a record in two places; and, unless
 * `partial` leaves them out, a type or an instance this package cannot manage (one lacking what
 * the provider's schema requires among them) and an instance whose record is gone.
 * Data sources and other providers' resources are skipped and listed.
 */
import type { ApiRecord, Kind } from "../../core/model/kind";
import { uidIssue } from "../../core/common/uid";
import { isObject } from "../../core/common/values";
import { PACKAGE_NAME, typeTokenOf } from "../../native/kinds";
import { checkDestination, declarableRecords, ExportOptions, ExportResult, referredRoles, writeExport } from "../index";
import { declareOrganization, DeclareOptions } from "../declare";
import { ExportedKind, exportedKinds, servedKinds } from "../kinds";
import { countsOf, ModelResource, SecretConfig, secretKeysOf, valuesIn } from "../model";
import { compareText, KindRecords, placeRecords, readUids, Subtree } from "../read";
import type { Language } from "../project";
import { oneLine } from "../text";
import { nameWords } from "./address";
import { readStateFile, StateInstance } from "./state";
import { differences, translate } from "./translate";
import {
  attributeOf,
  ManagedType,
  managedType,
  missingRequired,
  rootOf,
  VENDOR_PROVIDER,
  VENDOR_PROVIDER_NAME,
} from "../../resources/terraform/vendorProvider";

export { StateFormatError } from "./state";

export interface TerraformExportOptions extends Omit<ExportOptions, "under"> {
  /** The state files, each a terraform.tfstate (format 4) or the output of `terraform show -json`. */
  states: readonly string[];
}

/** An instance of a state, with the file it is in. */
export interface Located extends StateInstance {
  /** The state file, as given. */
  file: string;
  /** Its place among the files given (0 for the first). */
  state: number;
}

/** An instance not migrated, and why. */
export interface Passed {
  file: string;
  address: string;
  why: string;
}

export interface TerraformExportResult extends ExportResult {
  /** The addresses Terraform must forget (`terraform state rm`), by state file, in the order given. */
  forget: Array<{ file: string; addresses: string[] }>;
  /** Data sources and other providers' resources: not this package's. */
  skipped: Passed[];
  /** Instances left out (`partial`): this package cannot manage them, or their record is gone. */
  passed: Passed[];
  /** Per migrated instance, what the state says otherwise than the record, and what has no counterpart. */
  notes: Array<{ file: string; address: string; lines: string[] }>;
  /** The secrets the program reads from config, each with the attribute of the instance Terraform kept it in. */
  secrets: Array<{ key: string; file: string; address: string; attribute: string }>;
}

/** Instances no program can be written for as the state stands: nothing was written. */
export class TerraformRefusedError extends Error {
  constructor(
    readonly refused: Passed[],
    hint: string,
  ) {
    super(
      `${refused.length} Terraform instance${refused.length === 1 ? "" : "s"} cannot be migrated, so nothing was written:\n` +
        refused.map((r) => `  ${oneLine(r.address)} (${r.file}): ${oneLine(r.why)}`).join("\n") +
        `\n${hint}`,
    );
    this.name = "TerraformRefusedError";
  }
}

/** A managed instance to migrate: its entry in the table, the kind it becomes and its record's uid. */
interface Migrating extends Located {
  managed: ManagedType;
  exported: ExportedKind;
  uid: string;
}

/** What becomes of one instance: migrated, or passed over (skipped, broken or unmanageable) and why. */
type Verdict = { migrated: Migrating } | { skipped: string } | { broken: string } | { unmanageable: string };

export async function exportFromTerraform(options: TerraformExportOptions): Promise<TerraformExportResult> {
  if (options.states.length === 0) throw new Error("--from-terraform needs at least one state file");
  const { language, out } = checkDestination(options);
  const everyKind = exportedKinds();
  const kinds = new Map(everyKind.map((exported) => [typeTokenOf(exported.kind), exported]));
  const { skipped, broken, unmanageable, migrated } = sortInstances(readStates(options), kinds);
  if (broken.length > 0)
    throw new TerraformRefusedError(broken, "Settle them in Terraform first; --partial does not leave these out.");
  if (unmanageable.length > 0 && !options.partial)
    throw new TerraformRefusedError(
      unmanageable,
      "Run with --partial to migrate the others without them (they stay in Terraform's state, as they are).",
    );
  const { unserved } = servedKinds([...new Set(migrated.map((instance) => instance.exported))]);
  if (unserved.length > 0) throw new Error(unserved.join("; "));

  const { read, gone, instanceOf } = await readRecords(options, everyKind, migrated);
  if (gone.length > 0 && !options.partial)
    throw new TerraformRefusedError(
      gone,
      "Refresh Terraform's state, or run with --partial to migrate the others without them.",
    );
  const passed = [...unmanageable, ...gone];

  const instanceFor = (kind: Kind, record: ApiRecord) => instanceOf.get(`${kind.typeName} ${record.uid}`)!;
  const declarable = declarableOf(read, instanceFor, language, options, { skipped, passed });

  const several = options.states.length > 1;
  const { notes, described } = describeInstances(declarable, instanceFor, several);
  const roles = await referredRoles(options.client, declarable);
  const manageDeletes = !!options.manageDeletes;
  const model = declareOrganization(declarable, {
    manageDeletes,
    roles,
    header: migrationHeader(manageDeletes, passed, several),
    describe: (kind, record) => {
      const found = described.get(`${kind.typeName} ${record.uid}`)!;
      return { name: found.words, comments: found.comments };
    },
  } satisfies DeclareOptions);
  const files = writeExport(model, {
    language,
    out,
    importFile: options.importFile,
    name: options.name ?? "platform-terraform",
    description: "Migrated from Terraform's state by platform-pulumi export --from-terraform",
  });

  const instanceOfResource = (resource: ModelResource) => instanceFor(resource.kind, { uid: resource.uid });
  const forget = options.states.map((file, state) => ({
    file,
    addresses: model.resources
      .map(instanceOfResource)
      .filter((instance) => instance.state === state)
      .map((instance) => instance.address),
  }));
  return {
    files,
    counts: countsOf(model),
    secretKeys: secretKeysOf(model),
    leftOut: [],
    forget,
    skipped,
    passed: passed.sort((a, b) => compareText(a.file, b.file) || compareText(a.address, b.address)),
    notes,
    secrets: secretsOf(model.resources, instanceOfResource),
  };
}

/**
 * Every instance of the states, sorted by address, so that both forms of a state (whose files
 * list resources in different orders) are read into the same lists and the same program.
 */
function readStates(options: TerraformExportOptions): Located[] {
  const located: Located[] = [];
  for (const [state, file] of options.states.entries()) {
    const read = readStateFile(file);
    options.progress?.(`read ${file} as ${read.form}: ${read.instances.length} instances`);
    for (const instance of read.instances) located.push({ ...instance, file, state });
  }
  return located.sort(
    (a, b) => a.state - b.state || compareText(a.address, b.address) || compareText(a.deposed ?? "", b.deposed ?? ""),
  );
}

/** The instances by what becomes of them; the second instance of a record is broken. */
function sortInstances(
  located: readonly Located[],
  kinds: ReadonlyMap<string, ExportedKind>,
): { skipped: Passed[]; broken: Passed[]; unmanageable: Passed[]; migrated: Migrating[] } {
  const sorted = { skipped: [] as Passed[], broken: [] as Passed[], unmanageable: [] as Passed[] };
  const migrated: Migrating[] = [];
  for (const instance of located) {
    const verdict = verdictOf(instance, kinds);
    if ("migrated" in verdict) {
      migrated.push(verdict.migrated);
      continue;
    }
    const [passing, why] = Object.entries(verdict)[0] as [keyof typeof sorted, string];
    sorted[passing].push({ file: instance.file, address: instance.address, why });
  }
  sorted.broken.push(...recordsTwice(migrated));
  return { ...sorted, migrated };
}

/**
 * The records a program declares: those its language can declare (the others refused, or passed
 * with `partial`), under the group most of them are in. Refused when none is left.
 */
function declarableOf(
  read: KindRecords[],
  instanceFor: (kind: Kind, record: ApiRecord) => Migrating,
  language: Language,
  options: TerraformExportOptions,
  { skipped, passed }: { skipped: readonly Passed[]; passed: Passed[] },
): Subtree {
  const { declarable, leftOut } = declarableRecords({ under: "", kinds: read }, language, options);
  if (leftOut.length > 0) {
    const refused = leftOut.map((left) => {
      const exported = read.find((k) =>
        k.records.some((r) => r.uid === left.uid && k.exported.kind.noun === left.noun),
      )!;
      const instance = instanceFor(exported.exported.kind, { uid: left.uid });
      return { file: instance.file, address: instance.address, why: left.reasons.join("; ") };
    });
    if (!options.partial)
      throw new TerraformRefusedError(
        refused,
        "Fix them in the organization and migrate again, or run with --partial to migrate the others without them.",
      );
    passed.push(...refused);
  }
  if (declarable.kinds.every((k) => k.records.length === 0))
    throw new Error(
      `the state${options.states.length === 1 ? "" : "s"} hold${options.states.length === 1 ? "s" : ""} no record of ` +
        `the vendor's provider (${VENDOR_PROVIDER}) that this package can declare` +
        (skipped.length + passed.length > 0
          ? `:\n${[...skipped, ...passed].map((p) => `  ${oneLine(p.address)}: ${oneLine(p.why)}`).join("\n")}`
          : ""),
    );
  declarable.under = mostCommonOuterParent(declarable);
  return declarable;
}

/** What becomes of an instance, by the vendor provider's table (resources/terraform/vendorProvider.ts). */
function verdictOf(instance: Located, kinds: ReadonlyMap<string, ExportedKind>): Verdict {
  if (instance.mode === "data") return { skipped: "a data source: Terraform reads it, nothing manages it" };
  if (instance.provider !== VENDOR_PROVIDER)
    return { skipped: `a resource of another provider (${instance.provider})` };
  if (instance.deposed !== undefined)
    return {
      broken:
        `a deposed object (${instance.deposed}) that Terraform has not finished replacing: run terraform apply, or ` +
        "terraform state rm it, first",
    };
  if (instance.tainted)
    return {
      broken:
        "tainted: Terraform replaces it on its next apply. Untaint it (terraform untaint), or apply, then migrate",
    };
  const entry = managedType(instance.type);
  if ("why" in entry) return { unmanageable: entry.why };
  const { managed } = entry;
  const exported = kinds.get(`${PACKAGE_NAME}:${managed.kind}`);
  if (!exported) throw new Error(`no kind ${managed.kind} in this package (for ${instance.type})`);
  const id = instance.attributes.id;
  // A uid that does not tell where its record lives (a role's) is one segment.
  const issue = uidIssue(id, exported.kind.placedByParent ? "segment" : "path");
  if (issue) return { unmanageable: `its id is no record's uid: it ${issue}` };
  const missing = missingRequired(managed, instance.attributes);
  if (missing.length > 0)
    return {
      unmanageable:
        `it lacks ${missing.length === 1 ? "the required attribute" : "required attributes:"} ${missing.join("; ")}, ` +
        "which the vendor's provider never leaves out: the state was edited, or written by something else. " +
        "`terraform apply -refresh-only` reads the instance again from the organization",
    };
  const root = rootOf(managed, instance.attributes);
  if (root !== undefined) return { unmanageable: root };
  return { migrated: { ...instance, managed, exported, uid: id as string } };
}

/**
 * One record, one resource: the second instance of a record (two states, or an import repeated),
 * which would be a second resource managing it.
 */
function recordsTwice(migrated: readonly Migrating[]): Passed[] {
  const twice: Passed[] = [];
  const byRecord = new Map<string, Located>();
  for (const instance of migrated) {
    const key = `${instance.managed.kind} ${instance.uid}`;
    const first = byRecord.get(key);
    if (first)
      twice.push({
        file: instance.file,
        address: instance.address,
        why: `the record ${instance.uid} is also ${first.address} (${first.file}): a program declares a record once; remove one of them from its state first`,
      });
    else byRecord.set(key, instance);
  }
  return twice;
}

/**
 * The records as the API holds them now, in the registry's order of kinds, each with its
 * instance (by kind and uid); and the instances whose record is gone.
 */
async function readRecords(
  options: TerraformExportOptions,
  everyKind: readonly ExportedKind[],
  migrated: readonly Migrating[],
): Promise<{ read: KindRecords[]; gone: Passed[]; instanceOf: Map<string, Migrating> }> {
  const gone: Passed[] = [];
  const read: KindRecords[] = [];
  const instanceOf = new Map<string, Migrating>();
  for (const exported of everyKind) {
    const instances = migrated.filter((instance) => instance.exported === exported);
    if (instances.length === 0) continue;
    const records = await readUids(
      options.client,
      exported,
      instances.map((i) => i.uid),
    );
    const found = new Set(records.map((r) => r.uid));
    for (const instance of instances) {
      if (found.has(instance.uid)) instanceOf.set(`${exported.kind.typeName} ${instance.uid}`, instance);
      else
        gone.push({
          file: instance.file,
          address: instance.address,
          why:
            `the organization has no ${exported.kind.noun} ${instance.uid} (deleted since Terraform's last refresh? ` +
            "terraform apply -refresh-only drops it from the state)",
        });
    }
    const placed: KindRecords = { exported, records };
    // A role's uid does not tell where it is defined: the state's parent attribute does, and that
    // group's List of roles says so.
    const parent = attributeOf(instances[0].managed, exported.kind.parentField);
    await placeRecords(
      options.client,
      placed,
      instances.flatMap((i) => {
        const uid = parent === undefined ? undefined : i.attributes[parent];
        return typeof uid === "string" ? [uid] : [];
      }),
      `the group its Terraform state names as ${parent} does not list it`,
    );
    options.progress?.(`read ${records.length} ${exported.kind.collection} of ${instances.length} in the state`);
    read.push(placed);
  }
  return { read, gone, instanceOf };
}

/**
 * Per declared record, its resource's name (from its address) and the comments above it: the
 * address, and what the state says otherwise than the record (also the notes the command prints).
 */
function describeInstances(
  declarable: Subtree,
  instanceFor: (kind: Kind, record: ApiRecord) => Migrating,
  several: boolean,
): { notes: TerraformExportResult["notes"]; described: Map<string, { words: string; comments: string[] }> } {
  const notes: TerraformExportResult["notes"] = [];
  const described = new Map<string, { words: string; comments: string[] }>();
  for (const { exported, records } of declarable.kinds) {
    for (const record of records) {
      const instance = instanceFor(exported.kind, record);
      const translated = translate(instance.managed, instance.attributes);
      const differing = differences(exported.kind, instance.managed, record, translated);
      const lines = [
        ...(differing.length > 0
          ? [
              `Terraform's state differs from the organization in ${differing.join(", ")}: the organization's ` +
                "values are declared (Terraform would have changed them back on its next apply)",
            ]
          : []),
        ...translated.unspellable,
        ...translated.uncounterparted,
      ];
      if (lines.length > 0) notes.push({ file: instance.file, address: instance.address, lines });
      described.set(`${exported.kind.typeName} ${record.uid}`, {
        words: nameWords(instance.module, instance.name, instance.key),
        comments: [several ? `${instance.address} (state ${instance.state + 1})` : instance.address, ...lines],
      });
    }
  }
  return { notes, described };
}

/**
 * The group the program names `underUid`: the parent most declared records have that is not
 * itself declared (typically the organization the Terraform configuration builds under).
 */
function mostCommonOuterParent(tree: Subtree): string {
  const declared = new Set(
    tree.kinds.flatMap((k) => k.records.filter(() => !k.exported.kind.keyedByParent).map((r) => r.uid)),
  );
  const counts = new Map<string, number>();
  for (const { exported, records } of tree.kinds)
    for (const record of records) {
      const parent = exported.kind.toOutputs(record)[exported.kind.parentField];
      if (typeof parent === "string" && !declared.has(parent)) counts.set(parent, (counts.get(parent) ?? 0) + 1);
    }
  return [...counts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]?.[0] ?? "";
}

function migrationHeader(manageDeletes: boolean, passed: Passed[], several: boolean): string[] {
  const lines = [
    "Migrated from Terraform by `platform-pulumi export --from-terraform`: the records that the",
    `vendor's provider (${VENDOR_PROVIDER})`,
    `managed in the state${several ? "s" : ""}, as the organization held them when they were read, each named after`,
    "its Terraform address (written above it). Every resource adopts its record on the first `up`",
    "(or `pulumi import --file` brings it in), and",
    manageDeletes
      ? "is deleted when it leaves this program (--manage-deletes)."
      : "is kept in the organization when it leaves this program or on destroy (retainOnDelete).",
    "Until Terraform forgets them (`terraform state rm` each address, as the command printed, and",
    "its resource blocks removed from the configuration), Terraform manages them too: see",
    "docs/guides/migrate-from-terraform.md of platform-pulumi.",
  ];
  if (passed.length > 0)
    lines.push(
      "",
      "Left out (--partial): instances this program does not declare. Terraform still manages them.",
      ...passed.map((p) => ` ${p.address}${several ? ` (${p.file})` : ""}: ${oneLine(p.why)}`),
    );
  return lines;
}

function secretsOf(
  resources: readonly ModelResource[],
  instanceOf: (resource: ModelResource) => Migrating,
): TerraformExportResult["secrets"] {
  const secrets: TerraformExportResult["secrets"] = [];
  for (const resource of resources) {
    for (const [field, value] of Object.entries(resource.values)) {
      for (const item of valuesIn(value)) {
        if (!(item instanceof SecretConfig)) continue;
        const path = isObject(value) ? `${field}.${Object.keys(value).find((k) => value[k] === item)}` : field;
        const { file, address, managed } = instanceOf(resource);
        secrets.push({ key: item.key, file, address, attribute: attributeOf(managed, path) ?? path });
      }
    }
  }
  return secrets;
}

export { VENDOR_PROVIDER, VENDOR_PROVIDER_NAME };
