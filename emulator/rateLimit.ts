/**
 * A far-away service's rate limit: each bearer token may send `perSecond` requests a second,
 * as a token bucket that holds one second's worth (a burst of `perSecond`) and refills
 * continuously. A request over the limit is refused before it does anything, with
 * RESOURCE_EXHAUSTED (429) and a Retry-After of the whole seconds until the bucket holds a
 * request again (HTTP's delta-seconds are whole: at 50 a second, a refused client waits 1 s).
 * Time is the emulator's clock, so a test moves it with advanceClock.
 */
export interface RateLimit {
  /** undefined when the request may go; else the seconds the client is asked to wait. */
  refuse(key: string, now: number): number | undefined;
}

/** Bearer tokens remembered at most; the least recently seen go first past it. */
const MAX_KEYS = 10_000;

export function rateLimit(perSecond: number): RateLimit {
  if (!(Number.isFinite(perSecond) && perSecond > 0))
    throw new RangeError(`rateLimit must be a positive number of requests per second, got ${perSecond}`);
  // At least one request, whatever the rate: a slower limit than one a second still lets one through.
  const burst = Math.max(1, perSecond);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    refuse(key, now) {
      let bucket = buckets.get(key);
      if (bucket) buckets.delete(key);
      else bucket = { tokens: burst, at: now };
      // Re-inserted so that the map's order is the order tokens were last seen.
      buckets.set(key, bucket);
      if (buckets.size > MAX_KEYS) buckets.delete(buckets.keys().next().value as string);
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
  };
}
