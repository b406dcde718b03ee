#!/usr/bin/env node
// Developer script, never run by build, test, demo or CI: refreshes the repository's copy of
// the API's documents (api/api-v2-schema.json) from the shared reference kept beside the
// repository, after the people who maintain that reference change it. See api/README.md.
//
//   node tools/refreshApiDocument.js [--check] [--from DIR]
const fs = require("node:fs");
const path = require("node:path");
const { parseArgs } = require("node:util");

const root = path.resolve(__dirname, "..");
const { values } = parseArgs({
  options: {
    check: { type: "boolean", default: false },
    from: { type: "string", default: path.resolve(root, "..", "shared", "reference") },
  },
});
const source = path.join(path.resolve(values.from), "api-v2-schema.json");
const target = path.join(root, "api", "api-v2-schema.json");

if (!fs.existsSync(source)) {
  console.error(`refresh: no API document at ${source}; pass --from <folder holding api-v2-schema.json>`);
  process.exit(2);
}
const fresh = fs.readFileSync(source);
let parsed;
try {
  parsed = JSON.parse(fresh.toString("utf8"));
} catch (error) {
  console.error(`refresh: ${source} is not valid JSON (${error.message}); the copy is left as it was`);
  process.exit(2);
}
if (!Array.isArray(parsed.operations) || !Array.isArray(parsed.v2beta1Only) || typeof parsed.schemas !== "object") {
  console.error(`refresh: ${source} lacks operations, v2beta1Only or schemas; the copy is left as it was`);
  process.exit(2);
}
const current = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
if (current && current.equals(fresh)) {
  console.log(`refresh: ${path.relative(root, target)} is up to date with ${source}`);
  process.exit(0);
}
if (values.check) {
  console.error(`refresh: ${path.relative(root, target)} differs from ${source}; run node tools/refreshApiDocument.js`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, fresh, { mode: 0o644 });
console.log(
  `refresh: ${path.relative(root, target)} now holds ${source} ` +
    `(${parsed.operations.length + parsed.v2beta1Only.length} operations, ${Object.keys(parsed.schemas).length} messages); ` +
    "run npm test and commit it",
);
