/**
 * What the vendor's Terraform provider (registry.terraform.io/chainguard-dev/chainguard, v0.4.x,
 * plugin framework) keeps in a state, restated for migrating to this package: one entry per
 * resource type, naming the kind of this package it is a record of, each attribute with its
 * Terraform schema and where the record holds it (`field`, a path of the kind's outputs) or why
 * nothing does (`none`), what is sensitive, and what the provider's schema requires. Every type's
 * `id` is its record's uid; no schema version is above 0. The only place a Terraform type is named.
 *
 * Imported by exporter/ (the migration), drift/ (a state as a source) and native/ (the mapping
 * Pulumi's converters ask for); it imports nothing but resources/ itself.
 */

/** The provider's registry address, as a state names it (lowercase). */
export const VENDOR_PROVIDER = "registry.terraform.io/chainguard-dev/chainguard";
/** Its name, the prefix of its types: what Pulumi's converters ask a mapping for. */
export const VENDOR_PROVIDER_NAME = "chainguard";
/** The release whose schema this table restates. */
export const VENDOR_PROVIDER_VERSION = "0.4.1";

export type TerraformValue =
  | "string"
  | "bool"
  | "int"
  | { list: TerraformValue }
  | { set: TerraformValue }
  | { map: TerraformValue }
  /** A single nested block: an object, or null when the configuration has none. */
  | { block: Attributes }
  /** A list nested block: a list of objects. */
  | { blocks: Attributes };

export type Attributes = Readonly<Record<string, TerraformAttribute>>;

export interface TerraformAttribute {
  value: TerraformValue;
  use: "required" | "optional" | "computed" | "optional+computed";
  /** A change makes Terraform replace the record. */
  forceNew?: boolean;
  /** Terraform keeps it in the state in plain text but shows it nowhere. */
  sensitive?: boolean;
  deprecated?: string;
  /** Where the record holds it: a path of the kind's outputs (`parentUid`, `syncState.uniqueTags`). */
  field?: string;
  /** How the record spells the state's value where they differ (a capability's name → its API value). */
  spelled?: "capabilities" | "tier" | "instant" | "number";
  /** No field of the record holds it: what a migration does with it. */
  none?: string;
}

export interface ManagedType {
  /** The kind's type token after the package: `iam:Group`. */
  kind: string;
  attributes: Attributes;
  /**
   * Where the state's blocks build one field of the record together (an account association's
   * `github` and `github_installation` blocks are its `github.appInstallations`).
   */
  combined?: { field: string; from: readonly string[]; build: (attributes: Record<string, unknown>) => unknown };
  /** Attributes of which the provider's schema requires one (`exactly`) or at least one to be set. */
  oneOf?: { attributes: readonly string[]; exactly: boolean };
  /**
   * An instance without this (optional) attribute is a record no program of this package declares
   * (a group with no parent is a root organization): why.
   */
  rootWithout?: { attribute: string; why: string };
}

/**
 * The entry of a managed type, or why an instance of it cannot be migrated: a type of the provider
 * whose records this package does not manage, or one the table does not know.
 */
export function managedType(type: string): { managed: ManagedType } | { why: string } {
  const managed = Object.hasOwn(MANAGED_TYPES, type) ? MANAGED_TYPES[type] : undefined;
  if (managed) return { managed };
  const release = VENDOR_PROVIDER_VERSION.split(".").slice(0, 2).join(".");
  return {
    why:
      (Object.hasOwn(UNMANAGED_TYPES, type) ? UNMANAGED_TYPES[type] : undefined) ??
      `a type this package does not know (the vendor's provider v${release} has no ${type})`,
  };
}

/** Why an instance is a record no program of this package declares (a root organization), if it is one. */
export function rootOf(type: ManagedType, attributes: Record<string, unknown>): string | undefined {
  return type.rootWithout && typeof attributes[type.rootWithout.attribute] !== "string"
    ? type.rootWithout.why
    : undefined;
}

/** The attribute (a dotted path: `oidc.client_secret`) that holds a field of the record, if one does. */
export function attributeOf(type: ManagedType, field: string): string | undefined {
  const find = (attributes: Attributes, path: string): string | undefined => {
    for (const [name, attribute] of Object.entries(attributes)) {
      const at = path ? `${path}.${name}` : name;
      if (attribute.none === undefined && attribute.field === field) return at;
      const value = attribute.value;
      if (typeof value === "object" && "block" in value) {
        const found = find(value.block, at);
        if (found) return found;
      }
    }
    return undefined;
  };
  return find(type.attributes, "");
}

/** Whether a state leaves a value out: absent, null, or (for a text) empty. */
const unset = (value: unknown) => value === undefined || value === null || value === "";

/**
 * What an instance's attributes lack that the provider's schema requires (each required
 * attribute, and a one-of), said by attribute name: a state the provider wrote has none of these.
 */
export function missingRequired(type: ManagedType, attributes: Record<string, unknown>): string[] {
  const missing = Object.entries(type.attributes)
    .filter(([name, attribute]) => attribute.use === "required" && unset(attributes[name]))
    .map(([name]) => name);
  if (type.oneOf) {
    // An empty list of blocks sets none.
    const set = type.oneOf.attributes.filter(
      (name) => !unset(attributes[name]) && !(Array.isArray(attributes[name]) && attributes[name].length === 0),
    );
    const list = type.oneOf.attributes.join(", ");
    if (set.length === 0) missing.push(`${type.oneOf.exactly ? "exactly" : "at least"} one of ${list}`);
    else if (type.oneOf.exactly && set.length > 1) missing.push(`exactly one of ${list} (it has ${set.join(", ")})`);
  }
  return missing;
}

const attribute = (
  value: TerraformValue,
  use: TerraformAttribute["use"],
  rest: Omit<TerraformAttribute, "value" | "use"> = {},
): TerraformAttribute => ({ value, use, ...rest });

const id = () => attribute("string", "computed", { field: "uid" });
const parent = (field = "parentUid") => attribute("string", "required", { forceNew: true, field });
const name = () => attribute("string", "required", { field: "name" });
const description = () => attribute("string", "optional", { field: "description" });

export const MANAGED_TYPES: Readonly<Record<string, ManagedType>> = {
  chainguard_group: {
    kind: "iam:Group",
    attributes: {
      id: id(),
      name: name(),
      parent_id: attribute("string", "optional", { forceNew: true, field: "parentUid" }),
      description: description(),
      verified: attribute("bool", "optional", { field: "verified" }),
      verified_protection: attribute("bool", "optional", {
        none:
          "a guard of the Terraform provider (it refuses to unset `verified`); a program of this package never " +
          "changes `verified`, so nothing is declared",
      }),
      kind: attribute("string", "optional+computed", { field: "kind" }),
      resource_limits: attribute({ map: "int" }, "computed", { field: "resourceLimits" }),
    },
    rootWithout: {
      attribute: "parent_id",
      why: "a root organization (no parent_id): a program of this package declares groups below one, not one",
    },
  },
  chainguard_identity: {
    kind: "iam:Identity",
    attributes: {
      id: id(),
      parent_id: parent(),
      name: name(),
      description: description(),
      created_at: attribute("string", "computed", { field: "createTime" }),
      updated_at: attribute("string", "computed", { field: "updateTime" }),
      last_seen: attribute("string", "computed", { field: "lastSeenTime" }),
      service_principal: attribute("string", "optional", { forceNew: true, field: "servicePrincipal" }),
      aws_identity: attribute(
        {
          block: {
            aws_account: attribute("string", "optional", { field: "awsIdentity.awsAccount" }),
            aws_user_id: attribute("string", "optional", { field: "awsIdentity.userId" }),
            aws_user_id_pattern: attribute("string", "optional", { field: "awsIdentity.userIdPattern" }),
            aws_arn: attribute("string", "optional", { field: "awsIdentity.arn" }),
            aws_arn_pattern: attribute("string", "optional", { field: "awsIdentity.arnPattern" }),
          },
        },
        "optional",
        { field: "awsIdentity" },
      ),
      claim_match: attribute(
        {
          block: {
            issuer: attribute("string", "optional", { field: "claimMatch.issuer" }),
            issuer_pattern: attribute("string", "optional", { field: "claimMatch.issuerPattern" }),
            subject: attribute("string", "optional", { field: "claimMatch.subject" }),
            subject_pattern: attribute("string", "optional", { field: "claimMatch.subjectPattern" }),
            audience: attribute("string", "optional", { field: "claimMatch.audience" }),
            audience_pattern: attribute("string", "optional", { field: "claimMatch.audiencePattern" }),
            claims: attribute({ map: "string" }, "optional", { field: "claimMatch.claims" }),
            claim_patterns: attribute({ map: "string" }, "optional", { field: "claimMatch.claimPatterns" }),
          },
        },
        "optional",
        { field: "claimMatch" },
      ),
      static: attribute(
        {
          block: {
            issuer: attribute("string", "optional", { field: "staticKeys.issuer" }),
            subject: attribute("string", "optional", { field: "staticKeys.subject" }),
            issuer_keys: attribute("string", "optional", { field: "staticKeys.issuerKeys" }),
            expiration: attribute("string", "optional", { field: "staticKeys.expirationTime", spelled: "instant" }),
          },
        },
        "optional",
        { forceNew: true, field: "staticKeys" },
      ),
    },
    oneOf: { attributes: ["service_principal", "aws_identity", "claim_match", "static"], exactly: true },
  },
  chainguard_identity_provider: {
    kind: "iam:IdentityProvider",
    attributes: {
      id: id(),
      parent_id: parent(),
      name: name(),
      description: description(),
      default_role: attribute("string", "required", { field: "defaultRole" }),
      oidc: attribute(
        {
          block: {
            issuer: attribute("string", "optional", { field: "oidc.issuer" }),
            client_id: attribute("string", "optional", { field: "oidc.clientId" }),
            client_secret: attribute("string", "optional", { sensitive: true, field: "oidc.clientSecret" }),
            additional_scopes: attribute({ list: "string" }, "optional", { field: "oidc.additionalScopes" }),
          },
        },
        "optional",
        { field: "oidc" },
      ),
    },
  },
  chainguard_role: {
    kind: "iam:Role",
    attributes: {
      id: id(),
      parent_id: parent(),
      name: name(),
      description: description(),
      capabilities: attribute({ set: "string" }, "required", { field: "capabilities", spelled: "capabilities" }),
    },
  },
  chainguard_rolebinding: {
    kind: "iam:RoleBinding",
    attributes: {
      id: id(),
      group: parent("groupUid"),
      identity: attribute("string", "required", { field: "identityUid" }),
      role: attribute("string", "required", { field: "roleUid" }),
    },
  },
  chainguard_group_invite: {
    kind: "iam:GroupInvite",
    attributes: {
      id: id(),
      group: parent("groupUid"),
      // The kind takes the invite's ttl, which the record holds; the instant is its expirationTime.
      expiration: attribute("string", "required", { forceNew: true, field: "expirationTime", spelled: "instant" }),
      role: attribute("string", "required", { forceNew: true, field: "roleUid" }),
      email: attribute("string", "optional", { forceNew: true, field: "email" }),
      code: attribute("string", "computed", {
        sensitive: true,
        none:
          "the service answers an invite's code only to its create: never read from the state, and an invite " +
          "taken over by a program has none (replace it for a new code)",
      }),
    },
  },
  chainguard_account_associations: {
    kind: "iam:AccountAssociation",
    attributes: {
      id: id(),
      name: name(),
      description: description(),
      group: parent("groupUid"),
      amazon: attribute(
        { block: { account: attribute("string", "optional", { field: "amazon.account" }) } },
        "optional",
        { field: "amazon" },
      ),
      google: attribute(
        {
          block: {
            project_id: attribute("string", "optional", { field: "google.projectId" }),
            project_number: attribute("string", "optional", { field: "google.projectNumber" }),
          },
        },
        "optional",
        { field: "google" },
      ),
      azure: attribute(
        {
          block: {
            tenant_id: attribute("string", "optional", { field: "azure.tenantId" }),
            client_ids: attribute({ map: "string" }, "optional", { field: "azure.clientIds" }),
          },
        },
        "optional",
        { field: "azure" },
      ),
      chainguard: attribute(
        {
          block: {
            service_bindings: attribute({ map: "string" }, "optional", { field: "chainguard.serviceBindings" }),
          },
        },
        "optional",
        { field: "chainguard" },
      ),
      github: attribute(
        {
          block: {
            host: attribute("string", "computed", {
              deprecated: "no longer answered by the API",
              none: "no longer answered by the API: left out",
            }),
            app_id: attribute("int", "optional+computed", { field: "github.appInstallations" }),
            installation_id: attribute("int", "optional", { field: "github.appInstallations" }),
            name: attribute("string", "optional", { field: "github.appInstallations" }),
          },
        },
        "optional",
        { deprecated: "use github_installation blocks", field: "github" },
      ),
      github_installation: attribute(
        {
          blocks: {
            app_id: attribute("int", "required", { field: "github.appInstallations" }),
            installation_id: attribute("int", "required", { field: "github.appInstallations" }),
            name: attribute("string", "optional", { field: "github.appInstallations" }),
          },
        },
        "optional",
        { field: "github" },
      ),
    },
    oneOf: {
      attributes: ["amazon", "google", "azure", "chainguard", "github", "github_installation"],
      exactly: false,
    },
    // Installations by app id, each app's in the order the blocks give them.
    combined: {
      field: "github",
      from: ["github", "github_installation"],
      build: (attributes) => {
        const single = attributes.github;
        const listed: unknown[] = Array.isArray(attributes.github_installation) ? attributes.github_installation : [];
        const blocks = [single, ...listed].filter(isObject);
        if (blocks.length === 0) return undefined;
        const appInstallations: Record<string, { installations: Array<Record<string, string>> }> = {};
        for (const block of blocks) {
          const app = digits(block.app_id);
          appInstallations[app] ??= { installations: [] };
          appInstallations[app].installations.push({
            installationId: digits(block.installation_id),
            ...(typeof block.name === "string" && block.name !== "" ? { name: block.name } : {}),
          });
        }
        return { appInstallations };
      },
    },
  },
  chainguard_subscription: {
    kind: "events:Subscription",
    attributes: {
      id: id(),
      parent_id: parent(),
      sink: attribute("string", "required", { forceNew: true, field: "sink" }),
    },
  },
  chainguard_image_repo: {
    kind: "registry:Repo",
    attributes: {
      id: id(),
      name: name(),
      parent_id: parent(),
      bundles: attribute({ list: "string" }, "optional", { field: "bundles" }),
      aliases: attribute({ list: "string" }, "optional", { field: "aliases" }),
      active_tags: attribute({ list: "string" }, "optional", { field: "activeTags" }),
      readme: attribute("string", "optional", {
        none:
          "a document of its own in this API: a migrated repo does not declare it, so the readme stays as it is and " +
          "is not managed (declaring `readme` manages it; the first `up` then writes it once)",
      }),
      description: description(),
      tier: attribute("string", "optional", { field: "catalogTier", spelled: "tier" }),
      create_time: attribute("string", "computed", { field: "createTime" }),
      sync_config: attribute(
        {
          block: {
            source: attribute("string", "optional", { field: "syncConfig.source" }),
            expiration: attribute("string", "optional+computed", {
              field: "syncState.expirationTime",
              spelled: "instant",
            }),
            unique_tags: attribute("bool", "computed", { field: "syncState.uniqueTags" }),
            grace_period: attribute("bool", "optional+computed", { field: "syncState.gracePeriod" }),
            amazon: attribute("string", "optional", { field: "syncConfig.amazon" }),
            google: attribute("string", "optional", { field: "syncConfig.google" }),
            azure: attribute("string", "optional", { field: "syncConfig.azure" }),
            apko_overlay: attribute("string", "optional", { field: "syncState.apkoOverlay" }),
          },
        },
        "optional",
        { field: "syncConfig" },
      ),
    },
  },
  chainguard_image_tag: {
    kind: "registry:Tag",
    attributes: {
      id: id(),
      name: name(),
      repo_id: parent("repoUid"),
      bundles: attribute({ list: "string" }, "optional", { field: "bundles" }),
      digest: attribute("string", "computed", { field: "digest" }),
      deprecated: attribute("bool", "optional+computed", { field: "deprecated" }),
      last_updated: attribute("string", "computed", { field: "updateTime" }),
    },
  },
};

/** Types of the vendor's provider, present or past, whose records no kind of this package manages: why. */
export const UNMANAGED_TYPES: Readonly<Record<string, string>> = {
  chainguard_image_repo_deployment:
    "a repo's Helm chart deployments, which this package does not manage (the API it manages has no such records)",
  chainguard_apko_build: "an apko image build (its id is a build report's), which this package does not manage",
  chainguard_policy: "a type the vendor's provider no longer has, whose records this package does not manage",
  chainguard_sigstore: "a type the vendor's provider no longer has, whose records this package does not manage",
};

/** The provider's data sources (mode `data`), past ones included, and the function of this package each is like. */
export const DATA_SOURCES: Readonly<Record<string, string | undefined>> = {
  chainguard_group: "iam:getGroup",
  chainguard_identity: "iam:getIdentity",
  chainguard_role: "iam:getRole",
  chainguard_image_repo: "registry:getRepo",
  chainguard_image_repos: "registry:getRepos",
  chainguard_versions: undefined,
  chainguard_cluster_cidr: undefined,
  chainguard_cluster_discovery: undefined,
};

/** An int64 as the API's JSON spells it: digits in a string. */
const digits = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "");

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
