/**
 * What `npm pack` would publish: nothing test-only, everything the README promises, and a
 * package that works when installed from exactly those files (no file it needs left out).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../tools/host/stage";

jest.setTimeout(120_000);

interface PackEntry {
  path: string;
  size: number;
}

/** The file list of `npm pack --dry-run --json` (scripts off: this lists, it must not build). */
function packedFiles(): string[] {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [report] = JSON.parse(out) as { files: PackEntry[] }[];
  return report.files.map((f) => f.path).sort();
}

/** Source files (not tests) of the folders the package ships, relative to the repository. */
function shippedSources(): string[] {
  const found: string[] = ["index.ts", "cli.ts"];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts"))
        found.push(rel);
    }
  };
  for (const dir of ["provider", "resources", "emulator", "exporter"]) walk(dir);
  return found.sort();
}

/** Test-only files and dev tooling, by where they live or what they are called. */
const TEST_ONLY = [
  /(^|\/)tests?\//,
  /(^|\/)__tests__\//,
  /\.test\.[cm]?[jt]s/,
  /(^|\/)fixtures?\//,
  /^dist\/(tools|bench|examples)\//,
  /^(tools|bench|examples|\.ci|\.work)\//,
  /(^|\/)(jest|eslint)\.config\./,
  /(^|\/)tsconfig\.json$/,
];

describe("the published package (npm pack)", () => {
  let files: string[];
  beforeAll(() => {
    files = packedFiles();
  });

  test("ships nothing test-only: no tests, test support, fixtures, dev tools, benchmarks or examples", () => {
    expect(files.filter((file) => TEST_ONLY.some((pattern) => pattern.test(file)))).toEqual([]);
  });

  test("ships everything the README promises: the entry points, every module with its types, the licence and the changelog", () => {
    const promised = [
      "package.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli.js",
      "dist/emulator/index.js",
      // The API document the emulator serves from; `npm run build` copies it (tools/copyApiDocument.js).
      "dist/emulator/api-v2-schema.json",
      ...shippedSources().flatMap((source) => {
        const base = `dist/${source.replace(/\.ts$/, "")}`;
        return [`${base}.js`, `${base}.d.ts`];
      }),
    ];
    expect(promised.filter((file) => !files.includes(file))).toEqual([]);
    const providers = files.filter((file) => /^dist\/resources\/[^/]+\/[^/]+Provider\.js$/.test(file));
    expect(providers.length).toBeGreaterThanOrEqual(3);
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    expect(files).toContain(pkg.main);
    expect(files).toContain(pkg.types);
    for (const bin of Object.values(pkg.bin as Record<string, string>)) expect(files).toContain(bin);
  });

  test("package.json says what people expect: licence matching LICENSE, keywords, repository, homepage, bugs", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    expect(pkg.license).toBe("Apache-2.0");
    const license = fs.readFileSync(path.join(repoRoot, "LICENSE"), "utf8");
    expect(license).toContain("Apache License");
    expect(license).toContain("Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
    expect(pkg.keywords).toEqual(expect.arrayContaining(["pulumi"]));
    expect(pkg.repository).toEqual({ type: "git", url: expect.stringMatching(/^git\+https:\/\/.+\.git$/) });
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs).toEqual({ url: expect.stringMatching(/^https:\/\//) });
    const changelog = fs.readFileSync(path.join(repoRoot, "CHANGELOG.md"), "utf8");
    expect(changelog).toContain(`## [${pkg.version}]`);
  });

  test("installed from exactly those files, it loads: the package, every provider module a state names, the emulator and the command", () => {
    const dir = path.join(repoRoot, ".work", `pack-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    const installed = path.join(dir, "node_modules", "platform-pulumi");
    try {
      for (const file of files) {
        fs.mkdirSync(path.dirname(path.join(installed, file)), { recursive: true });
        fs.copyFileSync(path.join(repoRoot, file), path.join(installed, file));
      }
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "program", private: true }));
      const providers = files.filter((file) => /^dist\/resources\/.+Provider\.js$/.test(file));
      // What a program does, and what the host does with a stored `__provider`: a bare require by path.
      const script = `
        const assert = require("node:assert");
        const platform = require("platform-pulumi");
        assert.strictEqual(typeof platform.iam.Group, "function");
        for (const id of ${JSON.stringify(providers.map((p) => `platform-pulumi/${p}`))}) {
          const provider = require(id);
          for (const op of ["check", "diff", "create", "read", "update", "delete"])
            assert.strictEqual(typeof provider[op], "function", id + " has no " + op);
        }
        const { startEmulator } = require("platform-pulumi/dist/emulator");
        (async () => {
          const emu = await startEmulator({ port: 0, quiet: true });
          const answer = await fetch(emu.url + "/iam/v2beta1/groups", { headers: { authorization: "Bearer " + emu.token } });
          await emu.close();
          assert.strictEqual(answer.status, 200);
          console.log("loaded " + ${providers.length} + " providers");
        })().catch((e) => { console.error(e); process.exit(1); });`;
      const run = spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe(`loaded ${providers.length} providers`);
      const help = spawnSync(process.execPath, [path.join(installed, "dist", "cli.js"), "--help"], {
        cwd: dir,
        encoding: "utf8",
      });
      expect(help.status).toBe(0);
      expect(help.stdout).toContain("platform-pulumi emulator");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
