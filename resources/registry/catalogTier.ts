/** The documented registry.CatalogTier values (tests hold them equal to the API documents). */
export const CATALOG_TIERS = [
  "CATALOG_TIER_UNSPECIFIED",
  "CATALOG_TIER_APPLICATION",
  "CATALOG_TIER_BASE",
  "CATALOG_TIER_FIPS",
  "CATALOG_TIER_AI",
  "CATALOG_TIER_DEVTOOLS",
  "CATALOG_TIER_COMMERCIAL",
] as const;

export type CatalogTier = (typeof CATALOG_TIERS)[number];
