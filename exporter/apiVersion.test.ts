/**
 * An export under an API version that does not serve every kind (overlays and their bindings
 * exist only in v2beta1): refused before any request, naming the setting, unless --partial
 * leaves those kinds out unread; under v2beta1 they are read and exported.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { createClient } from "../core/transport/client";
import type { ApiVersion } from "../core/transport/settings";
import { call } from "../tools/orgApi";
import { exportOrganization } from "./index";

jest.setTimeout(60_000);

const SETTINGS = ["PLATFORM_API_URL", "PLATFORM_TOKEN", "PLATFORM_API_VERSION"] as const;
const saved = Object.fromEntries(SETTINGS.map((key) => [key, process.env[key]]));
let emu: RunningEmulator;
let scratch: string;
let team: string;

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-export-version-"));
  process.env.PLATFORM_API_URL = emu.url;
  process.env.PLATFORM_TOKEN = emu.token;
  const api = { url: emu.url, token: emu.token };
  team = (await call<{ uid: string }>(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "team" })).uid;
  await call(api, "POST", `/iam/v2beta1/groups/${team}`, { name: "sub" });
  await call(api, "POST", `/registry/v2beta1/overlays/${team}`, { name: "base", config: { environment: { A: "b" } } });
});
afterAll(async () => {
  for (const key of SETTINGS)
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  await emu?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** An import-file export below the team under `version`, with its progress lines and import file. */
async function exportUnder(version: ApiVersion, partial: boolean) {
  process.env.PLATFORM_API_VERSION = version;
  const client = createClient({ apiUrl: emu.url, authUrl: emu.url, apiVersion: version, token: emu.token });
  const progress: string[] = [];
  const importFile = path.join(scratch, `${version}-${partial}.json`);
  try {
    await exportOrganization({ under: team, importFile, partial, client, progress: (line) => progress.push(line) });
  } finally {
    await client.close();
  }
  const types = (JSON.parse(fs.readFileSync(importFile, "utf8")) as { resources: Array<{ type: string }> }).resources
    .map((r) => r.type)
    .sort();
  return { progress, types };
}

test("under v2 an export is refused before any request, naming the setting and --partial", async () => {
  emu.clearRequests();
  await expect(exportUnder("v2", false)).rejects.toThrow(
    'registry overlays exist only in the v2beta1 API, but platform:apiVersion (PLATFORM_API_VERSION) is "v2"',
  );
  await expect(exportUnder("v2", false)).rejects.toThrow(
    /registry overlayBindings exist only in the v2beta1 API.*Or export with --partial to leave those kinds out unread/,
  );
  expect(emu.requests()).toEqual([]);
});

test("under v2 with --partial the other kinds are exported and the left-out ones said; under v2beta1 overlays are exported", async () => {
  emu.clearRequests();
  const v2 = await exportUnder("v2", true);
  expect(v2.types).toEqual(["platform:iam:Group"]);
  expect(v2.progress.filter((line) => line.startsWith("not read: "))).toEqual([
    expect.stringContaining("registry overlayBindings exist only in the v2beta1 API"),
    expect.stringContaining("registry overlays exist only in the v2beta1 API"),
  ]);
  expect(emu.requests().filter((r) => r.path.includes("/overlay"))).toEqual([]);
  expect(emu.requests().every((r) => r.path.includes("/v2/"))).toBe(true);

  const v2beta1 = await exportUnder("v2beta1", false);
  expect(v2beta1.types).toEqual(["platform:iam:Group", "platform:registry:Overlay"]);
  expect(v2beta1.progress.some((line) => line.startsWith("not read: "))).toBe(false);
});
