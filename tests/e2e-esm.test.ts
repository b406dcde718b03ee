/**
 * The example organization's user stories (tests/support/orgStories.ts) with the program compiled
 * to an ES module (index.mjs, loaded with import()), run from the example's own folder; and the
 * example type-checked against the package's published declarations.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { exampleDir } from "../tools/engine/orgProject";
import { describeOrgStories } from "./support/orgStories";
import { repoRoot, stagePackage } from "../tools/host/stage";

jest.setTimeout(180_000);

describeOrgStories({
  title: "the example organization as an ES module, from its own folder",
  cwd: exampleDir,
  esm: true,
  label: "esm",
});

describe("the example program's types", () => {
  test("the example type-checks against the package's published declarations", () => {
    const staged = stagePackage(`typecheck-${process.pid}`);
    try {
      for (const file of ["index.ts", "tsconfig.json"])
        fs.copyFileSync(path.join(exampleDir, file), path.join(staged.dir, file));
      const configFile = ts.readConfigFile(path.join(staged.dir, "tsconfig.json"), ts.sys.readFile);
      const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, staged.dir);
      const program = ts.createProgram(parsed.fileNames, {
        ...parsed.options,
        types: ["node"],
        typeRoots: [path.join(repoRoot, "node_modules", "@types")],
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(problems).toEqual([]);
    } finally {
      staged.remove();
    }
  });
});
