/**
 * One look-up of a whole collection in a fresh process, for bench/lookupMemory.ts: `array` is the
 * package's getGroups (every record in one array, held to the end), `pages` walks the same List
 * with listPages and drops each page. Prints one JSON line: records read, the heap the result
 * holds after a full GC, the largest live heap over the heap before (a full GC and a sample when
 * each page's answer has been parsed, its body still held, and again when its results have been
 * taken), and the process's peak RSS. Run with --expose-gc.
 *
 *   node --expose-gc dist/bench/lookupMemoryChild.js <array|pages> <apiUrl> <token>
 */
import { ApiClient, ApiRequest, createClient } from "../core/transport/client";
import { listPages } from "../core/transport/pagination";
import { getGroups, groupRecordSchema } from "../resources/iam/group/lookups";
import { withClient } from "../core/program/lookup";

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const [mode, apiUrl, token] = process.argv.slice(2);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc");
  const real = createClient({ apiUrl, authUrl: apiUrl, apiVersion: "v2beta1", token });
  let base = 0;
  let peak = 0;
  const sample = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  // Samples the live heap while each page's parsed answer is held (the most one page holds).
  const client: ApiClient = {
    async request<T>(req: ApiRequest): Promise<T> {
      const body = await real.request<T>(req);
      if (base) sample();
      return body;
    },
  };
  // Load what the first request loads (zod, undici) before the baseline.
  await getGroups({ limit: 1 }, withClient(client));
  gc();
  base = process.memoryUsage().heapUsed;
  peak = base;
  let records = 0;
  let pages = 0;
  let held: unknown;
  if (mode === "array") {
    const result = await getGroups({}, withClient(client));
    sample();
    records = result.groups.length;
    held = result;
  } else if (mode === "pages") {
    for await (const page of listPages(client, { domain: "iam", collection: "groups", schema: groupRecordSchema() })) {
      records += page.length;
      pages++;
      sample();
    }
  } else throw new Error(`mode must be array or pages, got ${mode}`);
  gc();
  const retainedMb = (process.memoryUsage().heapUsed - base) / MB;
  const out = {
    mode,
    records,
    pages,
    retainedHeapMb: retainedMb,
    peakHeapOverBaseMb: (peak - base) / MB,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    held: held !== undefined,
  };
  process.stdout.write(JSON.stringify(out) + "\n");
  await real.close();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
