/**
 * What `npm pack` would publish: nothing test-only, everything the README promises, every
 * module the shipped code imports a dependency, and a package that works as a user gets it:
 * the tarball installed by `npm install <tarball>` into an empty folder outside the repository
 * (production dependencies only, from the registry or npm's cache), where nothing of the
 * repository (its node_modules, its devDependencies) can be found.
 */
import { ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as path from "node:path";
import * as readline from "node:readline";
import * as ts from "typescript";
import { repoRoot } from "../tools/host/stage";
import { emptyFolderOutsideRepository, userEnvironment } from "./support/outsideRepository";

jest.setTimeout(120_000);

interface PackEntry {
  path: string;
  size: number;
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

let packed: { dir: string; tarball: string; files: string[] } | undefined;

/**
 * `npm pack`, once a file, into an empty folder outside the repository: the tarball `npm publish`
 * would send, and its file list, which the listing tests read (no second `npm pack --dry-run`).
 * Scripts off: packing must not rebuild dist/ under the tests.
 */
function pack(): { dir: string; tarball: string; files: string[] } {
  if (!packed) {
    const dir = emptyFolderOutsideRepository("platform-pulumi-installed-");
    const [report] = JSON.parse(
      execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
        cwd: repoRoot,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    ) as { filename: string; files: PackEntry[] }[];
    packed = { dir, tarball: path.join(dir, report.filename), files: report.files.map((f) => f.path).sort() };
  }
  return packed;
}

afterAll(() => {
  if (packed) fs.rmSync(packed.dir, { recursive: true, force: true });
});

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
  for (const dir of ["core", "resources", "emulator", "exporter", "drift"]) walk(dir);
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
    files = pack().files;
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
});

/** The provider modules 0.1.x stored in states (`__provider`), package-relative. */
const PROVIDER_PATHS_OF_0_1 = [
  "resources/events/subscriptionProvider",
  "resources/iam/accountAssociationProvider",
  "resources/iam/externalGroupRoleMappingProvider",
  "resources/iam/groupInviteProvider",
  "resources/iam/groupProvider",
  "resources/iam/identityProvider",
  "resources/iam/idpProvider",
  "resources/iam/roleBindingProvider",
  "resources/iam/roleProvider",
  "resources/iam/scimTokenProvider",
  "resources/registry/overlayBindingProvider",
  "resources/registry/overlayProvider",
  "resources/registry/repoProvider",
  "resources/registry/tagProvider",
];

/** The bare module names (packages) that a compiled file requires or imports. */
function packagesRequiredBy(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\b(?:require|import)\(\s*["']([^"'.][^"']*)["']\s*\)/g)) {
    const id = match[1];
    if (id.startsWith("node:") || builtinModules.includes(id.split("/")[0])) continue;
    found.add(id.startsWith("@") ? id.split("/").slice(0, 2).join("/") : id.split("/")[0]);
  }
  return [...found];
}

test("every module that shipped code imports is a dependency (a devDependency is not installed for users)", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  // The package's own name is what the exporter writes into the programs it generates.
  const dependencies = new Set([
    pkg.name,
    ...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }),
  ]);
  const undeclared = pack()
    .files.filter((file) => /\.[cm]?js$/.test(file))
    .flatMap((file) =>
      packagesRequiredBy(fs.readFileSync(path.join(repoRoot, file), "utf8"))
        .filter((name) => !dependencies.has(name))
        .map((name) => `${name} (${file})`),
    );
  expect(undeclared).toEqual([]);
  // The check itself: what the exporter needs to write Pulumi.yaml is found, and so is a devDependency.
  expect(packagesRequiredBy(`const YAML = __importStar(require("yaml")); require("@pulumi/pulumi/dynamic");`)).toEqual([
    "yaml",
    "@pulumi/pulumi",
  ]);
  expect(packagesRequiredBy(`require("node:fs"); require("fs"); require("./kind"); require("../x")`)).toEqual([]);
});

interface InstalledEmulator {
  url: string;
  token: string;
  rootUid: string;
  child: ChildProcess;
}

/** `platform-pulumi emulator --port 0` from the installed package, once it has printed where it listens. */
async function startInstalledEmulator(dir: string): Promise<InstalledEmulator> {
  const bin = path.join(dir, "node_modules", ".bin", "platform-pulumi");
  const child = spawn(process.execPath, [bin, "emulator", "--port", "0", "--quiet"], {
    cwd: dir,
    env: userEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const printed = new Map<string, string>();
  for await (const line of readline.createInterface({ input: child.stdout })) {
    const [, key, value] = /^([^=:]+)[=:]\s*(.*)$/.exec(line) ?? [];
    if (key) printed.set(key.trim(), value.trim());
    if (printed.has("OIDC issuer")) break;
  }
  if (!printed.has("OIDC issuer")) throw new Error(`the installed emulator did not start: ${stderr}`);
  return {
    url: printed.get("PLATFORM_API_URL")!,
    token: printed.get("PLATFORM_TOKEN")!,
    rootUid: printed.get("Root organization")!,
    child,
  };
}

/** The files a TypeScript program reads that are not under `dir` (the compiler's own lib files aside). */
function typeCheck(projectDir: string, dir: string): { errors: string[]; outside: string[] } {
  const configPath = path.join(projectDir, "tsconfig.json");
  const configFile = ts.readConfigFile(configPath, ts.sys.readFile);
  // Named, so that type roots are looked for from the project's folder up, not from this process's.
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, projectDir, undefined, configPath);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const compilerLib = path.dirname(require.resolve("typescript"));
  return {
    errors: ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    outside: program
      .getSourceFiles()
      .map((file) => path.resolve(file.fileName))
      .filter((file) => !file.startsWith(dir + path.sep) && !file.startsWith(compilerLib + path.sep)),
  };
}

describe("the published package, installed with `npm install <tarball>` into an empty folder outside the repository", () => {
  let dir: string;

  beforeAll(() => {
    const { dir: folder, tarball } = pack();
    dir = folder;
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "program", private: true }) + "\n");
    const install = spawnSync(npm, ["install", tarball, "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: dir,
      env: userEnvironment(),
      encoding: "utf8",
    });
    if (install.status !== 0)
      throw new Error(`npm install of the tarball failed:\n${install.stdout}\n${install.stderr}`);
  }, 300_000);

  test("it loads: the package, every provider module a state names (a bare require by path, as the host does)", () => {
    const script = `
      const assert = require("node:assert");
      const platform = require("platform-pulumi");
      assert.strictEqual(typeof platform.iam.Group, "function");
      assert.ok(require.resolve("platform-pulumi").startsWith(${JSON.stringify(dir)}));
      const kindList = require("platform-pulumi/dist/resources/kinds");
      const paths = [];
      for (const kind of kindList.KINDS)
        for (const id of [kindList.modulePathOf(kind), ...kind.formerModules]) {
          const provider = require("platform-pulumi/dist/" + id);
          assert.strictEqual(provider, kind.provider, id + " is not its kind's provider");
          for (const op of ["check", "diff", "create", "read", "update", "delete"])
            assert.strictEqual(typeof provider[op], "function", id + " has no " + op);
          paths.push(id);
        }
      console.log(JSON.stringify(paths));`;
    const run = spawnSync(process.execPath, ["-e", script], { cwd: dir, env: userEnvironment(), encoding: "utf8" });
    expect(run.stderr).toBe("");
    const loaded = JSON.parse(run.stdout) as string[];
    // Every path a state written by 0.1.x names: each must stay a module of the same provider.
    expect(loaded).toEqual(expect.arrayContaining(PROVIDER_PATHS_OF_0_1));
    expect(new Set(loaded).size).toBe(loaded.length);
  });

  test("its emulator starts, `npx platform-pulumi export` reads it, and the exported program type-checks against the installed package", async () => {
    const emulator = await startInstalledEmulator(dir);
    try {
      const exported = spawnSync(
        npx,
        ["--no", "--", "platform-pulumi", "export", "--under", emulator.rootUid, "--out", "exported"],
        {
          cwd: dir,
          env: userEnvironment({ PLATFORM_API_URL: emulator.url, PLATFORM_TOKEN: emulator.token }),
          encoding: "utf8",
        },
      );
      expect([
        exported.status,
        exported.stderr.split("\n").filter((line) => !/^platform-pulumi export: read /.test(line)),
      ]).toEqual([0, [""]]);
      // The seeded organization holds a repo, tags, an identity and an identity provider at least.
      expect(exported.stdout).toMatch(
        /^Wrote Pulumi\.yaml, package\.json, index\.ts, tsconfig\.json to exported: .*registry\.Repo/,
      );
      const project = path.join(dir, "exported");
      expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toMatch(/^name: platform-/);
      expect(fs.readFileSync(path.join(project, "index.ts"), "utf8")).toContain("new platform.iam.Identity(");
      const { errors, outside } = typeCheck(project, dir);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      const exited = once(emulator.child, "exit");
      emulator.child.kill();
      await exited;
    }
  });

  test.each(["--help", "-h", "help"])("`platform-pulumi %s` prints the usage and exits 0", (flag) => {
    const help = spawnSync(npx, ["--no", "--", "platform-pulumi", flag], {
      cwd: dir,
      env: userEnvironment(),
      encoding: "utf8",
    });
    expect([help.status, help.stderr]).toEqual([0, ""]);
    // The emulator's options wrap onto lines of their own before the export's usage.
    expect(help.stdout).toMatch(
      /^Usage: platform-pulumi emulator .*\n(\s+\[.*\n)*\s+platform-pulumi export --under GROUP_UID/,
    );
    expect(help.stdout).toContain("platform-pulumi export --from-terraform FILE");
  });
});
