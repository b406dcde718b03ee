import type { ProviderHost } from "../host/host";
import { changeSummary, isChange, Step, stepLines, summaryLines, tableHeader } from "./display";
import { deleteInReverseDependencyOrder } from "./graph";
import type { Registration, RegistrationResult } from "./program";
import {
  applyChange,
  PendingOperation,
  pendingKey,
  ResourceState,
  StackState,
  StateChange,
  StateJournal,
} from "./state";
import { deepEqual, displayChanges, forProvider, Props, secretOutputs } from "./wire";

export interface DeploymentOptions {
  state: StackState;
  /** Whose journal records every step; undefined keeps changes in memory (preview). */
  stateFile?: string;
  host: ProviderHost;
  preview: boolean;
  print: (line: string) => void;
  /**
   * Runs after a provider call answered and before its result is saved (a test holds the run there
   * to kill it). `quiesce` starts no further call and resolves once every other call under way has
   * ended and been journaled, so a kill then leaves exactly this one operation pending.
   */
  afterCall?: (operation: PendingOperation, quiesce: () => Promise<void>) => Promise<void>;
}

/** A failure already reported; registrations that are skipped after it are not reported again. */
export class SkippedAfterError extends Error {
  constructor() {
    super("skipped: an earlier step failed");
  }
}

/**
 * The engine's step logic for one run: each registration from the program is checked, diffed
 * against the stored state and turned into a create / update / replace / nothing; when the
 * program is done, what it no longer declares is deleted in reverse dependency order.
 */
export class Deployment {
  readonly steps: Step[] = [];
  /** The steps of each URN (one, or two for a replacement's delete), for markDone. */
  private readonly stepsOf = new Map<string, Step[]>();
  readonly errors: string[] = [];
  private readonly registered = new Set<string>();
  /** The state when the run started: what each registration is compared with. */
  private readonly previous: Map<string, ResourceState>;
  private readonly journal: StateJournal | undefined;
  /** Provider calls between their pending record and its end (see journaled). */
  private callsUnderWay = 0;
  private quiesced: { wanted: number; resolve: () => void } | undefined;

  constructor(private readonly options: DeploymentOptions) {
    this.previous = new Map(options.state.resources.filter((r) => !r.pendingDelete).map((r) => [r.urn, r]));
    if (options.stateFile && !options.preview) this.journal = new StateJournal(options.stateFile, options.state);
  }

  /** Closes the journal; the caller saves the state whole (a new snapshot) after. */
  close(): void {
    this.journal?.close();
  }

  get failed(): boolean {
    return this.errors.length > 0;
  }

  async register(reg: Registration): Promise<RegistrationResult> {
    if (this.failed) throw new SkippedAfterError();
    if (this.registered.has(reg.urn))
      return this.fail(reg, `duplicate resource URN ${reg.urn}: resource names must be unique per type`);
    this.registered.add(reg.urn);
    const dependencies = [...new Set([...reg.dependencies, ...(reg.parent ? [reg.parent] : [])])];
    const old = this.previous.get(reg.urn);
    try {
      if (!reg.custom) return await this.component(reg, old, dependencies);
      if (reg.readId !== undefined) return await this.read(reg, dependencies);
      return await this.custom(reg, old, dependencies);
    } catch (error) {
      if (error instanceof SkippedAfterError) throw error;
      return this.fail(reg, messageOf(error));
    }
  }

  private fail(reg: Registration, message: string): never {
    this.errors.push(`${reg.type} "${reg.name}": ${message}`);
    throw new Error(message);
  }

  private async component(
    reg: Registration,
    old: ResourceState | undefined,
    dependencies: string[],
  ): Promise<RegistrationResult> {
    this.record({ kind: old ? "same" : "create", reg, changes: [], replaces: [] });
    if (!old && !this.options.preview) this.done("create", reg);
    await this.put({
      urn: reg.urn,
      type: reg.type,
      id: "",
      custom: false,
      inputs: {},
      outputs: old?.outputs ?? {},
      dependencies,
      parent: reg.parent || undefined,
    });
    return { id: "", outputs: reg.inputs };
  }

  private async read(reg: Registration, dependencies: string[]): Promise<RegistrationResult> {
    const props = forProvider(reg.inputs);
    const result = await this.options.host.read(reg.readId!, reg.urn, props, props);
    if (!result.id) throw new Error(`cannot read ${reg.type} with id "${reg.readId}": it does not exist`);
    this.record({ kind: "read", reg, changes: [], replaces: [] });
    const entry: ResourceState = {
      urn: reg.urn,
      type: reg.type,
      id: result.id,
      custom: true,
      inputs: result.inputs ?? props,
      outputs: result.props,
      dependencies,
      parent: reg.parent || undefined,
      external: true,
    };
    if (!this.options.preview) await this.put(entry);
    return { id: result.id, outputs: result.props };
  }

  private async custom(
    reg: Registration,
    old: ResourceState | undefined,
    dependencies: string[],
  ): Promise<RegistrationResult> {
    const { host, preview } = this.options;
    const news = keepIgnoredChanges(forProvider(reg.inputs), old?.inputs, reg.ignoreChanges);
    const check = await host.check(reg.urn, old?.inputs ?? {}, news);
    if (check.failures.length > 0) {
      const reasons = check.failures.map((f) =>
        f.reason.startsWith(f.property) ? f.reason : `${f.property}: ${f.reason}`,
      );
      throw new Error(`invalid inputs: ${reasons.join("; ")}`);
    }
    const inputs = check.inputs;
    const base = {
      urn: reg.urn,
      type: reg.type,
      custom: true,
      inputs,
      dependencies,
      parent: reg.parent || undefined,
      protect: reg.protect || undefined,
      retainOnDelete: reg.retainOnDelete || undefined,
      secretProperties: secretOutputs(reg).length ? secretOutputs(reg) : undefined,
    };

    if (!old) {
      this.record({ kind: "create", reg, changes: [], replaces: [] });
      if (preview) return { id: "", outputs: inputs };
      const created = await this.journaled(
        "creating",
        base,
        () => host.create(reg.urn, inputs),
        (result) => ({ put: { ...base, id: result.id, outputs: result.props } }),
      );
      this.done("create", reg);
      return { id: created.id, outputs: created.props };
    }

    const diff = await host.diff(old.id, reg.urn, old.outputs, inputs);
    // Without a provider diff the engine compares inputs itself (its "legacy" diff).
    const changed = diff.changes === "unknown" ? !deepEqual(old.inputs, inputs) : diff.changes === "some";
    const changes = displayChanges(old, inputs);
    if (!changed) {
      this.record({ kind: "same", reg, changes: [], replaces: [] });
      // A step with no change keeps the old outputs and records the new inputs, as the engine does.
      await this.put({ ...base, id: old.id, outputs: old.outputs });
      return { id: old.id, outputs: old.outputs };
    }
    const replaces = diff.changes === "unknown" ? [] : diff.replaces;
    if (replaces.length === 0) {
      this.record({ kind: "update", reg, changes, replaces });
      // As the real engine: the dynamic-provider host has no provider preview, so an update
      // previews with its new inputs as its outputs (the rest reads as unknown); the id stays known.
      if (preview) return { id: old.id, outputs: inputs };
      const outputs = await this.journaled(
        "updating",
        { ...base, id: old.id },
        () => host.update(old.id, reg.urn, old.outputs, inputs),
        (result) => ({ put: { ...base, id: old.id, outputs: result } }),
      );
      this.done("update", reg, changes, replaces);
      return { id: old.id, outputs };
    }
    this.record({ kind: "replace", reg, changes, replaces });
    // Only the inputs are known for the replacement: every other output reads as unknown in the program.
    if (preview) return { id: "", outputs: inputs };
    if (diff.deleteBeforeReplace || reg.deleteBeforeReplace) {
      await this.deleteOne(old, () => removal(old));
    } else {
      // Create the replacement first; the original is deleted at the end of the run, after
      // everything that depended on it has moved to the replacement.
      await this.markPendingDelete(old);
    }
    const created = await this.journaled(
      "creating",
      base,
      () => host.create(reg.urn, inputs),
      (result) => ({ put: { ...base, id: result.id, outputs: result.props } }),
    );
    this.done("replace", reg, changes, replaces);
    return { id: created.id, outputs: created.props };
  }

  /** After the program: delete what it no longer declares and the originals of replacements. */
  async finish(): Promise<void> {
    if (this.failed) return;
    const doomed = this.options.state.resources.filter((r) => r.pendingDelete || !this.registered.has(r.urn));
    for (const entry of doomed) {
      if (!entry.pendingDelete) this.addStep(stepOf("delete", entry));
    }
    if (this.options.preview) return;
    await this.deleteAll(doomed);
  }

  /** `destroy`: everything in the state, in reverse dependency order. */
  async destroy(): Promise<void> {
    const all = [...this.options.state.resources];
    for (const entry of all) if (!entry.pendingDelete && !entry.external) this.addStep(stepOf("delete", entry));
    if (this.options.preview) return;
    await this.deleteAll(all);
    if (!this.failed) await this.change({ outputs: {} });
  }

  private async deleteAll(entries: ResourceState[]): Promise<void> {
    const outcome = await deleteInReverseDependencyOrder(entries, async (entry) => {
      if (entry.protect && !entry.pendingDelete) {
        throw new Error(`it is protected; remove the protect option first`);
      }
      if (entry.custom && !entry.external && !entry.retainOnDelete) await this.deleteOne(entry, () => removal(entry));
      else await this.change(removal(entry));
      if (!entry.external) {
        this.print(stepLines(stepOf(entry.pendingDelete ? "delete-replaced" : "delete", entry), true));
        this.markDone("delete", entry.urn);
      }
    });
    for (const { entry, error } of outcome.failed) {
      this.errors.push(`${entry.type} "${nameOf(entry.urn)}": delete failed: ${messageOf(error)}`);
    }
  }

  private async deleteOne(entry: ResourceState, commit: () => StateChange): Promise<void> {
    const { outputs: _outputs, ...resource } = entry;
    await this.journaled(
      "deleting",
      resource,
      () => this.options.host.delete(entry.id, entry.urn, entry.outputs),
      commit,
    );
  }

  /**
   * One provider call, journaled as the real engine does: the pending operation is saved
   * before the call and removed in the same journal line as its result (`commit` says what it
   * changes), so a run killed in between leaves a record the next run reports and resolves.
   */
  private async journaled<T>(
    operation: PendingOperation["operation"],
    resource: PendingOperation["resource"],
    call: () => Promise<T>,
    commit: (result: T) => StateChange,
  ): Promise<T> {
    // Held for a test (see afterCall): no call starts any more.
    if (this.quiesced) await new Promise<never>(() => undefined);
    const pending: PendingOperation = { operation, resource, startedAt: new Date().toISOString() };
    this.callsUnderWay++;
    try {
      await this.change({ begin: pending });
      let result: T;
      try {
        result = await call();
      } catch (error) {
        // The provider answered: the operation is over (it failed), nothing is left in doubt.
        await this.change({ end: pendingKey(pending) });
        throw error;
      }
      await this.options.afterCall?.(pending, () => this.quiesce());
      await this.change({ end: pendingKey(pending), then: commit(result) });
      return result;
    } finally {
      this.callsUnderWay--;
      if (this.quiesced && this.callsUnderWay <= this.quiesced.wanted) this.quiesced.resolve();
    }
  }

  /** Starts no further call; resolves when the calling one is the only call still under way. */
  private quiesce(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.quiesced = { wanted: 1, resolve };
      if (this.callsUnderWay <= 1) resolve();
    });
  }

  async setStackOutputs(outputs: Props): Promise<void> {
    if (this.failed || this.options.preview) return;
    await this.change({ outputs });
  }

  /** The plan (preview) or the summary (up), then the closing counts. */
  printPlan(): void {
    const shown = this.steps.filter(isChange);
    if (this.options.preview) {
      this.print([tableHeader()]);
      for (const step of shown) this.print(stepLines(step, false));
      if (shown.length === 0) this.print(["     (no changes)"]);
    }
    // After a failure the summary says what was done, not what was planned.
    const counted = this.options.preview ? this.steps : this.steps.filter((s) => !isChange(s) || s.done);
    this.print(["", ...summaryLines(counted, !this.options.preview)]);
  }

  changeSummaries(): string[] {
    return this.steps.filter(isChange).map(changeSummary);
  }

  private record(step: { kind: Step["kind"]; reg: Registration; changes: Step["changes"]; replaces: string[] }): void {
    this.addStep({
      kind: step.kind,
      urn: step.reg.urn,
      type: step.reg.type,
      name: step.reg.name,
      changes: step.changes,
      replaces: step.replaces,
      secretProperties: secretOutputs(step.reg),
    });
  }

  private addStep(step: Step): void {
    this.steps.push(step);
    const ofUrn = this.stepsOf.get(step.urn);
    if (ofUrn) ofUrn.push(step);
    else this.stepsOf.set(step.urn, [step]);
  }

  /** A planned step whose provider call succeeded. */
  private markDone(kind: Step["kind"], urn: string): void {
    // By URN, not a scan of every step: a run of N resources marks N steps.
    const step = this.stepsOf.get(urn)?.find((s) => s.kind === kind && !s.done);
    if (step) step.done = true;
  }

  private done(kind: Step["kind"], reg: Registration, changes: Step["changes"] = [], replaces: string[] = []): void {
    this.markDone(kind, reg.urn);
    this.print(
      stepLines(
        {
          kind,
          urn: reg.urn,
          type: reg.type,
          name: reg.name,
          changes,
          replaces,
          secretProperties: secretOutputs(reg),
        },
        true,
      ),
    );
  }

  private print(lines: string[]): void {
    for (const line of lines) this.options.print(line);
  }

  /** Puts the new entry where the live (not pending-delete) entry with its URN was, or appends it. */
  private put(entry: ResourceState): Promise<void> {
    return this.change({ put: entry });
  }

  private markPendingDelete(entry: ResourceState): Promise<void> {
    return this.change({ markPendingDelete: { urn: entry.urn, id: entry.id } });
  }

  /** Makes the change in memory and, unless this is a preview, records it in the journal (resolves once synced). */
  private change(change: StateChange): Promise<void> {
    applyChange(this.options.state, change);
    return this.journal?.append(change) ?? Promise.resolve();
  }
}

/** Removing `entry` (the live one or the one waiting for its delete) from the state. */
function removal(entry: ResourceState): StateChange {
  return { remove: { urn: entry.urn, id: entry.id, pendingDelete: !!entry.pendingDelete } };
}

/** `ignoreChanges`: those top-level properties keep their stored values, as the engine does before Check. */
function keepIgnoredChanges(news: Props, olds: Props | undefined, ignore: string[]): Props {
  if (!olds || ignore.length === 0) return news;
  const result = { ...news };
  for (const key of ignore) {
    if (key in olds) result[key] = olds[key];
    else delete result[key];
  }
  return result;
}

function stepOf(kind: Step["kind"], entry: ResourceState): Step {
  return {
    kind,
    urn: entry.urn,
    type: entry.type,
    name: nameOf(entry.urn),
    changes: [],
    replaces: [],
    secretProperties: entry.secretProperties ?? [],
  };
}

export function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
