/**
 * Type errors of a TypeScript program (a folder holding index.ts and tsconfig.json), checked
 * against the package's published declarations: the program is copied into a staged install.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { repoRoot, stagePackage } from "../../tools/host/stage";

export function typeErrors(projectDir: string, label: string): string[] {
  const staged = stagePackage(`${label}-${process.pid}`);
  try {
    for (const file of ["index.ts", "tsconfig.json"])
      fs.copyFileSync(path.join(projectDir, file), path.join(staged.dir, file));
    const configFile = ts.readConfigFile(path.join(staged.dir, "tsconfig.json"), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, staged.dir);
    const program = ts.createProgram(parsed.fileNames, {
      ...parsed.options,
      types: ["node"],
      typeRoots: [path.join(repoRoot, "node_modules", "@types")],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    staged.remove();
  }
}
