#!/usr/bin/env node
// Lists every test of the compiled suite as "<file> › <full name>", one a line, sorted, without
// running any: jest loads each file and collects its tests, and a name pattern no test can match
// leaves them all unrun (hooks included). Two lists compared show that a change lost no test.
// Arguments are jest's own (a tier: --selectProjects unit).
const { buildArgv, runCLI } = require("jest");
const path = require("node:path");

async function main() {
  const root = path.resolve(__dirname, "..");
  const argv = await buildArgv([...process.argv.slice(2), "--testNamePattern", "^\\b$", "--silent"]);
  const { results } = await runCLI({ ...argv, reporters: [] }, [root]);
  const lines = [];
  for (const file of results.testResults) {
    const relative = path.relative(root, file.testFilePath);
    if (file.testExecError) lines.push(`${relative} › (does not load: ${file.testExecError.message.split("\n")[0]})`);
    for (const test of file.testResults) lines.push(`${relative} › ${test.fullName}`);
  }
  lines.sort();
  process.stdout.write(lines.join("\n") + "\n");
  console.error(`${lines.length} tests in ${results.testResults.length} files`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
