/**
 * The committed reference pages as the tests read them: every page under docs/api/ with its
 * examples, by language.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Language, examplesOf } from "./examples";
import { ENUMS_PAGE } from "./tables";

export interface PageExamples {
  /** Path under docs/: `api/iam/group.md`. */
  readonly page: string;
  /** A name for the page's programs, unique among the pages: `iam-group`. */
  readonly name: string;
  readonly examples: Partial<Record<Language, string>>;
}

/** Every page of docs/api/ (but its index and the enums page) with the examples of its "Example usage" section. */
export function pageExamples(docsDir: string): PageExamples[] {
  const api = path.join(docsDir, "api");
  return fs
    .readdirSync(api, { recursive: true, encoding: "utf8" })
    .map((entry) => entry.split(path.sep).join("/"))
    .filter((entry) => entry.endsWith(".md") && entry !== "README.md" && `api/${entry}` !== ENUMS_PAGE)
    .sort()
    .map((entry) => ({
      page: `api/${entry}`,
      name: entry.replace(/\.md$/, "").replace(/\//g, "-"),
      examples: examplesOf(fs.readFileSync(path.join(api, entry), "utf8")),
    }));
}
