/**
 * The Terraform provider's spellings in the API's: capability names derived against the API
 * document's enum (resources/iam/enums.ts) with its two respelled groups, v1 tier names, instants.
 */
import { CAPABILITIES } from "../iam/enums";
import { capabilityValue, instant, tierValue } from "./values";

test("capability names: the API's value with or without the service's prefix, and the two respelled groups", () => {
  const cases: Record<string, string> = {
    // Named as the value is.
    "repo.list": "CAP_REPO_LIST",
    "manifest.metadata.list": "CAP_MANIFEST_METADATA_LIST",
    "libraries.rebuilder.builds.tokens.fetch": "CAP_LIBRARIES_REBUILDER_BUILDS_TOKENS_FETCH",
    internal: "CAP_INTERNAL",
    // The value has IAM's prefix.
    "groups.create": "CAP_IAM_GROUPS_CREATE",
    "role_bindings.delete": "CAP_IAM_ROLE_BINDINGS_DELETE",
    "policy.list": "CAP_IAM_POLICY_LIST",
    "identity.update": "CAP_IAM_IDENTITY_UPDATE",
    "identity_providers.create": "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
    "account_associations.list": "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST",
    // The tenant's.
    "clusters.discover": "CAP_TENANT_CLUSTERS_DISCOVER",
    "record_policy_results.list": "CAP_TENANT_RECORD_POLICY_RESULTS_LIST",
    "workloads.list": "CAP_TENANT_WORKLOADS_LIST",
    // Respelled: events' subscriptions in the singular, SCIM under IAM alone.
    "subscriptions.create": "CAP_EVENTS_SUBSCRIPTION_CREATE",
    "subscriptions.delete": "CAP_EVENTS_SUBSCRIPTION_DELETE",
    "identity_providers.scim.manage": "CAP_IAM_SCIM_MANAGE",
    // Not IAM's though a segment is named so.
    "policies.policy.create": "CAP_POLICIES_POLICY_CREATE",
    "registry.entitlements.images.swap": "CAP_REGISTRY_ENTITLEMENTS_IMAGES_SWAP",
  };
  for (const [name, value] of Object.entries(cases)) expect([name, capabilityValue(name)]).toEqual([name, value]);
});

test("every value of the API's enum is some name's: the derivation reaches each one", () => {
  // The inverse of the derivation, for each value: its name by the provider's rule.
  const nameOf = (value: string) =>
    value
      .replace(/^CAP_/, "")
      .replace(/^EVENTS_SUBSCRIPTION_/, "SUBSCRIPTIONS_")
      .replace(/^IAM_SCIM_/, "IDENTITY_PROVIDERS_SCIM_")
      .replace(/^(IAM|TENANT)_/, "")
      .toLowerCase();
  const unreached = CAPABILITIES.filter((value) => {
    const name = nameOf(value);
    // The name's dots are where the value's words split into resource and verb; any split reaches it.
    const words = name.split("_");
    return !words.some(
      (_, i) => capabilityValue([words.slice(0, i + 1).join("_"), ...words.slice(i + 1)].join(".")) === value,
    );
  });
  expect(unreached).toEqual([]);
});

test("a name the API has no value for has none", () => {
  expect(capabilityValue("libraries.remote_registries.list")).toBeUndefined();
  expect(capabilityValue("no.such")).toBeUndefined();
  expect(capabilityValue("repo list")).toBeUndefined();
  expect(capabilityValue("")).toBeUndefined();
});

test("v1 tier names: GA's prefixed value; UNKNOWN is no tier; others are unknown", () => {
  for (const name of ["APPLICATION", "BASE", "FIPS", "AI", "DEVTOOLS", "COMMERCIAL"])
    expect(tierValue(name)).toEqual({ value: `CATALOG_TIER_${name}`, known: true });
  expect(tierValue("UNKNOWN")).toEqual({ known: true });
  expect(tierValue("UNSPECIFIED")).toEqual({ known: false });
  expect(tierValue("GOLD")).toEqual({ known: false });
});

test("instants in any offset compare as one time", () => {
  expect(instant("2031-01-01T00:00:00Z")).toBe(instant("2031-01-01T01:00:00+01:00"));
  expect(instant("2031-01-01T00:00:00.5Z")).toBe(Date.UTC(2031, 0, 1, 0, 0, 0, 500));
  expect(instant("86400s")).toBeUndefined();
  expect(instant("2031-01-01")).toBeUndefined();
});
