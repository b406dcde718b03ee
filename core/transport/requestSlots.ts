/**
 * The bound on requests in flight from one API client (one per process and settings: every
 * resource operation, look-up and token exchange of a deployment shares it), and the pause a
 * rate-limited service asks for.
 *
 * Why: the engine sends a provider as many operations at once as `--parallel` allows (64 on a
 * 16-core CI runner), all into one process; unbounded, they all go to a service far away at
 * once, and one that limits its callers' rate answers most of them 429. With a bound, the rest
 * wait here (in order), and reads waiting for a request of their kind are answered together by
 * one List (core/runtime/readBatches.ts), so a bound costs a drift check nothing.
 *
 * A 429 or 503 whose Retry-After asks for a wait pauses every send of the client until then,
 * not only the repeat of the request that was refused: the service limits the caller (its
 * token), so the others would only be refused too. A send that would start past its call's
 * deadline, waiting for a slot or for a pause, fails at once with DeadlineExceededError.
 *
 * Holding a slot is sending one request and reading its answer: the waits between the sends of
 * a request (backoff, Retry-After) and a token exchange hold none.
 */
import type { Clock, Timer } from "../common/clock";
import { CallScope, DeadlineExceededError } from "./deadline";

export interface RequestSlots {
  /**
   * Runs `send` once a slot is free and no pause holds (in the order callers came), then frees
   * the slot. Rejects with DeadlineExceededError, without sending, when that would be past the
   * scope's deadline.
   */
  run<T>(scope: CallScope, where: string, send: () => Promise<T>): Promise<T>;
  /** The service asked for no request before `at` (clock time): sends wait until then. */
  pauseUntil(at: number): void;
  /** Requests being sent now, and callers waiting for a slot. */
  readonly inFlight: number;
  readonly waiting: number;
}

interface Waiter {
  start(): void;
  timer?: Timer;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function requestSlots(limit: number, clock: Clock): RequestSlots {
  if (!(Number.isSafeInteger(limit) && limit >= 1)) throw new RangeError(`limit must be a whole number >= 1: ${limit}`);
  let inFlight = 0;
  let pausedUntil = 0;
  let resume: Timer | undefined;
  const queue: Waiter[] = [];

  // Starts waiters while slots are free and no pause holds; arms one timer for the pause's end.
  const admit = () => {
    const now = clock.now();
    if (pausedUntil > now) {
      resume ??= clock.timer(pausedUntil - now, () => {
        resume = undefined;
        admit();
      });
      return;
    }
    while (inFlight < limit && queue.length > 0) queue.shift()!.start();
  };

  const expired = (scope: CallScope, detail: string) => new DeadlineExceededError(scope.what, scope.budgetMs, detail);

  return {
    run<T>(scope: CallScope, where: string, send: () => Promise<T>): Promise<T> {
      const sending = () => {
        inFlight++;
        const done = () => {
          inFlight--;
          admit();
        };
        return send().finally(done);
      };
      // The common case: a slot free, no one waiting, no pause.
      if (inFlight < limit && queue.length === 0 && pausedUntil <= clock.now()) return sending();
      if (pausedUntil - clock.now() >= scope.deadline - scope.now())
        return Promise.reject(
          expired(
            scope,
            `the service asked to wait ${seconds(pausedUntil - clock.now())} (Retry-After), past this call's deadline, before ${where} was sent`,
          ),
        );
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter = {
          start() {
            waiter.timer?.cancel();
            sending().then(resolve, reject);
          },
        };
        waiter.timer = clock.timer(Math.max(0, scope.deadline - scope.now()), () => {
          const at = queue.indexOf(waiter);
          if (at < 0) return;
          queue.splice(at, 1);
          reject(
            expired(
              scope,
              pausedUntil > clock.now()
                ? `${where} was waiting for the pause the service asked for (Retry-After)`
                : `${where} was waiting for one of the ${limit} requests in flight to end (platform:maxConcurrency)`,
            ),
          );
        });
        queue.push(waiter);
        admit();
      });
    },
    pauseUntil(at) {
      if (at <= pausedUntil) return;
      pausedUntil = at;
      // A later end than the timer armed: the timer re-arms itself for what is left when it fires.
      if (resume) {
        resume.cancel();
        resume = undefined;
      }
      admit();
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return queue.length;
    },
  };
}
