/**
 * The engine's event log as the CLI appends it (`--event-log`, or the Automation API's events
 * file): waits on it by watching its folder, never by polling on a timer.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Resolves once the engine has started `count` refresh steps of dynamic resources. */
export async function refreshesStarted(eventsFile: string, count: number): Promise<void> {
  // Watching before each look, so an event appended meanwhile is never missed.
  let changedSince = true;
  let wake: (() => void) | undefined;
  const watcher = fs.watch(path.dirname(eventsFile), () => {
    changedSince = true;
    wake?.();
  });
  try {
    for (;;) {
      if (!changedSince) await new Promise<void>((resolve) => (wake = resolve));
      changedSince = false;
      const text = fs.existsSync(eventsFile) ? fs.readFileSync(eventsFile, "utf8") : "";
      // Only whole lines: the engine may be halfway through appending the last one.
      const started = text
        .slice(0, text.lastIndexOf("\n") + 1)
        .split("\n")
        .filter((line) => line.includes('"resourcePreEvent"'))
        .map((line) => JSON.parse(line).resourcePreEvent.metadata)
        .filter((m) => m.op === "refresh" && m.type.includes("dynamic/")).length;
      if (started >= count) return;
    }
  } finally {
    watcher.close();
  }
}
