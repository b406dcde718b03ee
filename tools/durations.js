#!/usr/bin/env node
// Updates tests/durations.json, the seconds each test file took, from a run's jest results:
// `node tests/run-jest.js --json --outputFile=.work/results.json`, then `node tools/durations.js
// .work/results.json`. The files the run had take its times, the others keep theirs, and those whose
// source is gone leave. tools/testSequencer.js starts the slowest first.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const target = path.join(root, "tests", "durations.json");

/** A compiled test's source path, relative to the repository that ran it: dist/<x>.test.js → <x>.test.ts. */
function sourceOf(file) {
  const at = file.replace(/\\/g, "/").lastIndexOf("/dist/");
  if (at === -1) return undefined;
  return file.slice(at + "/dist/".length).replace(/\.js$/, ".ts");
}

function main(resultsFile) {
  if (!resultsFile) throw new Error("usage: node tools/durations.js <jest --json results file>");
  const { testResults } = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
  const seconds = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, "utf8")) : {};
  for (const source of Object.keys(seconds)) if (!fs.existsSync(path.join(root, source))) delete seconds[source];
  let taken = 0;
  for (const result of testResults ?? []) {
    const source = sourceOf(result.name);
    if (source && result.endTime > result.startTime) {
      seconds[source] = Math.round((result.endTime - result.startTime) / 100) / 10;
      taken += 1;
    }
  }
  if (taken === 0) throw new Error(`${resultsFile} holds no test file's time`);
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  fs.writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`${path.relative(root, target)}: ${taken} files' times taken, ${Object.keys(sorted).length} in all`);
}

main(process.argv[2]);
