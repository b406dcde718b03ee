/**
 * The plugin archive's front executable (native/front, Go): it prints its port and answers the
 * schema at once while the Node.js single executable beside it starts (see native/front/main.go).
 * Built with the `go` on PATH, without cgo, for the platform the archive is named by; the schema
 * it answers is written into a copy of its source, so it is the one the Node.js plugin answers.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../host/stage";

export const FRONT_SOURCE = path.join(repoRoot, "native", "front");

/** The Node.js plugin's file name beside the front (main.go childName). */
export const nodeExecutableFile = (platform: string = process.platform) =>
  `pulumi-resource-platform-node${platform === "win32" ? ".exe" : ""}`;

/** Go's GOOS and GOARCH for a Node.js platform and architecture. */
export function goTarget(platform: string, arch: string): { GOOS: string; GOARCH: string } {
  const goos: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" };
  const goarch: Record<string, string> = { x64: "amd64", arm64: "arm64" };
  if (!goos[platform] || !goarch[arch]) throw new Error(`the plugin's front is not built for ${platform}-${arch}`);
  return { GOOS: goos[platform], GOARCH: goarch[arch] };
}

/** The front's source files (go.mod, go.sum, *.go but tests), name → content: what a build reads. */
export function frontSources(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of fs.readdirSync(FRONT_SOURCE).sort())
    if (name === "go.mod" || name === "go.sum" || (name.endsWith(".go") && !name.endsWith("_test.go")))
      files.set(name, fs.readFileSync(path.join(FRONT_SOURCE, name)));
  return files;
}

function go(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const answer = spawnSync("go", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local", ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (answer.error)
    throw new Error(
      `the plugin's front (native/front) is built with Go: ${answer.error.message} (install Go 1.26, https://go.dev/dl/)`,
    );
  if (answer.status !== 0) throw new Error(`go ${args.join(" ")} failed (exit ${answer.status}):\n${answer.stderr}`);
  return answer.stdout;
}

/** `go version`: part of what names a cached archive. */
export const goVersion = () => go(["version"], repoRoot).trim();

/**
 * Builds the front into `output` for `platform`/`arch` (Node.js names), answering `schema` and
 * `version`; `work` is an empty scratch folder.
 */
export function buildFront(
  output: string,
  options: { schema: string; version: string; platform?: string; arch?: string },
  work: string,
): void {
  const source = path.join(work, "front");
  fs.mkdirSync(source, { recursive: true });
  for (const [name, data] of frontSources()) fs.writeFileSync(path.join(source, name), data);
  fs.writeFileSync(path.join(source, "schema.json"), options.schema);
  const target = goTarget(options.platform ?? process.platform, options.arch ?? process.arch);
  go(
    ["build", "-trimpath", "-ldflags", `-s -w -X main.version=${options.version}`, "-o", path.resolve(output), "."],
    source,
    { CGO_ENABLED: "0", ...target },
  );
}

/** A module's license, read from its LICENSE in Go's module cache (the two kinds the front's modules carry). */
function moduleLicense(module: string, version: string): string {
  const cache = go(["env", "GOMODCACHE"], repoRoot).trim();
  // The module cache writes capitals as `!` and the lower-case letter.
  const folder = path.join(cache, `${module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`)}@${version}`);
  const file = ["LICENSE", "LICENSE.txt", "../../../LICENSE"]
    .map((name) => path.join(folder, name))
    .find(fs.existsSync);
  const text = file ? fs.readFileSync(file, "utf8") : "";
  if (text.includes("Apache License")) return "Apache-2.0";
  if (text.includes("Redistribution and use in source and binary forms")) return "BSD-3-Clause";
  return `see ${module}@${version}'s LICENSE`;
}

/** The notices' lines for the built front: Go and the modules `go version -m` finds in it. */
export function frontNotices(executable: string): string[] {
  const info = go(["version", "-m", executable], repoRoot);
  const goRelease = /^.*: (go\S+)/.exec(info)?.[1] ?? "go";
  const modules = [...info.matchAll(/^\tdep\t(\S+)\t(\S+)/gm)].map(([, module, version]) => ({ module, version }));
  return [
    `${path.basename(executable)} is written in Go and built with ${goRelease} (BSD-3-Clause;`,
    "https://go.dev/LICENSE) and these Go modules, each under its own license as published with it:",
    "",
    ...modules.map(({ module, version }) => `${module}@${version}: ${moduleLicense(module, version)}`),
    "",
  ];
}
