import * as fs from "node:fs";
import * as path from "node:path";

const DAY_MS = 86_400_000;

/**
 * The folder `<parent>/<key>` for one content (`key` a hash of it), filled by `fill` in a staging
 * folder and renamed into place: never rewritten, so runs side by side never see a half-made one.
 * Folders of other content a day old are removed when a new one is made: no run still uses them.
 */
export function contentFolder(parent: string, key: string, fill: (staging: string) => void): string {
  const folder = path.join(parent, key);
  if (fs.existsSync(folder)) return folder;
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, "staging-"));
  try {
    fill(staging);
    fs.renameSync(staging, folder);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another process made the same folder first.
    if (!fs.existsSync(folder)) throw error;
  }
  for (const entry of fs.readdirSync(parent)) {
    const other = path.join(parent, entry);
    const made = fs.statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (other !== folder && Date.now() - made > DAY_MS) fs.rmSync(other, { recursive: true, force: true });
  }
  return folder;
}
