/**
 * An emulator in a process of its own, for figures that measure this process's CPU time
 * (bench/readInProcess.ts): prints one JSON line {url, token, rootUid} once it answers.
 *
 *   node dist/bench/emulatorProcess.js <bulk groups>
 */
import { startEmulator } from "../emulator";

startEmulator({ quiet: true, seed: false, bulk: { groups: Number(process.argv[2] ?? 0) } }).then(
  (emu) => process.stdout.write(JSON.stringify({ url: emu.url, token: emu.token, rootUid: emu.rootUid }) + "\n"),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
