/**
 * Time as a parameter: everything that waits or measures (the client's retries, Retry-After,
 * token renewal, the permission-propagation window, call deadlines) asks a Clock, so tests
 * pass a fake one and never wait on the wall clock.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
  /**
   * Calls `fire` once `ms` milliseconds of this clock's time have passed, unless cancelled
   * first; it keeps no process alive. What a send's limits are kept with (core/transport/transport.ts).
   */
  timer(ms: number, fire: () => void): Timer;
}

export interface Timer {
  cancel(): void;
}

/** The real clock. `Date.now` is looked up at each call, so a process that replaces it is followed. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  timer(ms, fire) {
    const handle = setTimeout(fire, Math.max(0, ms));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** A source of chance in [0, 1): Math.random by default, a seeded one in tests. */
export type Random = () => number;
