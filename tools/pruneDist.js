#!/usr/bin/env node
// Part of the incremental build (`npm test`, test:*): tsc leaves the compiled files of a source that
// was deleted or renamed in dist/, where a stale *.test.js would still run as a phantom test and a
// stale module could still be required. Every compiled file whose .ts source is gone is removed.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const COMPILED = /\.(js|js\.map|d\.ts)$/;

function prune(dir) {
  let removed = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removed += prune(full);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      continue;
    }
    if (!COMPILED.test(entry.name)) continue;
    const source = path.join(root, path.relative(dist, full).replace(COMPILED, ".ts"));
    if (fs.existsSync(source)) continue;
    fs.rmSync(full);
    removed += 1;
  }
  return removed;
}

if (fs.existsSync(dist)) {
  const removed = prune(dist);
  if (removed > 0) console.error(`build: removed ${removed} compiled file(s) of deleted sources from dist/`);
}
