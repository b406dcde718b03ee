#!/usr/bin/env node
// Runs jest and closes with one plain "N passed, M failed" line computed from jest's own
// results, because CI counts tests only from that line. Arguments are jest's own (parsed by
// jest): path patterns, `-t "<test name>"` to run one test alone, and so on.
//
// The tiers are jest projects (jest.config.js, tools/tiers.js): `--selectProjects unit` runs one.
// Before jest it removes the compiled files of deleted sources from dist/ (tools/pruneDist.js), so
// no stale test runs. Then, unless only the unit tier runs, it finds or builds the real Pulumi CLI
// once for the whole run (`npm run -s pulumi-cli`) and hands its folder to the real-CLI stories
// (tools/pulumi-cli/find.ts) in PLATFORM_PULUMI_CLI_DIR. When there is none, it says so loudly and
// how to get one, and the stories fail with that message. The unit tier runs in-process: it looks
// for no CLI, and a test of it that asks for one fails saying which tier it belongs to.
const { spawnSync } = require("node:child_process");
const { buildArgv, runCLI } = require("jest");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

function findPulumiCli(root) {
  if (process.env.PLATFORM_PULUMI_CLI_DIR) return;
  // The build's progress goes to stderr as it happens; only the folder comes back on stdout.
  const answer = spawnSync("npm", ["run", "-s", "pulumi-cli"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const dir = (answer.stdout ?? "").trim().split("\n").pop();
  if (answer.status === 0 && dir) {
    process.env.PLATFORM_PULUMI_CLI_DIR = dir;
    return;
  }
  const message =
    "No Pulumi CLI for the real-CLI stories: `npm run pulumi-cli` could neither find a pulumi v3 on PATH nor build one. " +
    "Put a Pulumi CLI v3 on PATH, or install Go >= 1.26 so that it builds one from tools/pulumi-cli/go.mod.";
  console.error(`\n*** ${message}\n`);
  process.env.PLATFORM_PULUMI_CLI_UNAVAILABLE = message;
}

const UNIT_ONLY =
  "The unit tier runs in-process, with no Pulumi CLI: a test that runs `pulumi` belongs to the cli tier " +
  "(under tests/realCli/ or named *.realCli.test.ts; see CONTRIBUTING.md, Test tiers).";

// The cli tier's stories start the plugin once or twice a `pulumi` command: one bundle of it for the
// run (tests/support/pluginFolder.ts) instead of node resolving dist/ and writing the schema each time.
// A folder per content (tools/host/contentFolder.ts), so runs side by side never see a half-written one.
async function preparePlugin(root) {
  if (process.env.PLATFORM_PULUMI_TEST_PLUGIN_DIR) return;
  const bundler = path.join(root, "dist", "tools", "plugin", "bundle.js");
  if (!fs.existsSync(bundler)) return;
  let code;
  try {
    ({ code } = await require(bundler).bundlePlugin());
  } catch (error) {
    console.error(`the plugin's bundle could not be made (${error.message}): the stories start native/ instead`);
    return;
  }
  const text = `#!/usr/bin/env node\n${code}`;
  const { contentFolder } = require(path.join(root, "dist", "tools", "host", "contentFolder.js"));
  const key = crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
  const folder = contentFolder(path.join(root, ".work", "test-plugin"), key, (staging) =>
    fs.writeFileSync(path.join(staging, "pulumi-resource-platform"), text, { mode: 0o755 }),
  );
  process.env.PLATFORM_PULUMI_TEST_PLUGIN_DIR = folder;
}

async function main() {
  const root = path.resolve(__dirname, "..");
  spawnSync(process.execPath, [path.join(root, "tools", "pruneDist.js")], { stdio: "inherit" });
  // `--tier <name>` (repeatable) picks jest projects; taken here, not as jest's --selectProjects,
  // whose list would swallow the path patterns after it (`npm run test:unit -- dist/core`).
  const args = process.argv.slice(2);
  const selected = [];
  for (let at = args.indexOf("--tier"); at !== -1; at = args.indexOf("--tier"))
    selected.push(...args.splice(at, 2).slice(1));
  const argv = await buildArgv(args);
  if (selected.length > 0) argv.selectProjects = selected;
  const unitOnly = selected.length > 0 && selected.every((tier) => tier === "unit");
  if (!unitOnly) {
    findPulumiCli(root);
    await preparePlugin(root);
  } else if (!process.env.PLATFORM_PULUMI_CLI_DIR) process.env.PLATFORM_PULUMI_CLI_UNAVAILABLE = UNIT_ONLY;
  const { results } = await runCLI({ ...argv, ci: argv.ci ?? Boolean(process.env.CI) }, [root]);
  // A suite that cannot even load counts as a failure, so the line never reads green by omission.
  const brokenSuites = results.numRuntimeErrorTestSuites;
  console.log(`${results.numPassedTests} passed, ${results.numFailedTests + brokenSuites} failed`);
  if (results.numPassedTests + results.numFailedTests === 0) {
    console.error("no test ran");
    process.exit(1);
  }
  process.exit(results.numFailedTests > 0 || brokenSuites > 0 || !results.success ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
