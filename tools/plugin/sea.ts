/**
 * A Node.js single-executable application (https://nodejs.org/api/single-executable-applications.html)
 * made from one bundled script: Node writes the preparation blob (`node --experimental-sea-config`,
 * with V8's code cache of the script, so start-up skips compiling it), and postject, Node's own
 * injector from npm, puts it into a copy of the running `node` binary: stripped on Linux (binutils'
 * strip); on macOS its signature removed first and an ad-hoc one made after, as Node's docs say.
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
  if (!["linux", "darwin", "win32"].includes(process.platform))
    return `single executables are built on Linux, macOS and Windows only (this is ${process.platform})`;
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 12))
    return `Node.js ${process.version} cannot make a single executable application with a code cache and assets (Node 20.12 or later can)`;
  if (!fs.readFileSync(nodeBinary).includes(`${SEA_FUSE}:0`))
    return `${nodeBinary} (Node.js ${process.version}) has no single-executable fuse (${SEA_FUSE}): it was built without SEA support; use an official Node.js build`;
  return undefined;
}

/**
 * Writes `output`: the running node with `script` injected as its application, and `assets`
 * (name → file) readable with `require("node:sea").getAsset(name)`.
 */
export function makeExecutable(
  script: string,
  output: string,
  workDir: string,
  assets: Record<string, string> = {},
): void {
  const why = seaUnsupported();
  if (why) throw new Error(`cannot build a single executable: ${why}`);
  const main = path.join(workDir, "main.js");
  const blob = path.join(workDir, "sea-prep.blob");
  const config = path.join(workDir, "sea-config.json");
  fs.writeFileSync(main, script);
  fs.writeFileSync(
    config,
    JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2),
  );
  const prepared = spawnSync(process.execPath, ["--experimental-sea-config", config], {
    cwd: workDir,
    encoding: "utf8",
  });
  if (prepared.error || prepared.status !== 0 || !fs.existsSync(blob))
    throw new Error(
      `node --experimental-sea-config failed: ${prepared.error?.message ?? ""}${prepared.stdout}${prepared.stderr}`,
    );
  const postject = require.resolve("postject/dist/cli.js", { paths: [repoRoot] });
  const inject = [postject, output, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE];
  if (process.platform === "linux") {
    // Without its symbols and debug sections (12 MB of the 99 MB of Node 20's Linux build); the fuse stays.
    run("strip", ["-o", output, process.execPath], "binutils' strip");
    fs.chmodSync(output, 0o755);
    run(process.execPath, inject, "postject");
  } else if (process.platform === "darwin") {
    // Node's documentation: the signature goes before the blob is injected, and an ad-hoc one after.
    fs.copyFileSync(process.execPath, output);
    fs.chmodSync(output, 0o755);
    run("codesign", ["--remove-signature", output], "codesign --remove-signature");
    run(process.execPath, [...inject, "--macho-segment-name", "NODE_SEA"], "postject");
    run("codesign", ["--sign", "-", output], "codesign --sign -");
  } else {
    // Windows: node.exe's Authenticode signature would no longer match; the executable runs unsigned.
    fs.copyFileSync(process.execPath, output);
    run(process.execPath, inject, "postject");
  }
}

/** Runs a step, its output shown only when it fails (postject warns about sections Node's binary is fine with). */
function run(file: string, args: string[], what: string): void {
  const answer = spawnSync(file, args, { encoding: "utf8" });
  if (answer.error || answer.status !== 0)
    throw new Error(
      `cannot build a single executable: ${what} failed (${file} ${args.join(" ")}): ` +
        `${answer.error?.message ?? `exit ${answer.status}`}\n${answer.stdout}${answer.stderr}`,
    );
}
