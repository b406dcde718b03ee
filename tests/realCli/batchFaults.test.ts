/**
 * Batched reads no worse than one GET each, under the REAL Pulumi CLI: a small stack of groups
 * (the dynamic resources, which read through the same core as the native provider), behind a
 * proxy in front of the emulator that plays one fault (tests/support/readsProxy.ts), checked by
 * `pulumi preview --refresh --expect-no-changes` with batching on and off (PLATFORM_BATCH_READS).
 * Both must end alike: the same records failing, the same changes planned. With batching off no
 * List is sent, so a List's fault never reaches that side: its check beside the List faults is run
 * once (every List refused, none sent) and stands beside each of them.
 *
 * The reads overlap because the test makes them: the proxy holds the first GET of groups until
 * the engine's events say every refresh has started, so the others wait in the provider and go
 * as Lists; with batching off the same GET is held the same way.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { call } from "../../tools/orgApi";
import { nodeProgramFolder } from "../../tools/pulumi-cli/programFolder";
import { refreshesStarted } from "../support/engineEvents";
import { RealCliStack, realCliStack } from "../support/realCli";
import {
  firstGetOf,
  ProxyAnswer,
  ReadsProxy,
  readsProxy,
  ReadsProxyOptions,
  said,
  SeenRequest,
} from "../support/readsProxy";

jest.setTimeout(600_000);

const GROUPS = 4;
const PROJECT = "batch-faults";
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const rootUid = new pulumi.Config().require("rootUid");
for (let i = 0; i < ${GROUPS}; i++)
  new platform.iam.Group(\`team-\${i}\`, { parentUid: rootUid, name: \`team-\${i}\`, description: \`Team \${i}\` });
`;
/**
 * Seconds a read may take (PLATFORM_TIMEOUT): what a hung GET costs the test. Reads answer in
 * milliseconds; a waiting read's bound stays MIN_WAIT_MS (2 s, a quarter of 8), as the hold needs.
 */
const TIMEOUT_S = 8;

describe("batched reads under faults, beside one GET per read", () => {
  let emu: RunningEmulator;
  let scratch: string;
  /**
   * A stack of its own for each way, with its own proxy, below a group of its own: a case runs
   * the two checks at once.
   */
  interface Side {
    batchReads: boolean;
    behaviour: ReadsProxyOptions;
    proxy: ReadsProxy;
    stack: RealCliStack;
    /** The groups' resource names by uid. */
    names: Map<string, string>;
  }
  const sides: Side[] = [];

  async function side(batchReads: boolean): Promise<Side> {
    const label = `${PROJECT}-${batchReads ? "batched" : "alone"}`;
    const api = { url: emu.url, token: emu.token };
    const parent = await call<{ uid: string }>(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: label });
    const behaviour: ReadsProxyOptions = { upstream: emu.url };
    const proxy = await readsProxy(behaviour);
    const stack = realCliStack({
      programDir: nodeProgramFolder(path.join(scratch, label), PROJECT, PROGRAM),
      project: PROJECT,
      label,
      config: { [`${PROJECT}:rootUid`]: parent.uid, "platform:apiUrl": proxy.url },
      secretConfig: { "platform:token": emu.token },
    });
    const made: Side = { batchReads, behaviour, proxy, stack, names: new Map() };
    sides.push(made);
    const up = await stack.run("up");
    if (up.code !== 0) throw new Error(`up exited ${up.code}:\n${up.stdout}${up.stderr}`);
    for (const r of stack.checkpoint()?.checkpoint.latest?.resources ?? [])
      if (r.custom && r.id && r.type.includes("dynamic/")) made.names.set(r.id, r.urn.split("::").pop()!);
    expect(made.names.size).toBe(GROUPS);
    return made;
  }

  let alone: Side;
  let batched: Side;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true, seed: false });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-batch-faults-"));
    [alone, batched] = await Promise.all([side(false), side(true)]);
  });
  afterAll(async () => {
    for (const { proxy, stack } of sides) {
      await proxy.close();
      stack.remove();
    }
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  interface Outcome {
    /** Whether the preview exited 0. */
    ok: boolean;
    /** The resources an error was reported on. */
    failed: string[];
    /** The changes the preview plans after the refresh: "update team-3". */
    planned: string[];
  }

  /**
   * One drift check on one side with its proxy playing `fault`; the first GET of groups is held
   * until every refresh has started, unless `holdFirstGet` is "forever" (a GET that never answers).
   */
  async function driftCheck(
    label: string,
    { batchReads, behaviour, proxy, stack }: Side,
    fault: Omit<ReadsProxyOptions, "upstream" | "hold"> & { holdFirstGet?: "forever" },
  ): Promise<Outcome & { seen: string[] }> {
    behaviour.hold = firstGetOf("groups");
    behaviour.forward = fault.forward;
    behaviour.answer = fault.answer;
    proxy.reset();
    const eventsFile = path.join(scratch, `${label}-${batchReads}.jsonl`);
    // run, not start: nothing kills it, so the stack's runner serves it (no runner of its own to load).
    const running = stack.run("preview", {
      refresh: true,
      expectNoChanges: true,
      parallel: 16,
      steps: true,
      eventsFile,
      env: { PLATFORM_BATCH_READS: String(batchReads), PLATFORM_TIMEOUT: String(TIMEOUT_S) },
    });
    try {
      // A run that ends before every refresh has started ends the wait, saying why.
      const ended = running.then((r) => {
        throw new Error(`the preview ended before every refresh started (${r.code}):\n${r.stdout}${r.stderr}`);
      });
      await Promise.race([
        ended,
        refreshesStarted(eventsFile, GROUPS).then(() => proxy.waitFor((req) => said(req).startsWith("GET groups/"))),
      ]);
      ended.catch(() => undefined);
    } finally {
      // A GET that never answers stays held: its read ends at its own deadline.
      if (fault.holdFirstGet !== "forever") proxy.release();
    }
    const run = await running;
    const nameOf = (urn: string) => urn.split("::").pop()!;
    const steps = run.steps ?? [];
    // The engine reports a failed refresh as an error on its resource.
    const failed = fs
      .readFileSync(eventsFile, "utf8")
      .split("\n")
      .filter((line) => line.includes('"diagnosticEvent"'))
      .map((line) => JSON.parse(line).diagnosticEvent)
      .filter((d) => d.severity === "error" && d.urn)
      .map((d) => nameOf(d.urn));
    const planned = steps.filter((st) => st.op !== "refresh").map((st) => `${st.op} ${nameOf(st.urn)}`);
    return {
      ok: run.code === 0,
      failed: [...new Set(failed)].sort(),
      planned: [...new Set(planned)].sort(),
      seen: proxy.seen.map(said),
    };
  }

  /** The same drift check batched and not, at once: both must come to `expected`; returns what the batched one sent. */
  async function sameBothWays(
    label: string,
    fault: Parameters<typeof driftCheck>[2],
    expected: (held: string) => Outcome,
  ): Promise<string[]> {
    const held = (side: Side, seen: string[]) =>
      side.names.get(seen.find((s) => s.startsWith("GET groups/"))!.slice("GET groups/".length))!;
    const [aloneRun, batchedRun] = await Promise.all([
      driftCheck(label, alone, fault),
      driftCheck(label, batched, fault),
    ]);
    const { seen: aloneSeen, ...aloneOutcome } = aloneRun;
    const { seen: batchedSeen, ...batchedOutcome } = batchedRun;
    expect(aloneOutcome).toEqual(expected(held(alone, aloneSeen)));
    expect(batchedOutcome).toEqual(expected(held(batched, batchedSeen)));
    return batchedSeen;
  }

  /** The alone side's check beside a List's fault: made once, every List refused; it must send none. */
  let aloneBesideLists: ReturnType<typeof driftCheck> | undefined;
  /** A List's fault: the batched check and the alone side's one must both be clean; returns what the batched sent. */
  async function cleanBothWays(label: string, fault: Parameters<typeof driftCheck>[2]): Promise<string[]> {
    aloneBesideLists ??= driftCheck("lists-refused", alone, { answer: (req) => (isList(req) ? refused : undefined) });
    const [aloneRun, batchedRun] = await Promise.all([aloneBesideLists, driftCheck(label, batched, fault)]);
    const { seen: aloneSeen, ...aloneOutcome } = aloneRun;
    const { seen: batchedSeen, ...batchedOutcome } = batchedRun;
    expect(listsOf(aloneSeen)).toEqual([]);
    expect(aloneOutcome).toEqual(clean());
    expect(batchedOutcome).toEqual(clean());
    return batchedSeen;
  }

  const clean = (): Outcome => ({ ok: true, failed: [], planned: [] });
  const listsOf = (seen: string[]) => seen.filter((s) => s.startsWith("LIST groups"));
  const isList = (req: SeenRequest) => said(req).startsWith("LIST groups");
  const refused: ProxyAnswer = { status: 500, body: { code: 13, message: "Internal error", details: [] } };
  /** A List was sent (so the fault was met), and none more than twice: one repeat at most. */
  const sentTwiceAtMost = (lists: string[]) => {
    expect(lists.length).toBeGreaterThan(0);
    for (const list of new Set(lists)) expect(lists.filter((l) => l === list).length).toBeLessThanOrEqual(2);
  };

  test("a GET that never answers: only its own record fails, batched or not", async () => {
    await sameBothWays("hung-get", { holdFirstGet: "forever" }, (held) => ({
      ok: false,
      failed: [held],
      planned: [],
    }));
  });

  test("a List that never answers: its reads send their own GETs in time, and the check is clean", async () => {
    const never = new Promise<ProxyAnswer>(() => {});
    const seen = await cleanBothWays("hung-list", { answer: (req) => (isList(req) ? never : undefined) });
    expect(listsOf(seen).length).toBeGreaterThan(0);
  });

  test("a List answered 429 with a Retry-After past its reads' time: not waited, its reads' GETs go at once", async () => {
    const limited: ProxyAnswer = {
      status: 429,
      body: { code: 8, message: "Too many requests", details: [] },
      headers: { "retry-after": "20" },
    };
    const seen = await cleanBothWays("list-429", { answer: (req) => (isList(req) ? limited : undefined) });
    expect(listsOf(seen).length).toBeGreaterThan(0);
  });

  test("a List answered 500, or cut off: sent twice at most, then its reads send their own GETs", async () => {
    const seen = await cleanBothWays("list-500", { answer: (req) => (isList(req) ? refused : undefined) });
    sentTwiceAtMost(listsOf(seen));
    const cut = await cleanBothWays("list-cut", {
      answer: (req) => {
        if (isList(req)) throw new Error("the connection is cut");
        return undefined;
      },
    });
    sentTwiceAtMost(listsOf(cut));
  });

  test("a List that repeats a record with different contents: that record is read by its own GET, no false drift", async () => {
    const seen = await cleanBothWays("repeated-record", {
      answer: (req, upstream) => {
        if (!upstream || !isList(req)) return undefined;
        const body = upstream.body as { groups: Array<Record<string, unknown>> };
        const forged = body.groups.map((g) => ({ ...g, description: "forged" }));
        return { status: 200, body: { ...body, groups: [...body.groups, ...forged] } };
      },
    });
    expect(listsOf(seen).length).toBeGreaterThan(0);
    expect(new Set(seen.filter((s) => s.startsWith("GET groups/"))).size).toBe(GROUPS);
  });

  test("a List whose records lack a field the GET carries: those records are read by their own GETs, no false drift", async () => {
    const seen = await cleanBothWays("missing-field", {
      answer: (req, upstream) => {
        if (!upstream || !isList(req)) return undefined;
        const body = upstream.body as { groups: Array<Record<string, unknown>> };
        const bare = body.groups.map(({ description: _left, ...g }) => g);
        return { status: 200, body: { ...body, groups: bare } };
      },
    });
    expect(listsOf(seen).length).toBeGreaterThan(0);
    expect(new Set(seen.filter((s) => s.startsWith("GET groups/"))).size).toBe(GROUPS);
  });
});
