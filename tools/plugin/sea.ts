/**
 * A Node.js single-executable application (https://nodejs.org/api/single-executable-applications.html)
 * made from one bundled script: Node writes the preparation blob (`node --experimental-sea-config`,
 * with V8's code cache of the script, so start-up skips compiling it), and postject, Node's own
 * injector from npm, puts it into a stripped copy of the running `node` binary (binutils' strip).
 * Nothing is downloaded: the base binary is the `node` that runs this, which must carry the SEA
 * fuse (official builds since Node 20 do).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../host/stage";

/** The sentinel Node's binary carries when it can be made a single executable (Node's docs). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** Why the running Node.js cannot be made into an executable here, or undefined when it can. */
export function seaUnsupported(nodeBinary = process.execPath): string | undefined {
  if (process.platform !== "linux")
    return `the plugin's executable is built on Linux only (this is ${process.platform}: macOS and Windows need the binary re-signed, which this build does not do)`;
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 12))
    return `Node.js ${process.version} cannot make a single executable application with a code cache (Node 20.12 or later can)`;
  if (!fs.readFileSync(nodeBinary).includes(`${SEA_FUSE}:0`))
    return `${nodeBinary} (Node.js ${process.version}) has no single-executable fuse (${SEA_FUSE}): it was built without SEA support; use an official Node.js build`;
  return undefined;
}

/** Writes `output`: the running node with `script` injected as its application. */
export function makeExecutable(script: string, output: string, workDir: string): void {
  const why = seaUnsupported();
  if (why) throw new Error(`cannot build the plugin's executable: ${why}`);
  const main = path.join(workDir, "main.js");
  const blob = path.join(workDir, "sea-prep.blob");
  const config = path.join(workDir, "sea-config.json");
  fs.writeFileSync(main, script);
  fs.writeFileSync(
    config,
    JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2),
  );
  const prepared = spawnSync(process.execPath, ["--experimental-sea-config", config], {
    cwd: workDir,
    encoding: "utf8",
  });
  if (prepared.error || prepared.status !== 0 || !fs.existsSync(blob))
    throw new Error(
      `node --experimental-sea-config failed: ${prepared.error?.message ?? ""}${prepared.stdout}${prepared.stderr}`,
    );
  // Without its symbols and debug sections (12 MB of the 99 MB of Node 20's Linux build); the fuse stays.
  run("strip", ["-o", output, process.execPath], "binutils' strip");
  fs.chmodSync(output, 0o755);
  const postject = require.resolve("postject/dist/cli.js", { paths: [repoRoot] });
  run(process.execPath, [postject, output, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE], "postject");
}

/** Runs a step, its output shown only when it fails (postject warns about sections Node's binary is fine with). */
function run(file: string, args: string[], what: string): void {
  const answer = spawnSync(file, args, { encoding: "utf8" });
  if (answer.error || answer.status !== 0)
    throw new Error(
      `cannot build the plugin's executable: ${what} failed (${file} ${args.join(" ")}): ` +
        `${answer.error?.message ?? `exit ${answer.status}`}\n${answer.stdout}${answer.stderr}`,
    );
}
