#!/usr/bin/env node
// Part of `npm run build`: the emulator serves the API as its documents describe it
// (api/api-v2-schema.json, committed in the repository; see api/README.md). A copy goes beside
// the compiled emulator so the published package carries it (dist/emulator ships; api/ does not).
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const source = path.join(root, "api", "api-v2-schema.json");
const target = path.join(root, "dist", "emulator", "api-v2-schema.json");
if (!fs.existsSync(source)) {
  console.error(`build: the API document ${source} is missing; it is part of the repository (git checkout -- api)`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
// A fresh, writable file each time (a copy of a read-only source's mode would block the next build).
fs.rmSync(target, { force: true });
fs.writeFileSync(target, fs.readFileSync(source), { mode: 0o644 });
