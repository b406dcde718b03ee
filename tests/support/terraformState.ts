/**
 * Terraform states for the migration's tests, written as Terraform writes them, from records made
 * on the emulator:
 *
 * - each record's attributes as the vendor's provider (plugin framework) reads them into its state:
 *   every attribute present, `null` where unset, single nested blocks as an object or `null`, list
 *   blocks as lists, int64s as numbers, capability names and v1 tier names as the provider spells
 *   them, the invite's expiration as an RFC 3339 instant, sensitive values in plain text;
 * - a configuration's resources (`module`, mode, type, name, provider configuration with its
 *   alias, instances by `count` or `for_each` key, tainted and deposed objects) in both forms:
 *   `terraform.tfstate` (format version 4) and `terraform show -json` (format version 1.0).
 *
 * Written here from the Terraform documents' layout, apart from the migration's own reader.
 */
import type { RunningEmulator } from "../../emulator";

export const VENDOR = "registry.terraform.io/chainguard-dev/chainguard";

export type Key = number | string;

export interface TfInstance {
  key?: Key;
  attributes: Record<string, unknown>;
  /** Paths (of attribute names) of sensitive values. */
  sensitive?: string[][];
  tainted?: boolean;
  deposed?: string;
  dependencies?: string[];
}

export interface TfResource {
  /** The module's address as Terraform writes it (`module.teams`, `module.region["eu"].module.teams`), if any. */
  module?: string;
  mode?: "managed" | "data";
  type: string;
  name: string;
  /** The provider's registry address (default: the vendor's). */
  provider?: string;
  /** The configuration's alias of the provider, if any. */
  alias?: string;
  instances: TfInstance[];
}

/** HCL's quoted string, as Terraform writes a for_each key in an address. */
export function quoted(text: string): string {
  let out = "";
  const chars = [...text];
  chars.forEach((char, i) => {
    if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if ((char === "$" || char === "%") && chars[i + 1] === "{") out += char + char;
    else if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]|[\p{Zs}]/u.test(char) && char !== " ")
      out += `\\u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`;
    else out += char;
  });
  return `"${out}"`;
}

export function addressOf(resource: TfResource, key?: Key): string {
  const own = `${resource.mode === "data" ? "data." : ""}${resource.type}.${resource.name}${
    key === undefined ? "" : typeof key === "number" ? `[${key}]` : `[${quoted(key)}]`
  }`;
  return resource.module ? `${resource.module}.${own}` : own;
}

/** The sensitive paths as format 4 keeps them. */
const sensitiveAttributes = (paths: string[][] = []) =>
  paths.map((path) => path.map((step) => ({ type: "get_attr", value: step })));

/** A terraform.tfstate (format version 4), resources in the order Terraform writes them. */
export function tfstate(resources: readonly TfResource[], serial = 7): string {
  const sorted = [...resources].sort((a, b) =>
    [a.module ?? "", a.mode ?? "managed", a.type, a.name].join("\0") <
    [b.module ?? "", b.mode ?? "managed", b.type, b.name].join("\0")
      ? -1
      : 1,
  );
  const state = {
    version: 4,
    terraform_version: "1.9.8",
    serial,
    lineage: "4a1c5c1e-2b0e-4d8e-9a53-0c1f5d0f7e21",
    outputs: {},
    resources: sorted.map((resource) => ({
      ...(resource.module ? { module: resource.module } : {}),
      mode: resource.mode ?? "managed",
      type: resource.type,
      name: resource.name,
      provider: `provider[${JSON.stringify(resource.provider ?? VENDOR)}]${resource.alias ? `.${resource.alias}` : ""}`,
      instances: resource.instances.map((instance) => ({
        ...(instance.key === undefined ? {} : { index_key: instance.key }),
        ...(instance.tainted ? { status: "tainted" } : {}),
        ...(instance.deposed ? { deposed: instance.deposed } : {}),
        schema_version: 0,
        attributes: instance.attributes,
        sensitive_attributes: sensitiveAttributes(instance.sensitive),
        ...(resource.mode === "data" ? {} : { private: "bnVsbA==" }),
        ...(instance.dependencies ? { dependencies: instance.dependencies } : {}),
      })),
    })),
    check_results: null,
  };
  return JSON.stringify(state, null, 2) + "\n";
}

/** The mirror `terraform show -json` gives of sensitive values: `true` where one is. */
function sensitiveValues(paths: string[][] = [], values: Record<string, unknown>): Record<string, unknown> {
  const mirror: Record<string, unknown> = {};
  // Every nested block and list has its (empty) mirror, as Terraform writes it.
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) mirror[name] = value.map((item) => (typeof item === "object" && item ? {} : false));
    else if (typeof value === "object" && value !== null) mirror[name] = {};
  }
  for (const path of paths) {
    let at = mirror;
    path.forEach((step, i) => {
      if (i === path.length - 1) at[step] = true;
      else at = (at[step] ??= {}) as Record<string, unknown>;
    });
  }
  return mirror;
}

/** `terraform show -json` of the same state (format version 1.0): modules nested, each resource one instance. */
export function showJson(resources: readonly TfResource[]): string {
  interface Module {
    address?: string;
    resources: unknown[];
    child_modules?: Module[];
  }
  const root: Module = { resources: [] };
  const modules = new Map<string, Module>([["", root]]);
  const moduleOf = (address: string): Module => {
    const known = modules.get(address);
    if (known) return known;
    // The parent of `module.a["k"].module.b` is `module.a["k"]`.
    const cut = address.lastIndexOf(".module.");
    const parent = moduleOf(cut === -1 ? "" : address.slice(0, cut));
    const made: Module = { resources: [], address };
    (parent.child_modules ??= []).push(made);
    modules.set(address, made);
    return made;
  };
  for (const resource of resources) {
    const module = moduleOf(resource.module ?? "");
    for (const instance of resource.instances) {
      module.resources.push({
        address: addressOf(resource, instance.key),
        mode: resource.mode ?? "managed",
        type: resource.type,
        name: resource.name,
        ...(instance.key === undefined ? {} : { index: instance.key }),
        provider_name: resource.provider ?? VENDOR,
        schema_version: 0,
        values: instance.attributes,
        sensitive_values: sensitiveValues(instance.sensitive, instance.attributes),
        ...(instance.dependencies ? { depends_on: instance.dependencies } : {}),
        ...(instance.tainted ? { tainted: true } : {}),
        ...(instance.deposed ? { deposed_key: instance.deposed } : {}),
      });
    }
  }
  const byAddress = (a: { address?: string }, b: { address?: string }) =>
    (a.address ?? "") < (b.address ?? "") ? -1 : 1;
  for (const module of modules.values()) {
    module.resources.sort((a, b) => byAddress(a as { address: string }, b as { address: string }));
    module.child_modules?.sort(byAddress);
  }
  return (
    JSON.stringify({
      format_version: "1.0",
      terraform_version: "1.9.8",
      values: { outputs: {}, root_module: root },
    }) + "\n"
  );
}

/** The names the vendor's provider gives the capabilities these tests grant. */
export const CAPABILITY_NAMES: Readonly<Record<string, string>> = {
  CAP_IAM_GROUPS_LIST: "groups.list",
  CAP_REPO_LIST: "repo.list",
  CAP_TAG_CREATE: "tag.create",
  CAP_EVENTS_SUBSCRIPTION_CREATE: "subscriptions.create",
  CAP_IAM_SCIM_MANAGE: "identity_providers.scim.manage",
  CAP_TENANT_CLUSTERS_LIST: "clusters.list",
};

/** v2's tiers by the registry v1 names the provider keeps. */
const TIER_NAMES: Readonly<Record<string, string>> = {
  CATALOG_TIER_BASE: "BASE",
  CATALOG_TIER_APPLICATION: "APPLICATION",
  CATALOG_TIER_FIPS: "FIPS",
};

type Rec = Record<string, any>;
const or = <T>(value: T | undefined | "", fallback: unknown = null) =>
  value === undefined || value === "" ? fallback : value;
const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));

/**
 * A record's attributes as the vendor's provider reads them into its state; `applied` holds what only
 * its configuration had.
 */
export function attributesOf(type: string, record: Rec, applied: Rec = {}): Record<string, unknown> {
  switch (type) {
    case "chainguard_group":
      return {
        id: record.uid,
        name: record.name,
        parent_id: parentOf(record.uid),
        description: or(record.description),
        verified: record.verified ?? false,
        verified_protection: applied.verified_protection ?? null,
        kind: null,
        resource_limits: null,
      };
    case "chainguard_identity": {
      const claim = record.claimMatch as Rec | undefined;
      const aws = record.awsIdentity as Rec | undefined;
      const keys = record.staticKeys as Rec | undefined;
      return {
        id: record.uid,
        parent_id: parentOf(record.uid),
        name: record.name,
        description: or(record.description),
        created_at: or(record.createTime),
        updated_at: or(record.updateTime),
        last_seen: null,
        service_principal: or(record.servicePrincipal),
        aws_identity: aws
          ? {
              aws_account: aws.awsAccount,
              aws_user_id: or(aws.userId),
              aws_user_id_pattern: or(aws.userIdPattern),
              aws_arn: or(aws.arn),
              aws_arn_pattern: or(aws.arnPattern),
            }
          : null,
        claim_match: claim
          ? {
              issuer: or(claim.issuer),
              issuer_pattern: or(claim.issuerPattern),
              subject: or(claim.subject),
              subject_pattern: or(claim.subjectPattern),
              audience: or(claim.audience),
              audience_pattern: or(claim.audiencePattern),
              claims: or(claim.claims),
              claim_patterns: or(claim.claimPatterns),
            }
          : null,
        static: keys
          ? {
              issuer: keys.issuer,
              subject: keys.subject,
              issuer_keys: keys.issuerKeys,
              expiration: keys.expirationTime,
            }
          : null,
      };
    }
    case "chainguard_identity_provider": {
      const oidc = record.oidc as Rec;
      return {
        id: record.uid,
        parent_id: parentOf(record.uid),
        name: record.name,
        description: or(record.description),
        default_role: record.defaultRole,
        oidc: {
          issuer: oidc.issuer,
          client_id: oidc.clientId,
          // Never answered by the service: the state keeps what was applied.
          client_secret: applied.client_secret,
          additional_scopes: or(oidc.additionalScopes),
        },
      };
    }
    case "chainguard_role":
      return {
        id: record.uid,
        parent_id: applied.parent_id,
        name: record.name,
        description: or(record.description),
        capabilities: (record.capabilities as string[]).map((value) => CAPABILITY_NAMES[value] ?? value),
      };
    case "chainguard_rolebinding":
      return { id: record.uid, group: parentOf(record.uid), identity: record.identityUid, role: record.roleUid };
    case "chainguard_group_invite":
      return {
        id: record.uid,
        group: parentOf(record.uid),
        expiration: record.expirationTime,
        role: record.roleUid,
        email: or(record.email),
        code: applied.code,
      };
    case "chainguard_account_associations": {
      const github = record.github as Rec | undefined;
      const installations = Object.entries((github?.appInstallations ?? {}) as Record<string, Rec>).flatMap(
        ([app, entry]) =>
          (entry.installations as Rec[]).map((i) => ({
            app_id: Number(app),
            installation_id: Number(i.installationId),
            name: or(i.name),
          })),
      );
      return {
        id: record.uid,
        name: record.name,
        description: or(record.description),
        group: record.uid,
        amazon: record.amazon ? { account: record.amazon.account } : null,
        google: record.google
          ? { project_id: record.google.projectId, project_number: record.google.projectNumber }
          : null,
        azure: record.azure ? { tenant_id: record.azure.tenantId, client_ids: record.azure.clientIds } : null,
        chainguard: record.chainguard ? { service_bindings: record.chainguard.serviceBindings } : null,
        github: null,
        github_installation: installations,
      };
    }
    case "chainguard_subscription":
      return { id: record.uid, parent_id: parentOf(record.uid), sink: record.sink };
    case "chainguard_image_repo": {
      const sync = record.sync_config as Rec | undefined;
      return {
        id: record.uid,
        name: record.name,
        parent_id: parentOf(record.uid),
        bundles: or(record.bundles),
        aliases: or(record.aliases),
        active_tags: or(record.activeTags),
        readme: applied.readme ?? null,
        description: or(record.description),
        tier: record.catalogTier ? (TIER_NAMES[record.catalogTier as string] ?? "UNKNOWN") : null,
        create_time: or(record.createTime),
        sync_config: sync
          ? {
              source: sync.source,
              expiration: or(sync.expirationTime),
              unique_tags: sync.uniqueTags ?? false,
              grace_period: sync.gracePeriod ?? false,
              amazon: or(sync.amazon),
              google: or(sync.google),
              azure: or(sync.azure),
              apko_overlay: or(sync.apkoOverlay),
            }
          : null,
      };
    }
    case "chainguard_image_tag":
      return {
        id: record.uid,
        name: record.name,
        repo_id: parentOf(record.uid),
        bundles: or(record.bundles),
        digest: record.digest,
        deprecated: record.deprecated ?? false,
        last_updated: or(record.updateTime),
      };
    default:
      throw new Error(`no attributes for ${type}`);
  }
}

/** The emulator's API, as a Terraform provider's calls would reach it. */
export function apiOf(emu: Pick<RunningEmulator, "url" | "token">) {
  const request = async <T = Rec>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${emu.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${emu.token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
  return {
    request,
    post: async (path: string, body: unknown) => (await request<Rec>("POST", path, body)) as Rec & { uid: string },
    get: (path: string) => request<Rec>("GET", path),
  };
}
