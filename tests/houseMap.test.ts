/**
 * The import check of the map of the house (CONTRIBUTING.md, "Map of the house"): every import
 * of every source file, read with TypeScript's own pre-processor (imports, `require` and
 * `import()` calls; text inside template strings is not code), goes down the map or stays in its
 * own room. A test file may import anything; a folder the map does not place fails until it does.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { repoRoot } from "../tools/host/stage";

const CORE = ["core/common", "core/transport", "core/model", "core/runtime", "core/program"];
const SHIPPED = [...CORE, "resources", "index.ts", "native", "exporter", "drift", "emulator", "cli.ts"];

/** Each room of the map, and the rooms it may import besides itself. */
export const MAP: Readonly<Record<string, readonly string[]>> = {
  "api document": [],
  "core/common": [],
  "core/transport": CORE.slice(0, 1),
  "core/model": CORE.slice(0, 2),
  "core/runtime": CORE.slice(0, 3),
  "core/program": CORE.slice(0, 4),
  resources: CORE,
  "index.ts": ["resources"],
  native: [...CORE, "resources"],
  exporter: [...CORE, "resources", "native"],
  drift: [...CORE, "resources", "native", "exporter"],
  // The independent judge of the provider: it learns the API from the documents in api/ alone.
  emulator: [],
  "cli.ts": SHIPPED,
  // Dev tooling and the benchmarks stand on the package and the emulator, never on tests/.
  tools: SHIPPED,
  bench: [...SHIPPED, "tools"],
  examples: [...SHIPPED, "tools"],
  tests: [...SHIPPED, "tools", "bench", "examples"],
};

/**
 * The API document's loader (emulator/apiDocument.ts and the file it reads) is a leaf with no
 * import of the package: the floor of the map, which every room may read, since the native schema
 * and the emulator both learn the API's messages and enums from the same document.
 */
const API_DOCUMENT = /^emulator\/apiDocument(File)?\.ts$/;

/** The room of a file: core/<role>, a top folder, or a file at the root. */
function roomOf(file: string): string {
  if (API_DOCUMENT.test(file)) return "api document";
  const parts = file.split("/");
  if (parts[0] === "core") return parts.length > 2 ? `core/${parts[1]}` : "core (no role)";
  if (parts.length === 1) return /^(jest|eslint)\.config\.m?js$/.test(file) ? "tools" : file;
  return parts[0];
}

const isTest = (file: string) => /\.test\.ts$/.test(file) || file.startsWith("tests/");

function sourceFiles(): string[] {
  return execFileSync("git", ["ls-files", "*.ts", "*.js", "*.mjs"], { cwd: repoRoot, encoding: "utf8" })
    .split("\n")
    .filter((file) => file !== "" && !file.startsWith("sdk/") && !file.includes("/programs/"))
    .filter((file) => fs.existsSync(path.join(repoRoot, file)));
}

/** The package's files each relative import names, resolved as the compiler would (.ts, .js, /index). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), name));
      const candidates = [target, `${target.replace(/\.js$/, "")}.ts`, `${target}.ts`, `${target}/index.ts`];
      return (
        candidates.find((c) => fs.existsSync(path.join(repoRoot, c)) && fs.statSync(path.join(repoRoot, c)).isFile()) ??
        target
      );
    });
}

/** How the map judges one import of a source file. */
export function judge(file: string, target: string): "down" | "against" {
  const from = isTest(file) ? "tests" : roomOf(file);
  const to = roomOf(target);
  return to === from || to === "api document" || MAP[from]?.includes(to) ? "down" : "against";
}

/** Every import of the package's sources that runs against the map, as "from -> to". */
export function importsAgainstTheMap(): { against: string[]; unplaced: string[] } {
  const against: string[] = [];
  const unplaced = new Set<string>();
  for (const file of sourceFiles()) {
    const from = isTest(file) ? "tests" : roomOf(file);
    if (!(from in MAP)) unplaced.add(from);
    for (const target of importsOf(file)) {
      // Package metadata and data files (package.json, api/*.json) are anyone's to read.
      if (!/\.(ts|js|mjs)$/.test(target)) continue;
      if (judge(file, target) === "against") against.push(`${file} -> ${target}`);
    }
  }
  return { against, unplaced: [...unplaced] };
}

test("every folder and root file of the package has its room on the map", () => {
  expect(importsAgainstTheMap().unplaced).toEqual([]);
});

test("no import runs up the map or sideways across it", () => {
  expect(importsAgainstTheMap().against).toEqual([]);
});

test("the map judges an import up a layer or sideways as against it, and a test file's as free", () => {
  expect(judge("core/transport/client.ts", "core/runtime/lifecycle.ts")).toBe("against");
  expect(judge("core/runtime/lifecycle.ts", "core/model/kind.ts")).toBe("down");
  expect(judge("bench/world.ts", "tests/support/fakeClock.ts")).toBe("against");
  expect(judge("emulator/store.ts", "core/common/values.ts")).toBe("against");
  expect(judge("native/provider.ts", "exporter/read.ts")).toBe("against");
  expect(judge("exporter/read.ts", "native/provider.ts")).toBe("down");
  expect(judge("core/lonely.ts", "core/common/values.ts")).toBe("against");
  expect(judge("native/provider.test.ts", "tests/support/fakeClock.ts")).toBe("down");
  expect(judge("emulator/kinds/groups.ts", "resources/iam/group/description.ts")).toBe("against");
  expect(judge("emulator/kinds/registry.ts", "native/schema.ts")).toBe("against");
  // The API document's loader is the floor: the native schema and the emulator both read it.
  expect(judge("native/schema.ts", "emulator/apiDocument.ts")).toBe("down");
  expect(judge("core/model/kind.ts", "emulator/apiDocument.ts")).toBe("down");
  expect(judge("native/schema.ts", "emulator/store.ts")).toBe("against");
  // The reading sees imports, requires and import() calls of a real file.
  expect(importsOf("core/runtime/lifecycle.ts")).toContain("core/model/kind.ts");
  expect(importsOf("cli.ts")).toContain("core/transport/client.ts");
});
