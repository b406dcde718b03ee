/**
 * Pending operations left by an interrupted run (see PendingOperation in state.ts), reported
 * and resolved before anything else, as the real engine asks `pulumi refresh` to do:
 *
 * - an interrupted update or delete: the resource is in the state under its id, so it is read
 *   again (refresh); a delete that went through reads as gone and leaves the state;
 * - an interrupted create: the state has no id, but the service may hold the record. The
 *   create is sent again with the provider's adoption input (`adopt: true`), so the provider
 *   finds the record by its natural key and takes it over (or creates it if the first request
 *   never arrived). A provider without that input cannot be asked: the operation is reported
 *   and cleared, and the user decides.
 */
import type { ProviderHost } from "../host/host";
import { messageOf, nameOf } from "./deployment";
import { PendingOperation, ResourceState, StackState } from "./state";

/** The input that asks a provider to take over an existing record instead of creating one. */
export const ADOPT_INPUT = "adopt";

export interface PendingResolution {
  /** What was found and what was done, one line per operation. */
  lines: string[];
  /** Operations that could not be resolved (they stay pending); the run stops. */
  errors: string[];
}

/** What a preview prints: the operations left pending, resolved by the next `up`, `refresh` or `destroy`. */
export function pendingReport(state: StackState): string[] {
  return (state.pendingOperations ?? []).map(
    (op) => `     ${describe(op)} (the next up, refresh or destroy resolves it)`,
  );
}

/** Resolves every pending operation; mutates `state` (the caller saves it). */
export async function resolvePendingOperations(state: StackState, host: ProviderHost): Promise<PendingResolution> {
  const result: PendingResolution = { lines: [], errors: [] };
  const pending = [...(state.pendingOperations ?? [])];
  await Promise.all(
    pending.map(async (op) => {
      try {
        const line = op.operation === "creating" ? await adopt(state, host, op) : await reread(state, host, op);
        state.pendingOperations!.splice(state.pendingOperations!.indexOf(op), 1);
        result.lines.push(`     ${describe(op)}: ${line}`);
      } catch (error) {
        result.errors.push(`${describe(op)}: resolving it failed: ${messageOf(error)}`);
      }
    }),
  );
  return result;
}

function describe(op: PendingOperation): string {
  return `${op.resource.type} "${nameOf(op.resource.urn)}" was interrupted while ${op.operation} (${op.startedAt})`;
}

async function adopt(state: StackState, host: ProviderHost, op: PendingOperation): Promise<string> {
  const { resource } = op;
  const check = await host.check(resource.urn, {}, { ...resource.inputs, [ADOPT_INPUT]: true });
  if (check.failures.some((f) => f.property === ADOPT_INPUT)) {
    return (
      `the provider takes no "${ADOPT_INPUT}" input, so the record the create may have made cannot be looked up; ` +
      `cleared: check the service, and delete that record or take it over before the next up`
    );
  }
  if (check.failures.length > 0) {
    throw new Error(`invalid inputs: ${check.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
  }
  const created = await host.create(resource.urn, check.inputs);
  const entry: ResourceState = { ...resource, id: created.id, outputs: created.props };
  const resources = state.resources;
  const at = resources.findIndex((r) => r.urn === entry.urn && !r.pendingDelete);
  if (at >= 0) resources[at] = entry;
  else resources.push(entry);
  return created.props.adopted === true
    ? `the record it made (${created.id}) was found and adopted into the state`
    : `the service had no such record; created it now (${created.id})`;
}

async function reread(state: StackState, host: ProviderHost, op: PendingOperation): Promise<string> {
  const { resource } = op;
  const entry = state.resources.find((r) => r.urn === resource.urn && r.id === resource.id);
  if (!entry) return "no longer in the state; nothing to do";
  const read = await host.read(entry.id, entry.urn, entry.outputs, entry.inputs);
  if (!read.id) {
    state.resources.splice(state.resources.indexOf(entry), 1);
    return op.operation === "deleting"
      ? "the delete went through; removed from the state"
      : "it no longer exists; removed from the state";
  }
  entry.id = read.id;
  entry.inputs = read.inputs ?? entry.inputs;
  entry.outputs = read.props;
  return "refreshed from the service";
}
