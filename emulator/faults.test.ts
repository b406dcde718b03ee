import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { Faults, seededRandom } from "./faults";
import { rateLimit } from "./rateLimit";

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
});
afterEach(() => emu.close());

async function groupCount(): Promise<number> {
  return Number((await call(emu, "GET", G)).body.totalCount);
}

describe("fault injection", () => {
  test("faults are off by default", async () => {
    for (let i = 0; i < 20; i++) expect((await call(emu, "GET", G)).status).toBe(200);
  });

  test("unavailableRate 1 answers 503 with Status code 14, only on matching paths", async () => {
    emu.setFaults([{ path: "^/iam/v2beta1/groups", unavailableRate: 1 }]);
    const reply = await call(emu, "GET", G);
    expect([reply.status, reply.body.code]).toEqual([503, 14]);
    expect(detail(reply.body, "ErrorInfo")?.reason).toBe("UNAVAILABLE");
    expect((await call(emu, "GET", "/iam/v2beta1/roles")).status).toBe(200);
    emu.setFaults([]);
    expect((await call(emu, "GET", G)).status).toBe(200);
  });

  test("exhaustedRate 1 answers 429 with code 8 and Retry-After", async () => {
    emu.setFaults([{ path: "groups", exhaustedRate: 1, retryAfterSeconds: 7 }]);
    const reply = await call(emu, "GET", G);
    expect([reply.status, reply.body.code]).toEqual([429, 8]);
    expect(reply.headers.get("retry-after")).toBe("7");
  });

  test("Retry-After defaults to 1 second", async () => {
    emu.setFaults([{ path: "groups", exhaustedRate: 1 }]);
    expect((await call(emu, "GET", G)).headers.get("retry-after")).toBe("1");
  });

  test("methods restrict a rule", async () => {
    emu.setFaults([{ path: "groups", methods: ["POST"], unavailableRate: 1 }]);
    expect((await call(emu, "GET", G)).status).toBe(200);
    expect((await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "x" } })).status).toBe(503);
    expect(await groupCount()).toBe(1);
  });

  test("a failed write by 503 is not applied", async () => {
    emu.setFaults([{ path: "groups", methods: ["POST"], unavailableRate: 1 }]);
    await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "lost" } });
    emu.setFaults([]);
    expect(await groupCount()).toBe(1);
  });

  test("dropRate 1 destroys the connection without an answer and without applying", async () => {
    emu.setFaults([{ path: "groups", methods: ["POST"], dropRate: 1 }]);
    await expect(call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "dropped" } })).rejects.toThrow();
    emu.setFaults([]);
    expect(await groupCount()).toBe(1);
  });

  test("dropAfterCommitRate 1 applies the write, then destroys the connection", async () => {
    emu.setFaults([{ path: "groups", methods: ["POST"], dropAfterCommitRate: 1 }]);
    await expect(call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "committed" } })).rejects.toThrow();
    emu.setFaults([]);
    const list = await call(emu, "GET", G, { query: { name: "committed" } });
    expect(list.body.groups).toHaveLength(1);
  });

  test("latencyMs delays the answer: a later request to another path finishes first", async () => {
    emu.setFaults([{ path: "groups", latencyMs: 400 }]);
    const finished: string[] = [];
    const slow = call(emu, "GET", G).then((r) => finished.push(`groups ${r.status}`));
    const fast = call(emu, "GET", "/iam/v2beta1/roles").then((r) => finished.push(`roles ${r.status}`));
    await Promise.all([slow, fast]);
    expect(finished).toEqual(["roles 200", "groups 200"]);
  });

  test("rates between 0 and 1 fault some requests and not others", async () => {
    emu.setFaults([{ path: "groups", unavailableRate: 0.5 }]);
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) statuses.add((await call(emu, "GET", G)).status);
    expect([...statuses].sort()).toEqual([200, 503]);
  });

  test("faults given at start apply from the first request", async () => {
    const faulty = await startEmulator({ quiet: true, seed: false, faults: [{ path: ".*", unavailableRate: 1 }] });
    try {
      expect((await call(faulty, "GET", G)).status).toBe(503);
    } finally {
      await faulty.close();
    }
  });
});

describe("request log", () => {
  test("records method, path, query (repeated keys as arrays), status and time for every request", async () => {
    emu.clearRequests();
    await call(emu, "GET", G, { query: { page_size: 5, "uidp.ids": ["a", "b"] } });
    await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "BAD" } });
    await call(emu, "GET", G, { token: null });
    const log = emu.requests();
    expect(log.map((e) => [e.method, e.path, e.status])).toEqual([
      ["GET", G, 200],
      ["POST", `${G}/${emu.rootUid}`, 400],
      ["GET", G, 401],
    ]);
    expect(log[0].query).toEqual({ page_size: "5", "uidp.ids": ["a", "b"] });
    expect(log[0].time).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  test("faulted requests are logged too: 503, 429 and dropped (status 0)", async () => {
    emu.clearRequests();
    emu.setFaults([{ path: "groups", unavailableRate: 1 }]);
    await call(emu, "GET", G);
    emu.setFaults([{ path: "groups", exhaustedRate: 1 }]);
    await call(emu, "GET", G);
    emu.setFaults([{ path: "groups", dropRate: 1 }]);
    await call(emu, "GET", G).catch(() => undefined);
    expect(emu.requests().map((e) => e.status)).toEqual([503, 429, 0]);
  });

  test("clearRequests empties the log", async () => {
    await call(emu, "GET", G);
    emu.clearRequests();
    expect(emu.requests()).toEqual([]);
  });
});

describe("seeded faults", () => {
  const rules = [{ path: ".*", unavailableRate: 0.3, dropRate: 0.2 }];
  const rolls = (seed: number) => {
    const faults = new Faults(rules, seededRandom(seed));
    return Array.from({ length: 50 }, () => faults.decide("GET", "/x").action);
  };

  test("the same seed rolls the same faults; another seed others", () => {
    expect(rolls(42)).toEqual(rolls(42));
    expect(rolls(42)).not.toEqual(rolls(43));
    expect(rolls(42).filter((a) => a !== null).length).toBeGreaterThan(10);
  });

  test("startEmulator's faultSeed makes the injected faults repeatable", async () => {
    const statuses = async (seed: number) => {
      const emu = await startEmulator({
        quiet: true,
        seed: false,
        faultSeed: seed,
        faults: [{ path: "groups", unavailableRate: 0.5 }],
      });
      try {
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await call(emu, "GET", "/iam/v2/groups")).status);
        return out;
      } finally {
        await emu.close();
      }
    };
    const first = await statuses(7);
    expect(first).toEqual(await statuses(7));
    expect(new Set(first)).toEqual(new Set([200, 503]));
  });
});

describe("a far-away, rate-limited service", () => {
  test("rateLimit: each token sends that many a second (a burst of one second's worth, refilled continuously), then waits the whole seconds Retry-After says", () => {
    const limit = rateLimit(5);
    const at = (ms: number, key = "a") => limit.refuse(key, 1_000_000 + ms);
    expect([0, 1, 2, 3, 4, 5].map((ms) => at(ms))).toEqual([undefined, undefined, undefined, undefined, undefined, 1]);
    // Another token has a bucket of its own.
    expect(at(5, "b")).toBeUndefined();
    // A fifth of a second earns one request back; a second, the whole burst and no more.
    expect([at(205), at(206)]).toEqual([undefined, 1]);
    expect([0, 1, 2, 3, 4, 5].map((ms) => at(5000 + ms))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      1,
    ]);
    // At one a second or slower the wait is longer than a second when the bucket is short of more than one.
    const slow = rateLimit(0.5);
    expect([slow.refuse("a", 0), slow.refuse("a", 0)]).toEqual([undefined, 2]);
    expect(() => rateLimit(0)).toThrow(/positive/);
  });

  test("rateLimit through HTTP: 429 RESOURCE_EXHAUSTED with Retry-After, until the emulator's clock refills the bucket", async () => {
    const limited = await startEmulator({ quiet: true, seed: false, rateLimit: 1 });
    try {
      // Three at once against a bucket of one: at least two are refused whatever the machine's load.
      const replies = await Promise.all([1, 2, 3].map(() => call(limited, "GET", G)));
      const refused = replies.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(2);
      expect([refused[0].body.code, refused[0].headers.get("retry-after")]).toEqual([8, "1"]);
      expect(detail(refused[0].body, "ErrorInfo")?.reason).toBe("RATE_LIMITED");
      limited.advanceClock(1000);
      expect((await call(limited, "GET", G)).status).toBe(200);
      expect(limited.requests().filter((r) => r.status === 429).length).toBe(refused.length);
    } finally {
      await limited.close();
    }
  });

  test("latencyMs: every answer comes that much later", async () => {
    const far = await startEmulator({ quiet: true, seed: false, latencyMs: 60 });
    try {
      const started = process.hrtime.bigint();
      expect((await call(far, "GET", G)).status).toBe(200);
      expect(Number(process.hrtime.bigint() - started) / 1e6).toBeGreaterThanOrEqual(59);
    } finally {
      await far.close();
    }
  });
});
