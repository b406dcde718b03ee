/** Injected faults per path pattern, and the log of every request the emulator received. */
import { FaultRule, RequestLogEntry } from "./types";

export type FaultAction = "exhausted" | "unavailable" | "drop" | "dropAfterCommit";

export interface FaultDecision {
  latencyMs: number;
  action: FaultAction | null;
  retryAfterSeconds: number;
}

/**
 * A seeded pseudo-random generator (mulberry32): the same seed rolls the same faults in the
 * same order, so a failure seen under injected faults is reproduced by its seed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  private rules: Array<{ rule: FaultRule; pattern: RegExp }> = [];

  constructor(
    rules: FaultRule[] = [],
    private random: () => number = Math.random,
  ) {
    this.set(rules);
  }

  set(rules: FaultRule[]): void {
    this.rules = rules.map((rule) => ({ rule, pattern: new RegExp(rule.path) }));
  }

  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, action: null, retryAfterSeconds: 1 };
    for (const { rule, pattern } of this.rules) {
      if (!pattern.test(path)) continue;
      if (rule.methods && !rule.methods.some((m) => m.toUpperCase() === method)) continue;
      decision.latencyMs += rule.latencyMs ?? 0;
      if (decision.action) continue;
      const rolls: Array<[FaultAction, number | undefined]> = [
        ["drop", rule.dropRate],
        ["unavailable", rule.unavailableRate],
        ["exhausted", rule.exhaustedRate],
        ["dropAfterCommit", rule.dropAfterCommitRate],
      ];
      for (const [action, rate] of rolls) {
        if (rate && rate > 0 && this.random() < rate) {
          decision.action = action;
          if (action === "exhausted") decision.retryAfterSeconds = rule.retryAfterSeconds ?? 1;
          break;
        }
      }
    }
    return decision;
  }
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  /** Oldest entries go first past this, so a long-running emulator does not grow without bound. */
  static readonly LIMIT = 100_000;

  record(entry: RequestLogEntry): RequestLogEntry {
    if (this.entries.length >= RequestLog.LIMIT) this.entries.splice(0, this.entries.length - RequestLog.LIMIT + 1);
    this.entries.push(entry);
    return entry;
  }

  all(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e, query: { ...e.query } }));
  }

  clear(): void {
    this.entries = [];
  }
}
