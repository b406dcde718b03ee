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

/** A deterministic Random (mulberry32) from a seed. */
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
