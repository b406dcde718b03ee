/** Vulnerability advisories of a repo's image: read-only, with filters on their fields and events. */
import { getList, getString, textOf } from "../params";
import { Rec } from "../store";
import { AdvisoryEvent, eventMatches, shortEvent } from "./advisoryEvents";
import { crud, KindRules } from "./kind";

function anyIn(values: unknown, wanted: Set<string>): boolean {
  return Array.isArray(values) && values.some((v) => wanted.has(String(v)));
}

const eventsOf = (r: Rec) => (Array.isArray(r.data.events) ? (r.data.events as AdvisoryEvent[]) : []);

/** The most recent event a reviewer approved (one that tells no review state counts as approved). */
function latestApproved(r: Rec): AdvisoryEvent | undefined {
  const events = eventsOf(r);
  for (let i = events.length - 1; i >= 0; i--)
    if (events[i].reviewState === undefined || events[i].reviewState === "REVIEW_STATE_APPROVED") return events[i];
  return undefined;
}

/**
 * Whether a package has this origin: it is the origin package itself, or one of its subpackages,
 * which the emulator recognises by the distribution's naming (`openssl-dev` of `openssl`).
 */
function isOfOrigin(artifactName: string, origin: string): boolean {
  return artifactName === origin || artifactName.startsWith(`${origin}-`);
}

export const advisories: KindRules = {
  parentKind: "repos",
  capabilities: crud("CAP_ADVISORIES"),
  // Only advisories migrated from a GitHub advisory repository carry a legacyAdvisoryId: no default.
  defaults: {
    artifactName: "",
    artifactType: "",
    artifactArchitecture: "",
    componentName: "",
    componentType: "",
    componentLocation: "",
    author: "",
    aliases: [],
    severities: [],
  },
  // Clients written against the seed scope read the older short form of events (an option).
  derived: (rec, { store }) => ({
    events: store.legacyAdvisoryEvents ? eventsOf(rec).map(shortEvent) : eventsOf(rec),
  }),
  filters: (params) => {
    const predicates: Array<(rec: Rec) => boolean> = [];
    const signature: unknown[] = [];
    const scalar: Array<[string, string]> = [
      ["advisory_ids", "advisoryId"],
      ["legacy_advisory_ids", "legacyAdvisoryId"],
      ["artifact_names", "artifactName"],
      ["artifact_types", "artifactType"],
      ["artifact_architectures", "artifactArchitecture"],
      ["component_names", "componentName"],
      ["component_types", "componentType"],
      ["component_locations", "componentLocation"],
    ];
    // An origin names a package and its subpackages, which the service resolves itself: the
    // artifact names it asks for are then left aside, as the documents say.
    const origin = getString(params, "origin");
    if (origin) predicates.push((r) => isOfOrigin(textOf(r.data.artifactName), origin));
    signature.push(origin);
    for (const [param, field] of scalar) {
      if (origin && param === "artifact_names") continue;
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
    if (eventTypes) predicates.push((r) => eventsOf(r).some((e) => eventTypes.some((t) => eventMatches(e, t))));
    // Of the events, what each one says: at least one in the asked review states, by the asked
    // authors, reviewed by the asked reviewers; none by the excluded authors.
    const someEvent = (param: string, field: "reviewState" | "author" | "reviewer") => {
      const wanted = getList(params, param);
      signature.push(wanted);
      if (wanted) predicates.push((r) => eventsOf(r).some((e) => wanted.includes(textOf(e[field]))));
    };
    someEvent("event_review_states", "reviewState");
    someEvent("event_authors", "author");
    someEvent("event_reviewers", "reviewer");
    const excluded = getList(params, "exclude_event_authors");
    if (excluded) predicates.push((r) => !eventsOf(r).some((e) => excluded.includes(textOf(e.author))));
    const latest = getString(params, "latest_event_type");
    if (latest && latest !== "EVENT_TYPE_FILTER_UNSPECIFIED")
      predicates.push((r) => {
        const last = latestApproved(r);
        return last !== undefined && eventMatches(last, latest);
      });
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
    signature.push(aliases, eventTypes, excluded, latest, query);
    return { predicates, signature };
  },
};
