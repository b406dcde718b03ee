import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as TypeScript from "typescript";
import { repoRoot, stagePackage } from "../host/stage";

export interface StagedProgram {
  /** The program's working directory: the host runs here, so `require("platform-pulumi/…")` resolves. */
  dir: string;
  /** The file to load: index.js (CommonJS) or index.mjs (ES module), written by compile(). */
  entry: string;
  /**
   * Transpiles index.ts to the entry file. Separate from staging because loading TypeScript
   * takes a while: the CLI starts the provider host first, then compiles while it boots.
   */
  compile(): void;
  remove(): void;
}

export interface StageOptions {
  programDir: string;
  stack: string;
  esm: boolean;
  /** Makes the folder unique per state file, so parallel tests on the same program do not collide. */
  salt: string;
  /**
   * Packages to install as copies under node_modules (name → folder). Without it the built
   * platform-pulumi is installed, as `npm install` with `install-links=true` would.
   */
  packages?: Record<string, string>;
}

/**
 * Lays the program out the way a user's checkout looks after `npm install`: its files, the
 * package as a real folder under node_modules, and its index.ts transpiled as ts-node would
 * (CommonJS), or to an ES module for programs whose package.json says "type": "module".
 */
export function stageProgram(options: StageOptions): StagedProgram {
  const hash = crypto
    .createHash("sha256")
    .update(`${path.resolve(options.programDir)}\0${options.salt}\0${options.esm}`)
    .digest("hex")
    .slice(0, 10);
  const name = `${options.stack}-${hash}`;
  let dir: string;
  if (options.packages) {
    dir = path.join(repoRoot, ".work", name);
    fs.rmSync(dir, { recursive: true, force: true });
    for (const [pkg, source] of Object.entries(options.packages)) {
      fs.cpSync(source, path.join(dir, "node_modules", pkg), { recursive: true });
    }
  } else {
    dir = stagePackage(name).dir;
  }
  for (const entry of fs.readdirSync(options.programDir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    fs.cpSync(path.join(options.programDir, entry.name), path.join(dir, entry.name), { recursive: true });
  }
  const source = path.join(dir, "index.ts");
  const javascript = path.join(dir, "index.js");
  if (!fs.existsSync(source)) {
    // A JavaScript program (CommonJS) runs as it is.
    if (fs.existsSync(javascript) && !options.esm)
      return {
        dir,
        entry: javascript,
        compile: () => undefined,
        remove: () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    throw new Error(`${options.programDir} has no index.ts${options.esm ? "" : " or index.js"}`);
  }
  const entry = path.join(dir, options.esm ? "index.mjs" : "index.js");
  return {
    dir,
    entry,
    compile: () => fs.writeFileSync(entry, transpile(fs.readFileSync(source, "utf8"), dir, options.esm, source)),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

const typescript = (): typeof TypeScript => require("typescript");

function transpile(text: string, dir: string, esm: boolean, fileName: string): string {
  const ts = typescript();
  const compilerOptions: TypeScript.CompilerOptions = { ...programCompilerOptions(dir) };
  compilerOptions.module = esm ? ts.ModuleKind.ES2022 : ts.ModuleKind.CommonJS;
  compilerOptions.target ??= ts.ScriptTarget.ES2020;
  compilerOptions.esModuleInterop = true;
  delete compilerOptions.outDir;
  delete compilerOptions.declaration;
  const result = ts.transpileModule(text, { compilerOptions, fileName, reportDiagnostics: true });
  const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    const messages = errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    throw new Error(`index.ts does not compile: ${messages.join("; ")}`);
  }
  return result.outputText;
}

function programCompilerOptions(dir: string): TypeScript.CompilerOptions {
  const ts = typescript();
  const file = path.join(dir, "tsconfig.json");
  if (!fs.existsSync(file)) return {};
  const parsed = ts.parseConfigFileTextToJson(file, fs.readFileSync(file, "utf8"));
  if (parsed.error)
    throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, "\n")}`);
  return ts.convertCompilerOptionsFromJson(parsed.config?.compilerOptions ?? {}, dir).options;
}
