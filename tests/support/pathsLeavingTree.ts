/**
 * Finds the paths a file names that lead out of the repository: a fresh clone has nothing
 * beside it, so a build step, test or module that reads the team's shared reference (or any other
 * neighbour) works only on the machines that happen to have one.
 *
 * A path is taken where the file's own code would take it: a compiled module (`.ts`) runs from
 * `dist/<its folder>`, a script (`.js`, `.mjs`, `.cjs`) from its folder, and what a manifest or a
 * shell script names is taken from the repository's root and from the file's folder (it leaves
 * the tree only when it does from both).
 */
import * as path from "node:path";

/** A relative path anywhere in the text: `../x`, `file:../..`, or a bare `..` as a string. */
const RELATIVE = /(?<![\w.])((?:\.\.\/)+[^\s"'`)$,;]*|\.\.(?=["'`]))/g;
/** `path.join(…)` / `path.resolve(…)` with plain arguments (identifiers and string literals). */
const JOIN = /path\.(?:join|resolve)\(([^()]*)\)/g;
/** Names the repository's code gives its root. */
const ROOT_NAMES = new Set(["repoRoot", "root"]);

const leaves = (root: string, target: string) => {
  const rel = path.relative(root, target);
  return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
};

/** The folders a relative path in `file` is resolved from. */
function basesOf(root: string, file: string): string[] {
  const folder = path.dirname(file);
  if (/\.tsx?$/.test(file)) return [path.join(root, "dist", folder)];
  if (/\.[cm]?js$/.test(file)) return [path.join(root, folder)];
  return [root, path.join(root, folder)];
}

const named = (line: string, bases: string[], root: string): boolean => {
  if (/\bshared\/reference\b/.test(line)) return true;
  for (const match of line.matchAll(RELATIVE))
    if (bases.every((base) => leaves(root, path.resolve(base, match[1])))) return true;
  for (const match of line.matchAll(JOIN)) {
    const [first, ...rest] = match[1].split(",").map((arg) => arg.trim());
    const starts = first === "__dirname" ? bases.slice(0, 1) : ROOT_NAMES.has(first) ? [root] : [];
    // Only the literal segments before the first computed one decide where the path goes.
    const known: string[] = [];
    for (const arg of rest) {
      const literal = /^["'`]([^"'`$]*)["'`]$/.exec(arg)?.[1];
      if (literal === undefined) break;
      known.push(literal);
    }
    if (starts.some((start) => leaves(root, path.resolve(start, ...known)))) return true;
  }
  return false;
};

/**
 * The lines of `text` (the contents of `file`, relative to `root`) that name a path outside
 * `root`, each as `file:line: text`.
 */
export function pathsLeavingTree(root: string, file: string, text: string): string[] {
  const bases = basesOf(root, file);
  return text
    .split("\n")
    .flatMap((line, index) => (named(line, bases, root) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}
