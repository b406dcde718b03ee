/**
 * Advisory events as the documents describe them (author, reviewState, and exactly one kind
 * of event: detection, fixed, …), the filter values that name each kind, and the older short
 * form (`{type: "fixed", time}`) that clients written against the seed scope still read.
 */
export const EVENT_KINDS: Record<string, { filter: string; short: string }> = {
  detection: { filter: "EVENT_TYPE_FILTER_DETECTION", short: "detection" },
  truePositiveDetermination: {
    filter: "EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION",
    short: "true_positive_determination",
  },
  fixed: { filter: "EVENT_TYPE_FILTER_FIXED", short: "fixed" },
  falsePositiveDetermination: {
    filter: "EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION",
    short: "false_positive_determination",
  },
  analysisNotPlanned: { filter: "EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED", short: "analysis_not_planned" },
  fixNotPlanned: { filter: "EVENT_TYPE_FILTER_FIX_NOT_PLANNED", short: "fix_not_planned" },
  pendingUpstreamFix: { filter: "EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX", short: "pending_upstream_fix" },
  patched: { filter: "EVENT_TYPE_FILTER_PATCHED", short: "patched" },
};

export type AdvisoryEvent = Record<string, unknown> & { createTime?: string };

/** The kind of a documented event: the one kind field it sets. */
export function kindOf(event: AdvisoryEvent): string | undefined {
  return Object.keys(EVENT_KINDS).find((kind) => event[kind] !== undefined);
}

/** Whether an event is of a kind a filter value names (documented value or short name). */
export function eventMatches(event: AdvisoryEvent, filter: string): boolean {
  const kind = kindOf(event);
  return kind !== undefined && (EVENT_KINDS[kind].filter === filter || EVENT_KINDS[kind].short === filter);
}

/** The short form: the kind's short name and when it happened. */
export function shortEvent(event: AdvisoryEvent): { type: string; time: string } {
  const kind = kindOf(event);
  return { type: kind ? EVENT_KINDS[kind].short : "detection", time: String(event.createTime ?? "") };
}
