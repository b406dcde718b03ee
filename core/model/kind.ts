/**
 * The description of one kind of record the API manages: everything the generic lifecycle,
 * the look-ups and adoption need to know about it, and nothing about how they work.
 * A kind is one declarative file (`resources/<domain>/<kind>/description.ts`) holding one of these.
 *
 * Loading a description loads no validation library: its input schema is built by a function
 * the core calls on the first check, with the field toolkit (core/model/fields.ts) it passes in.
 */
import type { z } from "zod";
import type { Domain, Query } from "../transport/client";
import type { ApiError } from "../common/errors";
import type { Fields } from "./fields";
import type { ApiVersion } from "../transport/settings";
import { Props, parentOfUid, setOwn, shown } from "../common/values";

export interface CheckFailure {
  property: string;
  reason: string;
}

export type ApiRecord = Props & { uid: string };

/**
 * A field's shape as the API's documents write it (api/api-v2-schema.json): `ref` names a
 * documented message or enum, `map` is the value of a map, `items` the element of a list.
 */
export interface FieldShape {
  type?: "string" | "integer" | "number" | "boolean" | "object" | "array";
  ref?: string;
  format?: string;
  enum?: readonly string[];
  /** An enum's zero value: what an absent field reads as ("not set"). */
  default?: string;
  items?: FieldShape;
  map?: FieldShape;
  properties?: Readonly<Record<string, FieldShape>>;
  /** Members every such message holds (the documents' `required`): a record always answers them. */
  required?: readonly string[];
}

/**
 * What the kind's class, its schema and the README say about it, in the project's own words:
 * the generator (tools/generate) writes them into the class and its Args.
 */
export interface KindDocs {
  /** What one resource of this kind is, and its id: the class's first paragraph. */
  summary: string;
  /**
   * One resource of the kind in a small program, as values: the generator writes it in
   * TypeScript, Python, Go and YAML (the class's doc comment and the kind's docs page), with the
   * example resources it refers to declared before it.
   */
  example: KindExample;
  /**
   * The words on each input and output, by name; a member of a message input by its dotted
   * path (`claimMatch.subject`). A field without words shows only its type.
   */
  fields?: Readonly<Record<string, string>>;
  /** The README row's "Replaced when" cell; by default the replacing inputs, each "changes". */
  replacedWhen?: string;
}

/**
 * A value in a kind's example, the same in every language: a literal (a string, number, boolean,
 * list, or an object holding a message's members or a map's entries), or one of the references
 * below, which are told apart by their one `$` key.
 */
export type ExampleValue =
  | string
  | number
  | boolean
  | readonly ExampleValue[]
  | ExampleConfig
  | ExampleUidOf
  | ExampleLookup
  | { readonly [member: string]: ExampleValue };

/** A value of the stack's configuration (`rootUid`), read as a secret when `secret` is set. */
export interface ExampleConfig {
  readonly $config: string;
  readonly secret?: true;
}

/** The uid of the example resource of another kind, by its type name: declared before this one. */
export interface ExampleUidOf {
  readonly $uidOf: string;
}

/** A field of what a look-up answers: `{ $lookup: "iam.getRole", args: { name: "viewer" }, field: "uid" }`. */
export interface ExampleLookup {
  readonly $lookup: string;
  readonly args: Readonly<Record<string, ExampleValue>>;
  readonly field: string;
}

export interface KindExample {
  /** The resource's name in the program, and (as an identifier) the variable holding it. */
  readonly name: string;
  readonly inputs: Readonly<Record<string, ExampleValue>>;
  /** The outputs the program exports, under their own names: its `uid` when not given. */
  readonly exports?: readonly string[];
}

/**
 * A document of a record's own that the API reads and writes with operations of their own
 * (a repo's readme: GET and PATCH `repos/{uid}/readme`), managed through one input of the kind.
 * A program that leaves the input out sends no request for it; one that sets it has it written
 * after the create and whenever it changes, and read with the record (so an edit made elsewhere
 * shows as drift). Removing the input stops managing the document: the service keeps it as it is.
 */
export interface Companion {
  /** The input holding the document's value: "readme". */
  input: string;
  /** The path after the record's item path: "readme" for `repos/{uid}/readme`. */
  suffix: string;
  /** The documented message of the document: "registry.RepoReadme". */
  message: string;
  /** The member of that message the input's value is: "content". */
  field: string;
}

/**
 * One step of a create, an update or a delete that calls a custom method of the API on the
 * record the resource's uid names (`POST {collection}/{uid}:{name}`): an identity provider's
 * `:generateScimToken`. The core runs it (core/runtime/verbSteps.ts) within the operation's call
 * deadline, with its error wrapping and secret registration; a step that fails after an earlier
 * one wrote something keeps what was written in the state (an initialization failure).
 */
export interface Verb {
  /** The custom method's name, after the colon: "generateScimToken". */
  name: string;
  /** Whether it runs in this call (the value it sets already holds, say); by default it always does. */
  runs?: (step: VerbStep) => boolean;
  /** Its request body. */
  body: (step: VerbStep) => Props | Promise<Props>;
  /** The outputs once it answered; by default they stay as they were. */
  outputs?: (step: VerbStep, answer: unknown) => Props;
  /** How its failure starts: "regenerating" (`regenerating <label> failed: …`); the operation's own word by default. */
  doing?: string;
  /** What a later step's failure says it did, its outputs kept in the state: "the token was issued". */
  done?: string;
  /** Why it failed, in the kind's words, for failures the kind knows (a token that exists already); else undefined. */
  explainFailure?: (error: unknown) => string | undefined;
}

/** What a verb sees of the call it is a step of. */
export interface VerbStep {
  /** The program's inputs, with the kind's inputDefaults filled in. */
  readonly inputs: Props;
  /** The state's outputs before the call ({} in a create). */
  readonly state: Props;
  /** The outputs so far: the state's or the record's, then each earlier step's. */
  readonly outputs: Props;
  /** The names of the verbs that ran before it in this call. */
  readonly ran: readonly string[];
  /** The record as the service holds it now, as outputs: read once per call, when a step first asks. */
  current(): Promise<Props>;
}

/** The verbs that are steps of each operation: after the create and the update, before the delete. */
export interface Verbs {
  create?: readonly Verb[];
  update?: readonly Verb[];
  delete?: readonly Verb[];
}

export interface ResourceKind {
  /** The class name users know: "Group". */
  typeName: string;
  /** Its documentation (the generated class, schema and README row are written from it). */
  docs?: KindDocs;
  /**
   * Outputs the record's documented message lacks, which the provider adds (a repo's
   * `syncState`), with their shapes. The other outputs are the message's fields and the inputs.
   */
  extraOutputs?: Readonly<Record<string, FieldShape>>;
  /**
   * The documented message whose fields are the outputs besides the inputs and `extraOutputs`,
   * when it is not `message` (a part of another kind's record answers one member of it: a SCIM
   * token, the identity provider's `scim` state), and which of its fields `toOutputs` answers,
   * when not every one. A part of another's record without it has no documented outputs: its
   * inputs and `extraOutputs` only.
   */
  outputsFrom?: { readonly message: string; readonly fields?: readonly string[] };
  /** How messages name one record: "group". */
  noun: string;
  /** The API domain, the first path segment: "iam". */
  domain: Domain;
  /** The API collection: the path after the version segment and the List envelope's key. */
  collection: string;
  /** The documented message of a record (api/api-v2-schema.json): "iam.Group". */
  message: string;
  /**
   * A strict object schema of the inputs (without `__provider`), built on first use from the
   * toolkit the core passes in, so that loading the kind loads no validation library.
   */
  inputs: (fields: Fields) => z.ZodObject;
  /** Rules across fields (exactly one of a value and its pattern), run even when a field failed. */
  rules?: (inputs: Props) => CheckFailure[];
  /** The input naming where the record is created: it goes in the create path, never in a body. */
  parentField: string;
  /**
   * The record's uid IS its parent's: one record per parent, every path names it by the parent's
   * uid. Its parent field is its uid, the parent alone is its natural key, and a state whose id
   * is a uid of its own below the parent (an older state's form) still finds it.
   */
  keyedByParent?: boolean;
  /**
   * The collection of the records this kind is created in ("groups" for most kinds): the
   * emulator serves the kind below it, and an export finds the place of a record whose uid does
   * not tell (a role's uid is one segment) by listing the kind with `uidp.children_of` each
   * record of that collection.
   */
  parentCollection: string;
  /**
   * The record's uid is one opaque segment that does not tell where it lives (a custom role's):
   * the service answers no parent, so the parent is known only from the inputs or the state; the
   * emulator places such records by their parent, and an import names one as `<parent>/<uid>`.
   */
  placedByParent?: boolean;
  /** Inputs sent in the create body and in every PATCH body (the mask's vocabulary). */
  writable: readonly string[];
  /**
   * Writable fields that are messages of their own (an identity's claimMatch): the mask names
   * their changed members (`claimMatch.subject`) rather than the whole field.
   */
  nested?: readonly string[];
  /** Array inputs that are sets (a role's capabilities): their order is never a change. */
  unordered?: readonly string[];
  /**
   * Inputs of which exactly one is set (an identity's claimMatch, awsIdentity, staticKeys or
   * servicePrincipal): switching from one to another replaces the record.
   */
  exclusive?: readonly string[];
  /** Inputs whose change replaces the record instead of updating it. */
  replaceOn: readonly string[];
  /**
   * Outputs that are secrets (an invite's code), or members of a message input that are
   * (`oidc.clientSecret`, a dotted path): the resource class asks the engine to keep their
   * top-level property a Pulumi secret (additionalSecretOutputs, and pulumi.secret on the input:
   * the engine marks secrets on top-level properties only); the core registers every value it
   * sees with core/common/messages.ts, so no message ever shows one; an export asks for each as a
   * secret config key.
   */
  secrets?: readonly string[];
  /**
   * Members of writable message inputs the program sends and the service never answers (an
   * identity provider's `oidc.clientSecret`), as dotted paths. Create, update and read keep
   * them from the inputs or the state, so they are never drift and never lost; a change in the
   * program is an update whose mask names the path. Nothing can read them back, so adoption
   * writes the declared value in its one PATCH, and the search after a lost create leaves them
   * out of the comparison.
   */
  writeOnly?: readonly string[];
  /** Documents of the record's own, each with its own operations and input (a repo's readme). */
  companions?: readonly Companion[];
  /**
   * Outputs the service answers only to the create (an invite's code): kept from the state by
   * read and update; a lost create whose record is proven its own deletes it and creates again
   * (a record it cannot prove its own is never deleted).
   */
  onlyAtCreate?: readonly string[];
  /**
   * Every field of the API's record, plus the inputs the record answers. The default adds the
   * parent field, read from the uid (a child's uid is its parent's plus one segment) when the
   * uid has more than one segment.
   */
  toOutputs?: (record: ApiRecord) => Props;
  /** How messages name the record these props describe; the default says noun, name, uid or parent. */
  label?: (props: Props) => string;
  /**
   * The List filters that find the record these inputs describe (the natural key: a name under
   * its parent by default); adoption compares the found records' user-set fields too.
   */
  naturalKey?: (inputs: Props) => Query;
  /**
   * The inputs that make up the natural key (["name"] by default, besides the parent): a record
   * is the one these inputs describe when they are equal.
   */
  keyFields?: readonly string[];
  /**
   * The service takes a second record with the same natural key instead of answering
   * ALREADY_EXISTS (an event subscription), so adoption looks before it creates.
   */
  duplicatesAllowed?: boolean;
  /**
   * The field of a record that tells when the service made it: "createTime" by default. After a
   * lost create answer a record is the create's only if this time is not before the request was
   * sent (core/runtime/adoption.ts). A tag has no createTime and no update operation, so its
   * "updateTime" (never before its creation) stands in. `null` for a kind whose records tell no
   * time (a subscription): its create first lists the records holding the key, every page, and
   * only a record that was not among them can be the create's.
   */
  createdAtField?: string | null;
  /** Why a delete was refused (FAILED_PRECONDITION), and what to do about it. */
  explainDeleteRefusal?: (error: ApiError) => string;
  /** What to do when a record like this one already exists. */
  alreadyExistsHint: string;
  /**
   * Inputs the wire spells otherwise (a repo's `syncConfig` is `sync_config` in the documents):
   * bodies and update masks carry the wire name, outputs the input's.
   */
  wireNames?: Readonly<Record<string, string>>;
  /**
   * List parameters without which the kind's List leaves some records out (tags of a build date,
   * an epoch or a referrer are listed only when asked for): sent with the List that answers reads
   * of several records by their uids (core/runtime/readBatches.ts), so that each can be in it.
   */
  listEveryRecord?: Query;
  /**
   * Inputs that stay in the program and its state and never reach the API (a guard such as a
   * repo's `allowDelete`): compared by diff, carried through read, never in a body or a mask.
   */
  localInputs?: readonly string[];
  /** Why deleting the record these stored outputs describe is refused before any request, if it is. */
  refuseDelete?: (props: Props) => string | undefined;
  /** The API versions that serve the kind; the others are refused before any request. Default: all. */
  apiVersions?: readonly ApiVersion[];
  /** Custom methods run as steps of create, update and delete (Verb). */
  verbs?: Verbs;
  /**
   * Requests its create and update send where that is not one each, which its verbs alone do not
   * tell (a SCIM token's create is a generate and an enable; its update reads the etag first):
   * the floors the benchmarks hold it to.
   */
  requestFloors?: { readonly create?: number; readonly update?: number };
  /**
   * The record the resource's uid names is another kind's, this noun's ("identity provider", for
   * its SCIM token): the resource is part of that record, made, changed and undone by its verbs
   * alone (never a POST, PATCH or DELETE of the record), one per record, its uid the record's
   * (its parent field). Read GETs the record. It is never listed, adopted or exported.
   * `writable` are then the inputs the record answers back (the service's values win in the
   * outputs); `localInputs` those it never answers.
   */
  partOf?: string;
  /**
   * What an input left out means where that is not the empty value (a SCIM token's `enabled`:
   * true): diff and the verbs see the program's inputs with these filled in, and read keeps such
   * an input in the inputs it answers even when it is false or empty.
   */
  inputDefaults?: Readonly<Props>;
  /**
   * Outputs a read sets when the record changed in a way no input shows (a token regenerated
   * elsewhere: `tokenSuperseded`): one that is set is a change, the update repairs it, and read
   * answers it among the inputs too, so a refresh shows it.
   */
  driftOutputs?: readonly string[];
  /**
   * What the record read says about the state it was last written with: outputs to change
   * (undefined drops one: a token no longer live), or undefined when the resource is gone though
   * its record is not (a revoked token).
   */
  readDrift?: (current: Props, state: Props) => Props | undefined;
}

/** The description with its defaults filled in: what the core works with. */
export interface Kind extends ResourceKind {
  /** The fields of the record a program sets: the parent and the writable fields. */
  compared: readonly string[];
  /** Everything a program declares: `compared`, the companions' inputs and the local inputs. */
  declared: readonly string[];
  localInputs: readonly string[];
  writeOnly: readonly string[];
  companions: readonly Companion[];
  toOutputs: (record: ApiRecord) => Props;
  label: (props: Props) => string;
  naturalKey: (inputs: Props) => Query;
  keyFields: readonly string[];
  createdAtField: string | null;
}

export function completeKind(kind: ResourceKind): Kind {
  const { noun, parentField } = kind;
  const compared = [parentField, ...kind.writable];
  const localInputs = kind.localInputs ?? [];
  const companions = kind.companions ?? [];
  const inputNames = Object.fromEntries(Object.entries(kind.wireNames ?? {}).map(([input, wire]) => [wire, input]));
  const renaming = Object.keys(inputNames).length > 0;
  return {
    ...kind,
    compared,
    declared: [...compared, ...companions.map((c) => c.input), ...localInputs],
    localInputs,
    writeOnly: kind.writeOnly ?? [],
    companions,
    // A uid of one segment (a role's) does not tell its parent: the inputs or the state do.
    toOutputs:
      kind.toOutputs ??
      ((record) => {
        const parent = kind.keyedByParent ? record.uid : parentOfUid(record.uid);
        // Called for every record read: no copy where no key is renamed and no parent is added
        // (the caller copies the outputs into an object of its own).
        const renamed = renaming ? renameKeys(record, inputNames) : record;
        return parent === undefined ? renamed : { ...renamed, [parentField]: parent };
      }),
    label:
      kind.label ??
      ((props) => {
        const name = props.name ? ` "${shown(props.name)}"` : "";
        const parent = props[parentField];
        const where = props.uid ? ` (${shown(props.uid)})` : parent ? ` under "${shown(parent)}"` : "";
        return `${noun}${name}${where}`;
      }),
    keyFields: kind.keyFields ?? (kind.keyedByParent ? [] : ["name"]),
    createdAtField: kind.createdAtField === undefined ? "createTime" : kind.createdAtField,
    naturalKey:
      kind.naturalKey ??
      (kind.keyedByParent
        ? (inputs) => ({ "uidp.ids": shown(inputs[parentField]) })
        : (inputs) => ({ "uidp.children_of": shown(inputs[parentField]), name: shown(inputs.name) })),
  };
}

/** `props` with the keys `names` maps renamed (wire names to input names and back). */
export function renameKeys(props: Props, names: Readonly<Record<string, string>>): Props {
  const out: Props = {};
  for (const [key, value] of Object.entries(props)) setOwn(out, Object.hasOwn(names, key) ? names[key] : key, value);
  return out;
}
