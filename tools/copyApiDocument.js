#!/usr/bin/env node
// Part of `npm run build`: the emulator serves the API as its JSON document describes it, and
// that document lives beside the repository (../shared/reference). A copy goes beside the
// compiled emulator so the published package carries it (dist/emulator ships; ../shared does not).
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const source = path.resolve(root, "..", "shared", "reference", "api-v2-schema.json");
const target = path.join(root, "dist", "emulator", "api-v2-schema.json");
if (!fs.existsSync(source)) {
  console.error(`build: the API document ${source} is missing; check out the shared reference beside the repository`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
// A fresh, writable file each time (the reference is read-only; a copy of its mode would block the next build).
fs.rmSync(target, { force: true });
fs.writeFileSync(target, fs.readFileSync(source), { mode: 0o644 });
