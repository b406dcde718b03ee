// The test tiers, chosen by rules from the compiled tests in dist/ (jest.config.js makes one jest
// project of each; CONTRIBUTING.md "Test tiers" tells them to contributors):
//   release: a file named *.release.test.ts, or one of RELEASE_FILES (the fresh clone, the packed
//            package, the plugin archive, the SDKs, the benchmark smoke figures, the start-up and
//            self-contained checks, the release workflow);
//   cli:     under tests/realCli/, named *.realCli.test.ts, or reaching the real CLI's finder
//            (tools/pulumi-cli/find) through its requires: every harness that runs `pulumi` asks it
//            for the CLI, so a new story lands here without being named anywhere;
//   unit:    everything else, in-process (the provider through the dynamic-provider host and the
//            plugin's gRPC server, the emulator, the exporter, the generator).
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");

/** Release tests that predate the *.release.test.ts rule, by their source paths (links point at them). */
const RELEASE_FILES = [
  "tests/freshClone.test.ts",
  "tests/package.test.ts",
  "tests/selfContained.test.ts",
  "tests/startup.test.ts",
  "tests/bench.test.ts",
  "tests/releaseWorkflow.test.ts",
  "tests/realCli/pluginArchive.test.ts",
  "native/sdks.test.ts",
  "tools/generate/docs/sdkExamples.test.ts",
];
const CLI_FINDER = path.join(dist, "tools", "pulumi-cli", "find.js");
const TIERS = ["unit", "cli", "release"];

/** Every compiled test file under dist/, absolute paths, sorted. */
function compiledTests(dir = dist) {
  if (!fs.existsSync(dir)) return [];
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...compiledTests(full));
    else if (entry.name.endsWith(".test.js")) found.push(full);
  }
  return found.sort();
}

/** The compiled modules a file requires by relative path (tsc drops imports used only as types). */
function relativeRequires(file) {
  const source = fs.readFileSync(file, "utf8");
  const modules = [];
  for (const [, spec] of source.matchAll(/require\("(\.{1,2}\/[^"]*)"\)/g)) {
    const base = path.resolve(path.dirname(file), spec);
    const hit = [base, `${base}.js`, path.join(base, "index.js")].find(
      (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
    );
    if (hit) modules.push(hit);
  }
  return modules;
}

/** Whether `file` reaches the CLI finder through its requires. */
function reachesCli(file, seen = new Set()) {
  if (file === CLI_FINDER) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  return relativeRequires(file).some((module) => reachesCli(module, seen));
}

/** The tier of one compiled test file (absolute path under dist/). */
function tierOf(file) {
  const source = path.relative(dist, file).replace(/\\/g, "/").replace(/\.js$/, ".ts");
  if (source.endsWith(".release.test.ts") || RELEASE_FILES.includes(source)) return "release";
  if (source.startsWith("tests/realCli/") || source.endsWith(".realCli.test.ts") || reachesCli(file)) return "cli";
  return "unit";
}

/** Each tier's compiled test files. */
function tiers() {
  const byTier = Object.fromEntries(TIERS.map((tier) => [tier, []]));
  for (const file of compiledTests()) byTier[tierOf(file)].push(file);
  return byTier;
}

module.exports = { TIERS, RELEASE_FILES, compiledTests, tierOf, tiers };

if (require.main === module) {
  // `node tools/tiers.js [tier]`: the files of a tier (or of each), relative to the repository.
  const byTier = tiers();
  for (const tier of process.argv[2] ? [process.argv[2]] : TIERS)
    for (const file of byTier[tier]) console.log(`${tier}\t${path.relative(root, file)}`);
}
