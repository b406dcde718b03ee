/**
 * `Group.get(name, uid)` through the engine (the SDK's ReadResource → the host's Read): the
 * existing group is read into the program, something can be declared under it, and destroy
 * removes only what the program created.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tests/support/providerEmulator";
import { call, snapshot } from "../orgApi";
import { withoutPlatformEnv } from "../orgProject";
import { runEngine } from "./run";
import { repoRoot } from "../host/stage";

jest.setTimeout(120_000);

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = path.join(repoRoot, ".work", `read-existing-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an existing group read with Group.get is tracked, used as a parent, and left alone by destroy", async () => {
  const api = { url: emu.url, token: emu.token };
  const existing = await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, {
    name: "made-in-console",
    description: "not ours",
  });
  const before = await snapshot(api, emu.rootUid);
  const run = (operation: string) =>
    runEngine(
      [
        operation,
        "--config",
        `platform:apiUrl=${emu.url}`,
        "--secret-config",
        `platform:token=${emu.token}`,
        "--config",
        `existingUid=${existing.uid}`,
      ],
      {
        cwd: path.join(repoRoot, "tools", "engine", "programs", "read-existing"),
        state: path.join(dir, "state.json"),
        env: withoutPlatformEnv(),
      },
    );

  emu.clearRequests();
  const up = await run("up");
  expect(up.code).toBe(0);
  expect(
    emu
      .requests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`),
  ).toEqual([`POST /iam/v2beta1/groups/${existing.uid}`]);
  const read = up.state?.resources.find((r) => r.urn.endsWith("::existing"));
  expect(read).toMatchObject({ id: existing.uid, external: true });
  expect(read?.outputs).toMatchObject({ name: "made-in-console", description: "not ours" });
  expect(JSON.stringify(up.state?.outputs)).toContain("made-in-console");
  const child = (await snapshot(api, emu.rootUid)).groups.find((g) => g.name === "child-of-existing");
  expect(child?.uid.startsWith(`${existing.uid}/`)).toBe(true);

  const destroy = await run("destroy");
  expect(destroy.code).toBe(0);
  expect(await snapshot(api, emu.rootUid)).toEqual(before);
});
