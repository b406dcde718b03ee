/**
 * A clock for tests: `sleep` advances time at once and records how long was asked, so a test
 * about Retry-After, backoff, renewal or propagation runs in microseconds and can assert the waits.
 */
import type { Clock } from "../../provider/clock";

export interface FakeClock extends Clock {
  /** Every sleep asked for, in order, in milliseconds. */
  readonly sleeps: number[];
  advance(ms: number): void;
}

export function fakeClock(start = Date.now()): FakeClock {
  let time = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep(ms) {
      sleeps.push(ms);
      time += Math.max(0, ms);
      return Promise.resolve();
    },
    advance(ms) {
      time += ms;
    },
  };
}

/** A deterministic Random from a seed: the emulator's own, so tests and fault injection share one. */
export { seededRandom } from "../../emulator/faults";
