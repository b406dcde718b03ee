/**
 * Emulator benchmark: a List page of 200 must cost the same at 100,000 groups as at 1,000
 * (the list engine reads only the page), and writes must keep up with concurrent clients.
 * Run: node dist/bench/emulator.js — or call benchEmulator() from a bench runner.
 */
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator";

export interface EmulatorBenchResult {
  /** Median milliseconds of one List page of 200 groups, among 1,000 groups. */
  listPageMedianMsAt1k: number;
  /** The same among 100,000 groups. */
  listPageMedianMsAt100k: number;
  /** listPageMedianMsAt100k / listPageMedianMsAt1k: about 1 when a page costs only the page. */
  listPageRatio: number;
  /** Group creates per second with 16 concurrent clients. */
  createsPerSecond: number;
  createClients: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function listPageMedian(groups: number, samples: number): Promise<number> {
  const emulator = await startEmulator({ seed: false, bulk: { groups }, quiet: true });
  try {
    const headers = { authorization: `Bearer ${emulator.token}` };
    const times: number[] = [];
    let token: string | undefined;
    // Warm up the connection and the JIT before measuring.
    for (let i = 0; i < samples + 20; i++) {
      const query = new URLSearchParams({ page_size: "200", "uidp.descendants_of": emulator.rootUid });
      if (token) query.set("page_token", token);
      const started = performance.now();
      const response = await fetch(`${emulator.url}/iam/v2beta1/groups?${query.toString()}`, { headers });
      const body = (await response.json()) as { groups: unknown[]; nextPageToken?: string };
      const elapsed = performance.now() - started;
      if (response.status !== 200 || body.groups.length === 0)
        throw new Error(`list failed with HTTP ${response.status}`);
      if (i >= 20) times.push(elapsed);
      token = body.nextPageToken;
    }
    return median(times);
  } finally {
    await emulator.close();
  }
}

async function createsPerSecond(clients: number, perClient: number): Promise<number> {
  const emulator = await startEmulator({ seed: false, quiet: true });
  try {
    const headers = { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; i < perClient; i++) {
          const response = await fetch(`${emulator.url}/iam/v2beta1/groups/${emulator.rootUid}`, {
            method: "POST",
            headers,
            body: JSON.stringify({ name: `bench-${c}-${i}` }),
          });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`create failed with HTTP ${response.status}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return (clients * perClient) / seconds;
  } finally {
    await emulator.close();
  }
}

export async function benchEmulator(): Promise<EmulatorBenchResult> {
  const listPageMedianMsAt1k = await listPageMedian(1_000, 200);
  const listPageMedianMsAt100k = await listPageMedian(100_000, 200);
  const createClients = 16;
  const creates = await createsPerSecond(createClients, 125);
  return {
    listPageMedianMsAt1k,
    listPageMedianMsAt100k,
    listPageRatio: listPageMedianMsAt100k / listPageMedianMsAt1k,
    createsPerSecond: creates,
    createClients,
  };
}

if (require.main === module) {
  benchEmulator().then(
    (r) => {
      console.log(
        `List page of 200, median: ${r.listPageMedianMsAt1k.toFixed(2)} ms at 1,000 groups, ${r.listPageMedianMsAt100k.toFixed(2)} ms at 100,000 groups (ratio ${r.listPageRatio.toFixed(2)})`,
      );
      console.log(`Creates: ${r.createsPerSecond.toFixed(0)}/s with ${r.createClients} concurrent clients`);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
