/**
 * Figure 4: `pulumi preview` of N unchanged groups: for each, Check (stored inputs vs the
 * program's) then Diff (stored outputs vs checked inputs) through the REAL host, at a fixed
 * concurrency, beside the same with a provider whose check and diff answer at once.
 * Target: ours / floor ≤ 1.2. A preview of unchanged resources sends no request at all.
 */
import type { World } from "./world";
import { withHostCpu } from "./hostCpu";
import { GroupState, restate } from "./refresh";
import { Spread, pool, ratios, spread } from "./stats";

export interface PreviewResult {
  resources: number;
  concurrency: number;
  oursMs: Spread;
  floorMs: Spread;
  oursPerResourceMs: Spread;
  floorPerResourceMs: Spread;
  oursOverFloor: Spread;
  /** CPU milliseconds the host process used per preview, and their ratio. */
  hostCpuMs?: { ours: Spread; floor: Spread };
  hostCpuOursOverFloor?: Spread;
  /** Requests the emulator logged during our previews (floor 0). */
  requests: number;
}

export async function benchPreview(
  world: World,
  states: GroupState[],
  options: { runs: number; concurrency: number },
): Promise<PreviewResult> {
  const { h, floors } = world;
  const floorStates = restate(states, floors["bench-floor-preview"]);

  // The program declares exactly what is stored, so `news` are the stored inputs.
  const preview = (list: GroupState[]) => () =>
    pool(list.length, options.concurrency, async (i) => {
      const s = list[i];
      const checked = await h.host.check(s.urn, s.inputs, s.inputs);
      if (checked.failures.length) throw new Error(`check of ${s.id} failed: ${JSON.stringify(checked.failures)}`);
      const diff = await h.host.diff(s.id, s.urn, s.props, checked.inputs);
      if (diff.changes === "some") throw new Error(`preview of unchanged ${s.id} reported a change`);
    });
  const ours = preview(states);
  const floor = preview(floorStates);

  // Warm-up: load both providers and let the host's JIT settle.
  await ours();
  await floor();
  h.emu.clearRequests();

  const times = { ours: [] as number[], floor: [] as number[] };
  const cpu = { ours: [] as number[], floor: [] as number[] };
  for (let run = 0; run < options.runs; run++) {
    const order = run % 2 === 0 ? (["ours", "floor"] as const) : (["floor", "ours"] as const);
    for (const name of order) {
      const { wallMs, hostCpuMs } = await withHostCpu(world.hostPid, name === "ours" ? ours : floor);
      times[name].push(wallMs);
      cpu[name].push(hostCpuMs);
    }
  }
  const requests = h.emu.requests().length;
  h.emu.clearRequests();
  const perResource = (ms: number[]) => spread(ms.map((t) => t / states.length));
  return {
    resources: states.length,
    concurrency: options.concurrency,
    oursMs: spread(times.ours),
    floorMs: spread(times.floor),
    oursPerResourceMs: perResource(times.ours),
    floorPerResourceMs: perResource(times.floor),
    oursOverFloor: spread(ratios(times.ours, times.floor)),
    hostCpuMs: world.hostPid === undefined ? undefined : { ours: spread(cpu.ours), floor: spread(cpu.floor) },
    hostCpuOursOverFloor: world.hostPid === undefined ? undefined : spread(ratios(cpu.ours, cpu.floor)),
    requests,
  };
}
