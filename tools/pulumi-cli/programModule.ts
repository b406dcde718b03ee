/**
 * Loading a program's module the way the Node.js language host does: CommonJS with `require`,
 * an ES module with `import()`, its exports (or its default export) as the stack outputs.
 * For the real-CLI runner (./automation.ts).
 */
import * as url from "node:url";

/** What the program exports: the stack outputs, or a function that returns them. */
export async function loadProgram(entry: string, esm: boolean): Promise<unknown> {
  return esm ? esmExports(await dynamicImport(url.pathToFileURL(entry).href)) : require(entry);
}

/** A real `import()`: tsc would turn one written here into `require()`, which cannot load an ES module. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to keep import() through tsc
const dynamicImport = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<any>;

/** The language host's rule: a default export replaces the named ones (never both). */
function esmExports(namespace: Record<string, unknown>): unknown {
  if (Object.getOwnPropertyDescriptor(namespace, "default") !== undefined) {
    if (Object.keys(namespace).length !== 1) {
      throw new Error("expected the program module to have either a default export or named exports, not both");
    }
    return namespace.default;
  }
  return { ...namespace };
}
