/**
 * The folders a Node.js program under the real CLI is made of, written to a scratch folder: the
 * program's own (Pulumi.yaml naming the project, index.ts), and the local packages it requires by
 * name (realCliStack's `packages`, each installed as a user's `npm install` would).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** `dir` made the program's folder; returns it. */
export function nodeProgramFolder(dir: string, project: string, source: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(dir, "index.ts"), source);
  return dir;
}

/** `<parent>/<name>` made a package whose main is `source`; returns its folder. */
export function localPackage(parent: string, name: string, source: string): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, main: "index.js" }));
  fs.writeFileSync(path.join(dir, "index.js"), source);
  return dir;
}
