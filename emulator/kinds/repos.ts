/** Registry repos under a group; deleting one takes its tags, advisories and overlay bindings along. */
import { crud, KindRules } from "./kind";

export const repos: KindRules = {
  capabilities: crud("CAP_REPO"),
  editable: true,
  defaults: {
    description: "",
    catalogTier: "CATALOG_TIER_UNSPECIFIED",
    bundles: [],
    aliases: [],
    activeTags: [],
  },
};
