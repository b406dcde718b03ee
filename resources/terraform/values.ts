/**
 * Values the vendor's Terraform provider spells otherwise than this API, in the API's spelling:
 *
 * - capability names (`repo.list`) are the API's capabilities.Capability values (`CAP_REPO_LIST`)
 *   in lowercase with dots, some without the service's prefix the value has (`groups.create` is
 *   `CAP_IAM_GROUPS_CREATE`, `clusters.list` `CAP_TENANT_CLUSTERS_LIST`). The value is derived:
 *   the one of `CAP_<NAME>`, `CAP_IAM_<NAME>` and `CAP_TENANT_<NAME>` the API document has
 *   (resources/iam/enums.ts, which tests hold equal to it). Two groups of names are spelled
 *   otherwise, and say so below;
 * - repo tiers are the registry's v1 names (`BASE`), which GA v2 prefixes (`CATALOG_TIER_BASE`);
 *   `UNKNOWN` is v2's zero value, no tier;
 * - instants (an invite's `expiration`) are RFC 3339 text in any offset; compared as instants.
 *
 * With vendorProvider.ts, the vendor provider's facts: imported by exporter/, drift/ and native/.
 */
import { CAPABILITIES } from "../iam/enums";
import { CATALOG_TIERS } from "../registry/catalogTier";

/** Name prefixes the API's values spell otherwise: event subscriptions in the singular, SCIM under IAM alone. */
const RESPELLED: ReadonlyArray<readonly [string, string]> = [
  ["subscriptions", "events_subscription"],
  ["identity_providers.scim", "iam_scim"],
];

const SERVICE_PREFIXES = ["", "IAM_", "TENANT_"];

const KNOWN: ReadonlySet<string> = new Set(CAPABILITIES);

/** The API's value of a capability name of the Terraform provider, or undefined when the API has none. */
export function capabilityValue(name: string): string | undefined {
  let spelled = name;
  for (const [prefix, respelled] of RESPELLED)
    if (spelled === prefix || spelled.startsWith(`${prefix}.`)) spelled = respelled + spelled.slice(prefix.length);
  const bare = spelled.toUpperCase().replaceAll(".", "_");
  if (!/^[A-Z0-9_]+$/.test(bare)) return undefined;
  const found = SERVICE_PREFIXES.map((prefix) => `CAP_${prefix}${bare}`).filter((value) => KNOWN.has(value));
  return found.length === 1 ? found[0] : undefined;
}

const TIERS: ReadonlySet<string> = new Set(CATALOG_TIERS);
const NO_TIER = "CATALOG_TIER_UNSPECIFIED";

/**
 * The GA tier of a registry v1 tier name; undefined for `UNKNOWN` (no tier: the record has none)
 * and for a name GA v2 does not have.
 */
export function tierValue(name: string): { value?: string; known: boolean } {
  if (name === "UNKNOWN") return { known: true };
  const value = `CATALOG_TIER_${name}`;
  return TIERS.has(value) && value !== NO_TIER ? { value, known: true } : { known: false };
}

/** An RFC 3339 instant as milliseconds since the epoch, or undefined for other text. */
export function instant(text: unknown): number | undefined {
  if (typeof text !== "string" || !/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(text))
    return undefined;
  const time = Date.parse(text.replace(" ", "T"));
  return Number.isNaN(time) ? undefined : time;
}
