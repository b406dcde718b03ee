/** --parallel: at most N provider calls in flight, each call passed through unchanged. */
import type { ProviderHost } from "../host/host";
import { withParallelLimit } from "./parallel";

test("at most the limit of calls run at once; every call gets its own answer, errors included", async () => {
  let inFlight = 0;
  let most = 0;
  const release: (() => void)[] = [];
  const host = {
    pid: 7,
    read: async (id: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => release.push(resolve));
      inFlight--;
      if (id === "bad") throw new Error("read of bad failed");
      return { id, props: {}, inputs: undefined };
    },
  } as unknown as ProviderHost;
  const limited = withParallelLimit(host, 3);
  expect(limited.pid).toBe(7);
  const ids = ["a", "b", "bad", "d", "e", "f", "g"];
  const calls = ids.map((id) =>
    limited.read(id, `urn:${id}`, {}).then(
      (r) => r.id,
      (e: Error) => e.message,
    ),
  );
  // Let the calls start, then release them one by one.
  for (let turn = 0; turn < 50; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight).toBeLessThanOrEqual(3);
    release.shift()?.();
  }
  expect(await Promise.all(calls)).toEqual(["a", "b", "read of bad failed", "d", "e", "f", "g"]);
  expect(most).toBe(3);
});
