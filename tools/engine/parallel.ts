/**
 * `--parallel N`, as `pulumi up --parallel`: at most N provider calls in flight. A program of N
 * resources registers them all at once; without a bound every one of them has a call open in the
 * engine and in the provider host at the same time, and memory (and the collector's work) grows
 * with N. A slot is held only for the call itself, never while a registration waits for another
 * resource, so no bound can deadlock a run.
 */
import type { ProviderHost } from "../host/host";

const CALLS = ["check", "diff", "create", "read", "update", "delete"] as const;

export function withParallelLimit(host: ProviderHost, limit: number): ProviderHost {
  if (!Number.isFinite(limit)) return host;
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async <T>(call: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await call();
    } finally {
      // The slot passes straight to the next waiter, or frees up.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
  const limited = Object.create(host) as ProviderHost;
  for (const name of CALLS) {
    const original = host[name] as (...args: unknown[]) => Promise<unknown>;
    (limited as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      slot(() => original.apply(host, args));
  }
  return limited;
}
