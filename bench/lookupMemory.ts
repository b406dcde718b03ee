/**
 * Figure 9: a look-up of 100,000 records in bounded memory. The emulator holds N groups; the
 * package's getGroups reads them all (pages of 200, the spec's maximum) into one array, and
 * listPages walks the same List handing on one page at a time. Each runs in a fresh process
 * (bench/lookupMemoryChild.ts). Reported: the heap the array holds after a full GC (the result's
 * size), the largest heap seen at a page boundary over the heap before the look-up, and peak RSS.
 * The array look-up should peak near its result (records held once, each page dropped once its
 * results are taken); the page walk should peak at a few pages whatever N is.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { startEmulator } from "../emulator";

export interface LookupMemoryRun {
  mode: "array" | "pages";
  records: number;
  pages: number;
  retainedHeapMb: number;
  peakHeapOverBaseMb: number;
  peakRssMb: number;
}

export interface LookupMemoryResult {
  groups: number;
  array: LookupMemoryRun;
  pages: LookupMemoryRun;
  /** Peak heap over the result's size, for the array look-up (1 = held once, nothing else). */
  arrayPeakOverResult: number;
  /** The page walk's peak heap over the array's result size. */
  pagesPeakOverResult: number;
}

const child = path.join(__dirname, "lookupMemoryChild.js");

export async function benchLookupMemory(options: { groups: number }): Promise<LookupMemoryResult> {
  const emu = await startEmulator({ quiet: true, seed: false, bulk: { groups: options.groups } });
  try {
    const run = async (mode: "array" | "pages"): Promise<LookupMemoryRun> => {
      // Asynchronous: the emulator answers from this process meanwhile.
      const text = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ["--expose-gc", child, mode, emu.url, emu.token],
          { maxBuffer: 1024 * 1024 },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${mode}: ${stderr || error.message}`)) : resolve(stdout),
        );
      });
      return JSON.parse(text.trim().split("\n").pop()!) as LookupMemoryRun;
    };
    const array = await run("array");
    const pages = await run("pages");
    if (array.records !== pages.records || array.records < options.groups)
      throw new Error(
        `the look-ups read ${array.records} and ${pages.records} groups; the emulator holds ${options.groups}+`,
      );
    return {
      groups: array.records,
      array,
      pages,
      arrayPeakOverResult: array.peakHeapOverBaseMb / array.retainedHeapMb,
      pagesPeakOverResult: pages.peakHeapOverBaseMb / array.retainedHeapMb,
    };
  } finally {
    await emu.close();
  }
}
