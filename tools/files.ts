/**
 * File helpers the engine, the host driver, the demo and the benchmarks share: one way to
 * write a file so that no reader ever sees half of it, and one way to read JSON that may not
 * be there yet.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Writes `text` to `file` through a temporary file in the same folder, synced and then renamed
 * over the target: after a crash the file holds either the old or the new text, never a part.
 */
export function writeFileAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, "w");
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** `text` parsed as JSON, or undefined when there is no text or it is not JSON. */
export function parseJsonOrUndefined<T = unknown>(text: string | undefined): T | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** The JSON in `file`, or undefined when the file does not exist (or holds no JSON). */
export function readJsonOrUndefined<T = unknown>(file: string): T | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return parseJsonOrUndefined<T>(text);
}
