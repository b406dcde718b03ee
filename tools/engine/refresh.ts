import type { ProviderHost } from "../host/host";
import { nameOf, messageOf } from "./deployment";
import { ResourceState, StackState } from "./state";
import { displayValue, propertyChanges, PropertyChange } from "./wire";

export interface Drift {
  entry: ResourceState;
  /** Gone: the provider read nothing under its id, so it leaves the state. */
  gone: boolean;
  changes: PropertyChange[];
}

export interface RefreshResult {
  drift: Drift[];
  errors: string[];
}

/**
 * `refresh`: reads every resource through the provider (props = stored outputs, inputs = stored
 * inputs) and takes what it answers as the new state; an empty id means the resource is gone.
 * Mutates `state` (the caller decides whether to save it).
 */
export async function refreshState(state: StackState, host: ProviderHost): Promise<RefreshResult> {
  const result: RefreshResult = { drift: [], errors: [] };
  const readable = state.resources.filter((r) => r.custom && !r.pendingDelete);
  await Promise.all(
    readable.map(async (entry) => {
      try {
        const read = await host.read(entry.id, entry.urn, entry.outputs, entry.inputs);
        if (!read.id) {
          result.drift.push({ entry, gone: true, changes: [] });
          state.resources.splice(state.resources.indexOf(entry), 1);
          return;
        }
        const inputs = read.inputs ?? entry.inputs;
        const changes = read.inputs
          ? propertyChanges(entry.inputs, inputs)
          : propertyChanges(entry.outputs, read.props);
        if (changes.length > 0) result.drift.push({ entry, gone: false, changes });
        entry.id = read.id;
        entry.inputs = inputs;
        entry.outputs = read.props;
      } catch (error) {
        result.errors.push(`${entry.type} "${nameOf(entry.urn)}": refresh failed: ${messageOf(error)}`);
      }
    }),
  );
  const order = new Map(readable.map((r, i) => [r, i]));
  result.drift.sort((a, b) => order.get(a.entry)! - order.get(b.entry)!);
  return result;
}

export function driftLines(drift: Drift[]): string[] {
  if (drift.length === 0) return ["     (no differences between the state and the service)"];
  const lines: string[] = [];
  for (const d of drift) {
    const head = ` ${d.gone ? "- " : "~ "}  ${d.entry.type.padEnd(40)} ${nameOf(d.entry.urn).padEnd(24)} `;
    if (d.gone) {
      lines.push(head + "deleted outside Pulumi (dropped from the state)");
      continue;
    }
    lines.push(head + `changed outside Pulumi  [diff: ${d.changes.map((c) => "~" + c.path).join(", ")}]`);
    const secret = d.entry.secretProperties ?? [];
    for (const c of d.changes) {
      const masked = secret.includes(c.path.split(".")[0]);
      lines.push(`        ~ ${c.path}: ${displayValue(c.old, masked)} => ${displayValue(c.new, masked)}`);
    }
  }
  return lines;
}
