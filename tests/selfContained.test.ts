/**
 * The repository stands on its own: no source, test, build step, manifest or CI step names a
 * path outside it (a fresh clone has nothing beside it), and the API documents the emulator and
 * the kinds' checks read are the committed copy in api/.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_DOCUMENT_PATH } from "../emulator/apiDocument";
import { repoRoot } from "../tools/host/stage";
import { pathsLeavingTree } from "./support/pathsLeavingTree";

/** Files whose paths matter: code, manifests, configuration and CI (prose is not read by anything). */
const CHECKED = /\.(ts|[cm]?js|json|ya?ml|sh)$|^\.ci\/|(^|\/)\.npmrc$/;
/** Developer scripts that refresh a committed copy from its source beside the repository (api/README.md). */
const REFRESH_SCRIPTS = /^tools\/refresh[^/]*\.js$/;

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter((file) => file && CHECKED.test(file) && !REFRESH_SCRIPTS.test(file) && file !== "package-lock.json")
    .filter((file) => fs.existsSync(path.join(repoRoot, file)));
}

// Written in pieces so this file does not itself name the paths it is about.
const UP = "..";
const neighbour = [UP, "shared", "reference", "api-v2-schema.json"].join("/");

describe("the repository is self-contained", () => {
  test("no tracked file names a path outside the repository (only tools/refresh*.js may)", () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.flatMap((file) => pathsLeavingTree(repoRoot, file, fs.readFileSync(path.join(repoRoot, file), "utf8"))),
    ).toEqual([]);
  });

  test("the check sees each way of leaving the tree, and lets paths inside it be", () => {
    const leaving = (file: string, text: string) => pathsLeavingTree("/repo", file, text);
    // A compiled module runs from dist/<folder>, so one more level is needed to leave.
    expect(leaving("emulator/a.ts", `const f = path.resolve(__dirname, "${UP}/${UP}/${neighbour}");`)).toHaveLength(1);
    expect(leaving("emulator/a.ts", `const f = path.resolve(__dirname, "${UP}", "${UP}", "${UP}", "x");`)).toHaveLength(
      1,
    );
    expect(leaving("tests/a.ts", `fs.readFileSync(path.join(repoRoot, "${UP}", "shared", "x.json"))`)).toHaveLength(1);
    expect(leaving("tools/copy.js", `const source = path.resolve(root, "${UP}", "x", "y.json");`)).toHaveLength(1);
    expect(leaving("tools/copy.js", `const source = "${UP}/${UP}/x.json";`)).toHaveLength(1);
    expect(leaving(".ci/run", `cp ${UP}/${UP}/x/y.json api/`)).toHaveLength(1);
    expect(leaving("package.json", `"build": "tsc && cp ${UP}/x.json dist/"`)).toHaveLength(1);
    expect(leaving("examples/p/package.json", `"platform-pulumi": "file:${UP}/${UP}/${UP}"`)).toHaveLength(1);
    expect(leaving("tools/note.ts", `// the copy of ${["shared", "reference"].join("/")} lives in api/`)).toHaveLength(
      1,
    );

    expect(leaving("core/transport/client.ts", `require("${UP}/${UP}/package.json")`)).toEqual([]);
    expect(leaving("tools/host/stage.ts", `path.resolve(__dirname, "${UP}", "${UP}", "${UP}")`)).toEqual([]);
    expect(leaving("tools/copy.js", `path.resolve(__dirname, "${UP}")`)).toEqual([]);
    expect(leaving("examples/p/package.json", `"platform-pulumi": "file:${UP}/${UP}"`)).toEqual([]);
    expect(leaving(".ci/run", `cd "$(dirname "$0")/${UP}"`)).toEqual([]);
    expect(leaving("core/common/uid.test.ts", `["a/${UP}", "${UP}/roles/x", "abc/${UP}/${UP}/sts/exchange"]`)).toEqual(
      [],
    );
  });

  test("the emulator's API documents are the committed copy in api/, which the build puts beside it", () => {
    const committed = path.join(repoRoot, "api", "api-v2-schema.json");
    expect(path.relative(repoRoot, DEFAULT_DOCUMENT_PATH)).toBe(path.join("dist", "emulator", "api-v2-schema.json"));
    expect(fs.readFileSync(DEFAULT_DOCUMENT_PATH).equals(fs.readFileSync(committed))).toBe(true);
    expect(fs.readFileSync(path.join(repoRoot, "api", "README.md"), "utf8")).toContain("tools/refreshApiDocument.js");
  });

  test("nothing the build, the tests, the demo or CI runs calls the refresh script", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const callers = trackedFiles().filter(
      (file) =>
        file !== "tests/selfContained.test.ts" &&
        fs.readFileSync(path.join(repoRoot, file), "utf8").includes("refreshApiDocument"),
    );
    expect(callers).toEqual([]);
    expect(Object.values(pkg.scripts).filter((script) => script.includes("refresh"))).toEqual([]);
  });
});
