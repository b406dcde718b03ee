#!/usr/bin/env node
// Runs jest and closes with one plain "N passed, M failed" line computed from jest's own
// results, because CI counts tests only from that line. Arguments are jest's own (parsed by
// jest): path patterns, `-t "<test name>"` to run one test alone, and so on.
const { buildArgv, runCLI } = require("jest");
const path = require("node:path");

async function main() {
  const root = path.resolve(__dirname, "..");
  const argv = await buildArgv(process.argv.slice(2));
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
