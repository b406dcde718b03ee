/**
 * Type errors of TypeScript programs as a project's program sees them: strict, CommonJS, the
 * repository's node_modules (and its @types) on the module path, `paths` adding what a program
 * imports by name (`platform-pulumi` from this repository). For the tests of generated code.
 */
import * as path from "node:path";
import ts from "typescript";

export function typeErrors(
  files: readonly string[],
  options: { root: string; baseUrl: string; paths?: Record<string, string[]> },
): string[] {
  const program = ts.createProgram([...files], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [path.join(options.root, "node_modules", "@types")],
    baseUrl: options.baseUrl,
    paths: { ...options.paths, "*": [path.join(options.root, "node_modules", "*")] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${path.relative(options.baseUrl, d.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}
