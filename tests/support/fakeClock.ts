/**
 * A clock for tests: `sleep` advances time at once and records how long was asked, so a test
 * about Retry-After, backoff, renewal or propagation runs in microseconds and can assert the waits.
 * Timers (a send's header, idle and deadline limits) fire only when the test moves time on
 * (`advance`, or a sleep), so a test about a limit says exactly when it passes.
 */
import type { Clock, Timer } from "../../core/common/clock";

export interface FakeClock extends Clock {
  /** Every sleep asked for, in order, in milliseconds. */
  readonly sleeps: number[];
  /** Moves time on by `ms`, firing in time order every timer that falls due. */
  advance(ms: number): void;
  /** Resolves with its length when the next timer is set (a send arming its limit). */
  nextTimer(): Promise<number>;
}

export function fakeClock(start = Date.now()): FakeClock {
  let time = start;
  const sleeps: number[] = [];
  const timers = new Set<{ at: number; fire: () => void }>();
  let waiting: Array<(ms: number) => void> = [];
  const advance = (ms: number) => {
    const until = time + Math.max(0, ms);
    for (;;) {
      const due = [...timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers.delete(due);
      time = Math.max(time, due.at);
      due.fire();
    }
    time = until;
  };
  return {
    sleeps,
    now: () => time,
    sleep(ms) {
      sleeps.push(ms);
      advance(ms);
      return Promise.resolve();
    },
    timer(ms, fire): Timer {
      const entry = { at: time + Math.max(0, ms), fire };
      timers.add(entry);
      const told = waiting;
      waiting = [];
      for (const resolve of told) resolve(ms);
      return { cancel: () => timers.delete(entry) };
    },
    advance,
    nextTimer: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

/** A deterministic Random from a seed: the emulator's own, so tests and fault injection share one. */
export { seededRandom } from "../../emulator/faults";
