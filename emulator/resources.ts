/**
 * What each resource kind looks like: its domain, where it lives, its fields (writable or
 * read-only, with their rules), how it renders as JSON, and its resource-specific list filters.
 */
import { FieldViolation } from "./errors";
import { Params, getList, getString, getTime, getBool, textOf } from "./params";
import { Kind, Rec, Store } from "./store";
import { FieldSpecs } from "./validation";
import { ALL_CAPABILITIES } from "./capabilities";

export type Domain = "iam" | "registry" | "vulnerabilities";

export const GROUP_NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

export interface ResourceDef {
  kind: Kind;
  domain: Domain;
  /** Singular name for messages and ResourceInfo. */
  singular: string;
  /** Kind of the parent named in a create path. */
  parentKind: Kind;
  fields: FieldSpecs;
  operations: Array<"list" | "get" | "create" | "update" | "delete">;
  /** Names are unique among siblings (ALREADY_EXISTS otherwise). */
  uniqueNames: boolean;
  hasUpdateTime: boolean;
  render(rec: Rec, store: Store): Record<string, unknown>;
  /** Resource-specific list filters, as a predicate plus its canonical text. */
  filters?(params: Params): { predicates: Array<(rec: Rec) => boolean>; signature: unknown[] };
}

const iso = (ms: number) => new Date(ms).toISOString();

function compiles(field: string, pattern: unknown): FieldViolation[] {
  try {
    new RegExp(String(pattern));
    return [];
  } catch (error) {
    return [{ field, description: `is not a valid regular expression: ${(error as Error).message}` }];
  }
}

function checkClaimMatch(value: Record<string, unknown>): FieldViolation[] {
  const out: FieldViolation[] = [];
  const known = [
    "issuer",
    "issuerPattern",
    "subject",
    "subjectPattern",
    "audience",
    "audiencePattern",
    "claims",
    "claimPatterns",
  ];
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) out.push({ field: `claimMatch.${key}`, description: "unknown field" });
  }
  for (const key of ["issuer", "issuerPattern", "subject", "subjectPattern", "audience", "audiencePattern"]) {
    if (value[key] !== undefined && (typeof value[key] !== "string" || value[key] === ""))
      out.push({ field: `claimMatch.${key}`, description: "must be a non-empty string" });
  }
  const pair = (exact: string, pattern: string, required: boolean) => {
    const has = [exact, pattern].filter((k) => value[k] !== undefined);
    if (has.length === 2)
      out.push({ field: `claimMatch.${exact}`, description: `set either ${exact} or ${pattern}, not both` });
    else if (has.length === 0 && required)
      out.push({ field: `claimMatch.${exact}`, description: `is required (or ${pattern})` });
    else if (value[pattern] !== undefined) out.push(...compiles(`claimMatch.${pattern}`, value[pattern]));
  };
  pair("issuer", "issuerPattern", true);
  pair("subject", "subjectPattern", true);
  pair("audience", "audiencePattern", false);
  for (const key of ["claims", "claimPatterns"]) {
    const map = value[key];
    if (map === undefined) continue;
    if (
      map === null ||
      typeof map !== "object" ||
      Array.isArray(map) ||
      !Object.values(map).every((v) => typeof v === "string")
    ) {
      out.push({ field: `claimMatch.${key}`, description: "must be an object of strings" });
    }
  }
  return out;
}

const groupSummary = (rec: Rec | undefined) =>
  rec ? { uid: rec.uid, name: rec.name, description: textOf(rec.data.description) } : undefined;

function anyIn(values: unknown, wanted: Set<string>): boolean {
  return Array.isArray(values) && values.some((v) => wanted.has(String(v)));
}

export const RESOURCES: Record<Kind, ResourceDef> = {
  groups: {
    kind: "groups",
    domain: "iam",
    singular: "group",
    parentKind: "groups",
    uniqueNames: true,
    hasUpdateTime: true,
    operations: ["list", "get", "create", "update", "delete"],
    fields: {
      uid: { type: "string", readOnly: true },
      name: {
        type: "string",
        required: true,
        check: (v: string) =>
          GROUP_NAME_PATTERN.test(v) ? [] : [{ field: "name", description: `must match ${GROUP_NAME_PATTERN.source}` }],
      },
      description: { type: "string" },
      verified: { type: "boolean" },
      resourceLimits: { type: "object", readOnly: true },
      kind: { type: "string", readOnly: true },
      status: { type: "string", readOnly: true },
      createTime: { type: "string", readOnly: true },
      updateTime: { type: "string", readOnly: true },
    },
    render: (rec) => ({
      uid: rec.uid,
      name: rec.name,
      description: rec.data.description ?? "",
      resourceLimits: {},
      verified: rec.data.verified ?? false,
      createTime: iso(rec.createTime),
      updateTime: iso(rec.updateTime),
    }),
  },
  identities: {
    kind: "identities",
    domain: "iam",
    singular: "identity",
    parentKind: "groups",
    uniqueNames: true,
    hasUpdateTime: true,
    operations: ["list", "get", "create", "update", "delete"],
    fields: {
      uid: { type: "string", readOnly: true },
      name: { type: "string", required: true },
      description: { type: "string" },
      company: { type: "string" },
      email: { type: "string", readOnly: true },
      claimMatch: { type: "object", required: true, check: checkClaimMatch },
      lastSeenTime: { type: "string", readOnly: true },
      createTime: { type: "string", readOnly: true },
      updateTime: { type: "string", readOnly: true },
    },
    render: (rec) => ({
      uid: rec.uid,
      name: rec.name,
      description: rec.data.description ?? "",
      ...(rec.data.company ? { company: rec.data.company } : {}),
      claimMatch: rec.data.claimMatch,
      lastSeenTime: iso(Number(rec.data.lastSeenTime ?? rec.createTime)),
      createTime: iso(rec.createTime),
      updateTime: iso(rec.updateTime),
    }),
    filters: (params) => {
      // relationship_type is accepted for compatibility; the emulator has one relationship.
      getString(params, "relationship_type");
      return { predicates: [], signature: [] };
    },
  },
  roles: {
    kind: "roles",
    domain: "iam",
    singular: "role",
    parentKind: "groups",
    uniqueNames: true,
    hasUpdateTime: true,
    operations: ["list", "get", "create", "update", "delete"],
    fields: {
      uid: { type: "string", readOnly: true },
      name: { type: "string", required: true },
      description: { type: "string" },
      capabilities: {
        type: "stringArray",
        check: (caps: string[]) =>
          caps.flatMap((c, i) =>
            ALL_CAPABILITIES.includes(c)
              ? []
              : [{ field: `capabilities[${i}]`, description: `unknown capability "${c}"` }],
          ),
      },
      createTime: { type: "string", readOnly: true },
      updateTime: { type: "string", readOnly: true },
    },
    render: (rec) => ({
      uid: rec.uid,
      name: rec.name,
      description: rec.data.description ?? "",
      capabilities: rec.data.capabilities ?? [],
      createTime: iso(rec.createTime),
      updateTime: iso(rec.updateTime),
    }),
  },
  roleBindings: {
    kind: "roleBindings",
    domain: "iam",
    singular: "role binding",
    parentKind: "groups",
    uniqueNames: false,
    hasUpdateTime: false,
    operations: ["list", "get", "create", "update", "delete"],
    fields: {
      uid: { type: "string", readOnly: true },
      identityUid: { type: "string", required: true },
      roleUid: { type: "string", required: true },
      identity: { type: "object", readOnly: true },
      group: { type: "object", readOnly: true },
      role: { type: "object", readOnly: true },
      createTime: { type: "string", readOnly: true },
    },
    render: (rec, store) => {
      const identity = store.of("identities").get(String(rec.data.identityUid));
      const role = store.of("roles").get(String(rec.data.roleUid));
      const claim = (identity?.data.claimMatch ?? {}) as Record<string, unknown>;
      return {
        uid: rec.uid,
        identityUid: rec.data.identityUid,
        roleUid: rec.data.roleUid,
        identity: identity
          ? {
              uid: identity.uid,
              name: identity.name,
              description: textOf(identity.data.description),
              subject: textOf(claim.subject ?? claim.subjectPattern),
              issuer: textOf(claim.issuer ?? claim.issuerPattern),
            }
          : { uid: rec.data.identityUid },
        group: groupSummary(store.of("groups").get(String(rec.parentUid))) ?? { uid: rec.parentUid },
        role: role
          ? { uid: role.uid, name: role.name, description: textOf(role.data.description) }
          : { uid: rec.data.roleUid },
        createTime: iso(rec.createTime),
      };
    },
    filters: (params) => {
      const identity = getString(params, "identity");
      const group = getString(params, "group");
      const role = getString(params, "role");
      const predicates: Array<(rec: Rec) => boolean> = [];
      if (identity) predicates.push((r) => r.data.identityUid === identity);
      if (group) predicates.push((r) => r.parentUid === group);
      if (role) predicates.push((r) => r.data.roleUid === role);
      return { predicates, signature: [identity, group, role] };
    },
  },
  repos: {
    kind: "repos",
    domain: "registry",
    singular: "repo",
    parentKind: "groups",
    uniqueNames: true,
    hasUpdateTime: true,
    operations: ["list", "get", "create", "update", "delete"],
    fields: {
      uid: { type: "string", readOnly: true },
      name: { type: "string", required: true },
      description: { type: "string" },
      catalogTier: { type: "string", empty: "CATALOG_TIER_UNSPECIFIED" },
      bundles: { type: "stringArray" },
      aliases: { type: "stringArray" },
      activeTags: { type: "stringArray" },
      sync: { type: "object" },
      overlay: { type: "object" },
      createTime: { type: "string", readOnly: true },
      updateTime: { type: "string", readOnly: true },
    },
    render: (rec) => ({
      uid: rec.uid,
      name: rec.name,
      description: rec.data.description ?? "",
      catalogTier: rec.data.catalogTier ?? "CATALOG_TIER_UNSPECIFIED",
      bundles: rec.data.bundles ?? [],
      aliases: rec.data.aliases ?? [],
      activeTags: rec.data.activeTags ?? [],
      ...(rec.data.sync ? { sync: rec.data.sync } : {}),
      ...(rec.data.overlay ? { overlay: rec.data.overlay } : {}),
      createTime: iso(rec.createTime),
      updateTime: iso(rec.updateTime),
    }),
  },
  tags: {
    kind: "tags",
    domain: "registry",
    singular: "tag",
    parentKind: "repos",
    uniqueNames: true,
    hasUpdateTime: true,
    operations: ["list", "get", "create", "delete"],
    fields: {
      uid: { type: "string", readOnly: true },
      name: { type: "string", required: true },
      digest: {
        type: "string",
        required: true,
        check: (v: string) =>
          DIGEST_PATTERN.test(v)
            ? []
            : [{ field: "digest", description: "must be sha256: followed by 64 lowercase hex characters" }],
      },
      deprecated: { type: "boolean" },
      bundles: { type: "stringArray" },
      updateTime: { type: "string", readOnly: true },
    },
    render: (rec) => ({
      uid: rec.uid,
      name: rec.name,
      digest: rec.data.digest,
      deprecated: rec.data.deprecated ?? false,
      bundles: rec.data.bundles ?? [],
      updateTime: iso(rec.updateTime),
    }),
    filters: (params) => {
      const digest = getString(params, "digest");
      const since = getTime(params, "updated_since");
      for (const flag of ["include_referrers", "include_dates", "include_epochs"]) getBool(params, flag);
      const predicates: Array<(rec: Rec) => boolean> = [];
      if (digest) predicates.push((r) => r.data.digest === digest);
      if (since !== undefined) predicates.push((r) => r.updateTime >= since);
      return { predicates, signature: [digest, since] };
    },
  },
  advisories: {
    kind: "advisories",
    domain: "vulnerabilities",
    singular: "advisory",
    parentKind: "repos",
    uniqueNames: false,
    hasUpdateTime: true,
    operations: ["list", "get"],
    fields: {},
    render: (rec) => ({
      uid: rec.uid,
      advisoryId: rec.data.advisoryId,
      artifactName: rec.data.artifactName ?? "",
      artifactType: rec.data.artifactType ?? "",
      artifactArchitecture: rec.data.artifactArchitecture ?? "",
      componentName: rec.data.componentName ?? "",
      componentType: rec.data.componentType ?? "",
      componentLocation: rec.data.componentLocation ?? "",
      author: rec.data.author ?? "",
      aliases: rec.data.aliases ?? [],
      events: rec.data.events ?? [],
      severities: rec.data.severities ?? [],
      createTime: iso(rec.createTime),
      updateTime: iso(rec.updateTime),
    }),
    filters: (params) => {
      const predicates: Array<(rec: Rec) => boolean> = [];
      const signature: unknown[] = [];
      const scalar: Array<[string, string]> = [
        ["advisory_ids", "advisoryId"],
        ["artifact_names", "artifactName"],
        ["artifact_types", "artifactType"],
        ["artifact_architectures", "artifactArchitecture"],
        ["component_names", "componentName"],
        ["component_types", "componentType"],
        ["component_locations", "componentLocation"],
      ];
      for (const [param, field] of scalar) {
        const wanted = getList(params, param);
        signature.push(wanted);
        if (wanted) {
          const set = new Set(wanted);
          predicates.push((r) => set.has(textOf(r.data[field])));
        }
      }
      const aliases = getList(params, "aliases");
      if (aliases) predicates.push((r) => anyIn(r.data.aliases, new Set(aliases)));
      const eventTypes = getList(params, "event_types");
      const eventsOf = (r: Rec) => (Array.isArray(r.data.events) ? (r.data.events as Array<{ type?: string }>) : []);
      if (eventTypes) predicates.push((r) => eventsOf(r).some((e) => eventTypes.includes(String(e.type))));
      const latest = getString(params, "latest_event_type");
      if (latest) predicates.push((r) => eventsOf(r).at(-1)?.type === latest);
      const query = getString(params, "query")?.toLowerCase();
      if (query) {
        predicates.push((r) =>
          [
            r.data.advisoryId,
            r.data.artifactName,
            r.data.componentName,
            r.data.description,
            ...((r.data.aliases as string[]) ?? []),
          ].some((v) => textOf(v).toLowerCase().includes(query)),
        );
      }
      signature.push(aliases, eventTypes, latest, query);
      return { predicates, signature };
    },
  },
};

/** Collections per domain, as they appear in paths. */
export function resourceFor(domain: string, collection: string): ResourceDef | undefined {
  const def = (RESOURCES as Record<string, ResourceDef | undefined>)[collection];
  return def && def.domain === domain ? def : undefined;
}
