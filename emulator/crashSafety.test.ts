/**
 * kill -9 during a burst of writes: every create the emulator acknowledged is there after a
 * restart on the same state file, and no temporary or empty file is left behind.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "./index";
import { call, G } from "../tests/support/emulatorClient";

const CLI = path.resolve(__dirname, "..", "cli.js");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "emu-crash-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts the emulator CLI in a child process; resolves with its URL, token and root once it listens. */
function startChild(statePath: string) {
  const child = spawn(
    process.execPath,
    [CLI, "emulator", "--port", "0", "--state", statePath, "--no-seed", "--quiet"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise<{ child: typeof child; url: string; token: string; rootUid: string }>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /PLATFORM_API_URL=(\S+)/.exec(out)?.[1];
      const token = /PLATFORM_TOKEN=(\S+)/.exec(out)?.[1];
      const rootUid = /Root organization: (\S+)/.exec(out)?.[1];
      if (url && token && rootUid) resolve({ child, url, token, rootUid });
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited early (${code}): ${out}`)));
  });
}

test("every acknowledged create survives kill -9 in the middle of a burst", async () => {
  const statePath = path.join(dir, "state.json");
  const { child, url, token, rootUid } = await startChild(statePath);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const acknowledged: string[] = [];
  let sent = 0;
  const KILL_AFTER = 150;
  const worker = async () => {
    while (sent < 1000) {
      const name = `burst-${sent++}`;
      try {
        const response = await fetch(`${url}${G}/${rootUid}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ name }),
        });
        if (response.status !== 200) continue;
        acknowledged.push(((await response.json()) as { uid: string }).uid);
        if (acknowledged.length === KILL_AFTER) child.kill("SIGKILL");
      } catch {
        return; // the process is gone
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  await exited;
  expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(sent).toBeLessThan(1000);

  const restarted = await startEmulator({ quiet: true, statePath });
  try {
    const missing: string[] = [];
    for (const uid of acknowledged) if ((await call(restarted, "GET", `${G}/${uid}`)).status !== 200) missing.push(uid);
    expect(missing).toEqual([]);
    const files = fs.readdirSync(dir);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(files.filter((f) => fs.statSync(path.join(dir, f)).size === 0 && !f.endsWith(".journal"))).toEqual([]);
  } finally {
    await restarted.close();
  }
  expect(fs.readdirSync(dir)).toEqual(["state.json"]);
});

test("a torn last journal line is dropped; a damaged record is refused naming the file", async () => {
  const statePath = path.join(dir, "state.json");
  const first = await startEmulator({ quiet: true, statePath, seed: false });
  const kept = await call(first, "POST", `${G}/${first.rootUid}`, { body: { name: "kept" } });
  // Simulate a crash: copy what is on disk now (snapshot + journal) before close() compacts it.
  const snapshot = fs.readFileSync(statePath, "utf8");
  const journal = fs.readFileSync(`${statePath}.journal`, "utf8");
  await first.close();
  fs.writeFileSync(statePath, snapshot);
  fs.writeFileSync(`${statePath}.journal`, `${journal}{"kind":"groups","op":"put","rec":{"uid":"x`);
  fs.writeFileSync(`${statePath}.4242.tmp`, "");
  const second = await startEmulator({ quiet: true, statePath });
  try {
    expect((await call(second, "GET", `${G}/${kept.body.uid}`)).status).toBe(200);
    expect(fs.existsSync(`${statePath}.4242.tmp`)).toBe(false);
  } finally {
    await second.close();
  }
  const state = JSON.parse(fs.readFileSync(statePath, "utf8"));
  state.records.groups[0].createTime = "yesterday";
  fs.writeFileSync(statePath, JSON.stringify(state));
  await expect(startEmulator({ quiet: true, statePath })).rejects.toThrow(
    /state file .*state\.json has a record groups\[0\] that .*invalid times.*move it away/,
  );
});
