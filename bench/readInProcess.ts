/**
 * Figure 3b: our read without the host. 5 × N reads of the Group provider's `read` in this process
 * at a fixed concurrency, beside as many bare undici `request` + `body.json()` GETs of the same
 * records, the emulator in a process of its own (bench/emulatorProcess.ts), so this process's
 * CPU time (process.cpuUsage) is the client's alone. The variants alternate; the ratio is taken
 * run by run. What figure 3 measures through the host, less the host: where our code's cost
 * stands against the bare GET, steadier than the host's figure on a loaded machine.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import type { Agent as UndiciAgent } from "undici";
import { Spread, pool, ratios, spread } from "./stats";

export interface ReadInProcessResult {
  reads: number;
  concurrency: number;
  /** CPU microseconds of this process per read. */
  oursCpuUs: Spread;
  bareGetCpuUs: Spread;
  oursOverBareGet: Spread;
}

function startEmulatorProcess(
  groups: number,
): Promise<{ child: ChildProcess; url: string; token: string; rootUid: string }> {
  const child = spawn(process.execPath, [path.join(__dirname, "emulatorProcess.js"), String(groups)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n"))
        resolve({ child, ...(JSON.parse(out) as { url: string; token: string; rootUid: string }) });
    });
    child.once("exit", (code) => reject(new Error(`the emulator process ended (${code}) before answering`)));
  });
}

export async function benchReadInProcess(options: {
  resources: number;
  runs: number;
  concurrency: number;
}): Promise<ReadInProcessResult> {
  const emu = await startEmulatorProcess(options.resources);
  const saved = { url: process.env.PLATFORM_API_URL, token: process.env.PLATFORM_TOKEN };

  const { Agent, request } = require("undici") as typeof import("undici");
  let agent: UndiciAgent | undefined;
  try {
    process.env.PLATFORM_API_URL = emu.url;
    process.env.PLATFORM_TOKEN = emu.token;

    const provider = require("../resources/iam/group/provider") as {
      read(id: string, props: object): Promise<{ id: string }>;
    };
    agent = new Agent({ keepAliveTimeout: 10_000 });
    const authorization = `Bearer ${emu.token}`;
    const list = await fetch(`${emu.url}/iam/v2beta1/groups?page_size=200&uidp.children_of=${emu.rootUid}`, {
      headers: { authorization },
    });
    const uids = ((await list.json()) as { groups: { uid: string }[] }).groups.map((g) => g.uid);
    // Each record read five times per run: 1,000 reads are about 40 ms of CPU, too short to be steady.
    const reads = options.resources * 5;
    const cpuPerRead = async (read: (uid: string) => Promise<unknown>) => {
      const before = process.cpuUsage();
      await pool(reads, options.concurrency, (i) => read(uids[i % uids.length]));
      const used = process.cpuUsage(before);
      return (used.user + used.system) / reads;
    };
    const ours = async (uid: string) => {
      const answer = await provider.read(uid, {});
      if (answer.id !== uid) throw new Error(`read of ${uid} answered ${answer.id}`);
    };
    const bareGet = async (uid: string) => {
      const answer = await request(`${emu.url}/iam/v2beta1/groups/${uid}`, {
        headers: { authorization },
        dispatcher: agent,
      });
      const body = (await answer.body.json()) as { uid?: string };
      if (body.uid !== uid) throw new Error(`GET ${uid}: HTTP ${answer.statusCode}`);
    };
    for (let warm = 0; warm < 2; warm++) {
      await cpuPerRead(ours);
      await cpuPerRead(bareGet);
    }
    const o: number[] = [];
    const b: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      if (run % 2 === 0) {
        o.push(await cpuPerRead(ours));
        b.push(await cpuPerRead(bareGet));
      } else {
        b.push(await cpuPerRead(bareGet));
        o.push(await cpuPerRead(ours));
      }
    }
    return {
      reads,
      concurrency: options.concurrency,
      oursCpuUs: spread(o),
      bareGetCpuUs: spread(b),
      oursOverBareGet: spread(ratios(o, b)),
    };
  } finally {
    await agent?.close();
    for (const [key, value] of [
      ["PLATFORM_API_URL", saved.url],
      ["PLATFORM_TOKEN", saved.token],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    emu.child.kill();
  }
}
