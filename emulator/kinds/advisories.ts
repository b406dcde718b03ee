/** Vulnerability advisories of a repo's image: read-only, with filters on their fields and events. */
import { getList, getString, textOf } from "../params";
import { Rec } from "../store";
import { AdvisoryEvent, eventMatches, shortEvent } from "./advisoryEvents";
import { ResourceDef } from "./kind";

function anyIn(values: unknown, wanted: Set<string>): boolean {
  return Array.isArray(values) && values.some((v) => wanted.has(String(v)));
}

const eventsOf = (r: Rec) => (Array.isArray(r.data.events) ? (r.data.events as AdvisoryEvent[]) : []);

export const advisories: ResourceDef = {
  kind: "advisories",
  domain: "vulnerabilities",
  singular: "advisory",
  parentKind: "repos",
  message: "vulnerabilities.Advisory",
  uniqueNames: false,
  operations: ["list", "get"],
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
    if (eventTypes) predicates.push((r) => eventsOf(r).some((e) => eventTypes.some((t) => eventMatches(e, t))));
    const latest = getString(params, "latest_event_type");
    const lastEvent = (r: Rec) => eventsOf(r).at(-1);
    if (latest && latest !== "EVENT_TYPE_FILTER_UNSPECIFIED")
      predicates.push((r) => lastEvent(r) !== undefined && eventMatches(lastEvent(r)!, latest));
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
};
