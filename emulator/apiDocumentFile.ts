/**
 * Where the emulator's API document is: the copy the build puts beside the compiled emulator (from
 * api/ in the repository; what the published package carries). The single executable
 * (tools/plugin/bundle.ts) replaces this module: there the document is one of its assets.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const DEFAULT_DOCUMENT_PATH = path.join(__dirname, "api-v2-schema.json");

export function readDefaultDocument(): string {
  return fs.readFileSync(DEFAULT_DOCUMENT_PATH, "utf8");
}
