#!/usr/bin/env node
// Runs jest and closes with one plain "N passed, M failed" line computed from jest's own
// results, because CI counts tests only from that line. Extra arguments are jest patterns.
const { runCLI } = require("jest");
const path = require("node:path");

async function main() {
  const root = path.resolve(__dirname, "..");
  const patterns = process.argv.slice(2);
  const { results } = await runCLI({ _: patterns, $0: "jest", ci: Boolean(process.env.CI) }, [root]);
  // A suite that cannot even load counts as a failure, so the line never reads green by omission.
  const brokenSuites = results.numRuntimeErrorTestSuites;
  console.log(`${results.numPassedTests} passed, ${results.numFailedTests + brokenSuites} failed`);
  if (results.numTotalTests === 0) {
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
