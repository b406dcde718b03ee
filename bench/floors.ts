/**
 * The floors our provider is measured against: the smallest dynamic providers that do the same
 * job, installed as packages under the staged program's node_modules (so they serialize as a
 * bare `require`, exactly as ours does) and serialized through the same SDK path
 * (`new dynamic.Resource` under `setMocks`). Anything ours costs beyond them is ours to explain.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as Pulumi from "@pulumi/pulumi";
import type { StagedPackage } from "../tools/host/stage";

// What both refresh floors share: configure from the stack config, a bare undici GET.
const BARE_GET_PROVIDER_HEAD = `const { request } = require("undici");
let base = "";
let authorization = "";
module.exports = {
  async configure(req) {
    base = req.config.get("platform:apiUrl") + "/iam/v2beta1/";
    authorization = "Bearer " + req.config.get("platform:token");
  },
  async create() { return { id: "x" }; },
`;

const FLOORS = {
  /** The smallest provider object there is: bytes of `__provider` can go no lower. */
  "bench-floor-min": `module.exports = { async create() { return { id: "x" }; } };\n`,
  /** Refresh floor: read is one bare undici GET of the record, returned as it came. */
  "bench-floor-read": `${BARE_GET_PROVIDER_HEAD}  async read(id) {
    const answer = await request(base + "groups/" + id, { headers: { authorization } });
    return { id, props: await answer.body.json() };
  },
};
`,
  /**
   * The refresh floor plus what the contract asks of read: the current values also as inputs
   * (parent, name, description when set), so a refresh shows drift. Separates the cost of that
   * larger answer from the cost of our code.
   */
  "bench-floor-read-inputs": `${BARE_GET_PROVIDER_HEAD}  async read(id) {
    const answer = await request(base + "groups/" + id, { headers: { authorization } });
    const props = await answer.body.json();
    const inputs = { parentUid: id.slice(0, id.lastIndexOf("/")), name: props.name };
    if (props.description) inputs.description = props.description;
    return { id, props: { ...props, parentUid: inputs.parentUid }, inputs };
  },
};
`,
  /** Preview floor: check and diff answer at once. */
  "bench-floor-preview": `module.exports = {
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create() { return { id: "x" }; },
};
`,
} as const;

export type FloorName = keyof typeof FLOORS;
export const FLOOR_NAMES = Object.keys(FLOORS) as FloorName[];

export function installFloors(staged: StagedPackage): void {
  for (const [name, source] of Object.entries(FLOORS)) {
    const dir = path.join(staged.dir, "node_modules", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name, version: "1.0.0", main: "index.js" }) + "\n",
    );
    fs.writeFileSync(path.join(dir, "index.js"), source);
  }
}

/**
 * The `__provider` text of each floor, as `new dynamic.Resource(provider, …)` writes it.
 * Needs `setMocks` in effect; `captured(name)` returns what the mocked engine received.
 */
export async function serializeFloors(
  staged: StagedPackage,
  captured: (name: string) => Record<string, any> | undefined,
): Promise<Record<FloorName, string>> {
  const pulumi = staged.require<typeof Pulumi>("@pulumi/pulumi");
  const texts = {} as Record<FloorName, string>;
  // dynamic.Resource is abstract in the SDK's types only.
  class Floor extends pulumi.dynamic.Resource {}
  for (const name of FLOOR_NAMES) {
    const resource = new Floor(staged.require(name), name, {}, {}, "bench", "Floor");
    await new Promise((resolve) => resource.urn.apply(resolve));
    const text = captured(name)?.__provider;
    if (typeof text !== "string") throw new Error(`the mocked engine received no __provider for ${name}`);
    if (!text.includes(`require("${name}/index.js")`))
      throw new Error(`${name} did not serialize as a bare require: ${text}`);
    texts[name] = text;
  }
  return texts;
}
