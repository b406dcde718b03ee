/**
 * Figure 3: `pulumi refresh` of N groups, i.e. N Read calls through the REAL dynamic-provider
 * host at a fixed concurrency, beside
 *   (a) N plain undici GETs of the same records at the same concurrency (no host, no provider),
 *   (b) the same refresh through the same host with the smallest provider whose read is a bare GET,
 *   (b+) as (b), also answering the current values as inputs, as the contract asks of read.
 * ours / (b) is what our provider adds to a refresh (target ≤ 1.1); ours / (b+) is what our code
 * adds for the same answer; ours / (a) is what the whole dynamic-provider machinery costs over the
 * network alone. The variants alternate within each run, so each ratio compares the same moment
 * of the machine; the host's CPU time per refresh is reported beside the wall times.
 */
import { Agent, request } from "undici";
import type { World } from "./world";
import { withHostCpu } from "./hostCpu";
import { Spread, pool, ratios, spread } from "./stats";

type Props = Record<string, any>;

export interface GroupState {
  id: string;
  urn: string;
  props: Props;
  inputs: Props;
}

export interface RefreshResult {
  resources: number;
  concurrency: number;
  wallMs: Record<Variant, Spread>;
  /** CPU milliseconds the host process used per refresh (absent for the plain GETs: no host). */
  hostCpuMs: Partial<Record<Variant, Spread>>;
  oursOverFloor: Spread;
  oursOverFloorWithInputs: Spread;
  floorWithInputsOverFloor: Spread;
  oursOverPlain: Spread;
  hostCpuOursOverFloor?: Spread;
  hostCpuOursOverFloorWithInputs?: Spread;
  /** Requests the emulator logged during one of our refreshes, per resource (floor 1). */
  requestsPerResource: number;
}

const VARIANTS = ["ours", "floor", "floorWithInputs", "plain"] as const;
type Variant = (typeof VARIANTS)[number];

/**
 * The state a `pulumi up` of these groups would have stored: what our Read returns for each
 * (the same shape as Create's outputs), `__provider` included. It doubles as the warm-up.
 */
export async function adoptGroups(world: World, concurrency: number): Promise<GroupState[]> {
  const { h, groupUids } = world;
  const states: GroupState[] = new Array(groupUids.length);
  await pool(groupUids.length, concurrency, async (i) => {
    const urn = h.urn("Group", `bulk-${i}`);
    const read = await h.host.read(groupUids[i], urn, { __provider: h.providers.Group });
    if (read.id !== groupUids[i] || !read.inputs)
      throw new Error(`reading ${groupUids[i]} through the host answered ${JSON.stringify(read).slice(0, 300)}`);
    states[i] = { id: read.id, urn, props: read.props, inputs: read.inputs };
  });
  h.emu.clearRequests();
  return states;
}

export const withProvider = (props: Props, provider: string): Props => ({ ...props, __provider: provider });

export const restate = (states: GroupState[], provider: string): GroupState[] =>
  states.map((s) => ({ ...s, props: withProvider(s.props, provider), inputs: withProvider(s.inputs, provider) }));

export async function benchRefresh(
  world: World,
  states: GroupState[],
  options: { runs: number; concurrency: number },
): Promise<RefreshResult> {
  const { h, floors } = world;
  const { concurrency } = options;
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const authorization = `Bearer ${h.emu.token}`;

  const throughHost = (list: GroupState[]) => () =>
    pool(list.length, concurrency, async (i) => {
      const s = list[i];
      const read = await h.host.read(s.id, s.urn, s.props, s.inputs);
      if (read.id !== s.id) throw new Error(`refresh of ${s.id} answered id "${read.id}"`);
    });
  const plain = () =>
    pool(states.length, concurrency, async (i) => {
      const answer = await request(`${h.emu.url}/iam/v2beta1/groups/${states[i].id}`, {
        headers: { authorization },
        dispatcher: agent,
      });
      const body = (await answer.body.json()) as { uid?: string };
      if (answer.statusCode !== 200 || body.uid !== states[i].id)
        throw new Error(`GET ${states[i].id}: HTTP ${answer.statusCode}`);
    });
  const work: Record<Variant, () => Promise<void>> = {
    ours: throughHost(states),
    floor: throughHost(restate(states, floors["bench-floor-read"])),
    floorWithInputs: throughHost(restate(states, floors["bench-floor-read-inputs"])),
    plain,
  };

  try {
    // Warm-up: ours was loaded and its pool opened by adoptGroups; do the same for the others.
    for (const variant of VARIANTS) if (variant !== "ours") await work[variant]();
    const wall: Record<Variant, number[]> = { ours: [], floor: [], floorWithInputs: [], plain: [] };
    const cpu: Record<Variant, number[]> = { ours: [], floor: [], floorWithInputs: [], plain: [] };
    let requestsPerResource = NaN;
    for (let run = 0; run < options.runs; run++) {
      for (let k = 0; k < VARIANTS.length; k++) {
        const variant = VARIANTS[(run + k) % VARIANTS.length];
        h.emu.clearRequests();
        const { wallMs, hostCpuMs } = await withHostCpu(variant === "plain" ? undefined : world.hostPid, work[variant]);
        wall[variant].push(wallMs);
        cpu[variant].push(hostCpuMs);
        if (variant === "ours") requestsPerResource = h.emu.requests().length / states.length;
      }
    }
    h.emu.clearRequests();
    const hasCpu = world.hostPid !== undefined;
    return {
      resources: states.length,
      concurrency,
      wallMs: {
        ours: spread(wall.ours),
        floor: spread(wall.floor),
        floorWithInputs: spread(wall.floorWithInputs),
        plain: spread(wall.plain),
      },
      hostCpuMs: hasCpu
        ? { ours: spread(cpu.ours), floor: spread(cpu.floor), floorWithInputs: spread(cpu.floorWithInputs) }
        : {},
      oursOverFloor: spread(ratios(wall.ours, wall.floor)),
      oursOverFloorWithInputs: spread(ratios(wall.ours, wall.floorWithInputs)),
      floorWithInputsOverFloor: spread(ratios(wall.floorWithInputs, wall.floor)),
      oursOverPlain: spread(ratios(wall.ours, wall.plain)),
      hostCpuOursOverFloor: hasCpu ? spread(ratios(cpu.ours, cpu.floor)) : undefined,
      hostCpuOursOverFloorWithInputs: hasCpu ? spread(ratios(cpu.ours, cpu.floorWithInputs)) : undefined,
      requestsPerResource,
    };
  } finally {
    await agent.close();
  }
}
