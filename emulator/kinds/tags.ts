/**
 * Tags of a repo. Referrer tags (`sha256-<hex>.sig`, `.att`, `.sbom`: signatures and
 * attestations attached to a digest) are listed only with includeReferrers=true, tags of a
 * build date (`<anything>-20yymmdd`) only with includeDates=true, and tags of an epoch
 * (`<anything>-r<n>`) only with includeEpochs=true.
 */
import { getBool, getString, getTime, Params } from "../params";
import { Collection, Rec } from "../store";
import { crud, KindRules, ListFilters } from "./kind";

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
export const REFERRER_TAG = /^sha256-[0-9a-f]{64}\.[a-z]+$/;
const REFERRER_PREFIX = "sha256-";
/** A tag naming a build's date, as the documents give the form: `*-20yymmdd`. */
export const DATE_TAG = /-20\d{6}$/;
/** A tag naming a package's epoch (its rebuild number), as the documents give the form: `*-r[0-9]+`. */
export const EPOCH_TAG = /-r\d+$/;

/** Whether any tag name is a referrer's, found in the name index without a scan. */
function hasReferrers(tags: Collection): boolean {
  const index = tags.indexes.name;
  const at = index.lowerBound(REFERRER_PREFIX, "");
  return at < index.length && index.items[at].name.startsWith(REFERRER_PREFIX);
}

function tagFilters(params: Params, tags: Collection): ListFilters {
  {
    const digest = getString(params, "digest");
    const since = getTime(params, "updated_since");
    const referrers = getBool(params, "include_referrers") === true;
    const hideDates = getBool(params, "include_dates") !== true;
    const hideEpochs = getBool(params, "include_epochs") !== true;
    const predicates: Array<(rec: Rec) => boolean> = [];
    if (digest) predicates.push((r) => r.data.digest === digest);
    if (since !== undefined) predicates.push((r) => r.updateTime >= since);
    const hideReferrers = !referrers && hasReferrers(tags);
    if (hideReferrers) predicates.push((r) => !REFERRER_TAG.test(r.name));
    if (hideDates) predicates.push((r) => !DATE_TAG.test(r.name));
    if (hideEpochs) predicates.push((r) => !EPOCH_TAG.test(r.name));
    return { predicates, signature: [digest, since, hideReferrers, hideDates, hideEpochs] };
  }
}

export const tags: KindRules = {
  parentKind: "repos",
  capabilities: crud("CAP_TAG"),
  editable: true,
  check: (values) =>
    typeof values.digest === "string" && !DIGEST_PATTERN.test(values.digest)
      ? [{ field: "digest", description: "must be sha256: followed by 64 lowercase hex characters" }]
      : [],
  defaults: { deprecated: false, bundles: [] },
  filters: (params, store) => tagFilters(params, store.of("tags")),
};
