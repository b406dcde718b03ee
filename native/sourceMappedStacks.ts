/**
 * Stack traces of the plugin's single executable in the package's source files (`native/server.ts:120:7`):
 * its one bundled script is minified, so each frame in it is mapped through the bundle's source map,
 * read and parsed only when a first stack is formatted (tools/plugin/bundle.ts).
 */
import { SourceMap, type SourceMapPayload } from "node:module";

/** Maps the frames of the script this module is bundled into through the source map `readMap` answers. */
export function mapStackTraces(readMap: () => string): void {
  const bundleFile = callerFile();
  let map: SourceMap | null | undefined;
  const sourceMap = () => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readMap()) as SourceMapPayload);
      } catch {
        map = null; // No map: frames stay as they are rather than an error hiding the error.
      }
    }
    return map;
  };
  Error.prepareStackTrace = (error, frames) => {
    const lines = frames.map((frame) => {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- V8's CallSite formats itself as a frame
      const text = frame.toString();
      const line = frame.getLineNumber();
      const column = frame.getColumnNumber();
      if (frame.getFileName() !== bundleFile || line === null || column === null) return text;
      const entry = sourceMap()?.findEntry(line - 1, column - 1);
      if (!entry || !("originalSource" in entry)) return text;
      const origin = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
      return text.replace(`${bundleFile}:${line}:${column}`, origin);
    });
    return [headerOf(error), ...lines.map((line) => `    at ${line}`)].join("\n");
  };
}

/** The file of this module's code, as V8 names it in frames (the executable's script). */
function callerFile(): string | null {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, never called here
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, frames) => frames;
  try {
    const frames = new Error().stack as unknown as NodeJS.CallSite[];
    return frames[0]?.getFileName() ?? null;
  } finally {
    Error.prepareStackTrace = previous;
  }
}

/** The first line V8 writes for `error`: "TypeError: message". */
function headerOf(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return "Error";
  }
}
