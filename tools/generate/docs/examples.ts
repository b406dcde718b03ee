/**
 * A page's "Example usage": one program written in each of the four languages, in the order
 * the Pulumi Registry shows them. The renderers get what each needs of the package: the
 * functions the TypeScript package has, the native schema, the Go SDK's import path and names.
 */
import type { Kind } from "../../../core/model/kind";
import type { PackageSchema } from "../../../native/schema";
import { GoNames, goProgram } from "./go";
import type { Program, ProgramContext } from "./program";
import { pythonProgram } from "./python";
import { typescriptProgram } from "./typescript";
import { yamlProgram } from "./yaml";

export interface DocsContext extends ProgramContext {
  readonly kinds: readonly Kind[];
  readonly schema: PackageSchema;
  /** Tokens of the functions the TypeScript package exports (`getRoles`, `getRolesOutput`). */
  readonly packageFunctions: ReadonlySet<string>;
  /** The Go SDK's import path of the package, its modules below it: `…/sdk/go/platform`. */
  readonly goImportBase: string;
  readonly goNames: GoNames;
  /** The repository path of a kind's description: `resources/iam/group/description.ts`. */
  readonly descriptionFile: (kind: Kind) => string;
  /** The TypeScript program as `npm run lint` formats it. */
  readonly formatTypeScript: (text: string) => Promise<string>;
}

export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_TITLES: Record<Language, string> = {
  typescript: "TypeScript",
  python: "Python",
  go: "Go",
  yaml: "YAML",
};

/** The heading of the section holding the examples, which the tests read them from. */
export const EXAMPLES_HEADING = "## Example usage";

/** The program in every language; `project` names the YAML one's project. */
export async function programTexts(
  program: Program,
  project: string,
  context: DocsContext,
): Promise<Record<Language, string>> {
  return {
    typescript: await context.formatTypeScript(typescriptProgram(program, context.packageFunctions)),
    python: pythonProgram(program, context.schema),
    go: goProgram(program, context.schema, context.goImportBase, context.goNames),
    yaml: yamlProgram(program, project, context.packageName),
  };
}

/** What the stack must be given before the program runs. */
function configWords(program: Program): string {
  if (program.config.length === 0) return "";
  const commands = program.config.map(
    ({ key, secret }) => `\`pulumi config set ${secret ? "--secret " : ""}${key} <${secret ? "value" : "uid"}>\``,
  );
  return ` It reads ${program.config.length === 1 ? "a value" : "values"} of the stack's configuration: ${commands.join(", ")}.`;
}

/** The "Example usage" section: a sentence on what the program needs, then one block per language. */
export async function exampleSection(
  program: Program,
  project: string,
  what: string,
  context: DocsContext,
): Promise<string[]> {
  const texts = await programTexts(program, project, context);
  return [
    EXAMPLES_HEADING,
    "",
    `${what}${configWords(program)} The TypeScript program uses this package's classes (\`npm install platform-pulumi\`); ` +
      "the Python, Go and YAML ones use the native provider `platform` and its SDKs " +
      "([installation](../../installation-configuration.md)).",
    "",
    ...LANGUAGES.flatMap((language) => [
      `### ${LANGUAGE_TITLES[language]}`,
      "",
      `\`\`\`${language}`,
      texts[language].trimEnd(),
      "```",
      "",
    ]),
  ];
}

/** The code blocks of a page's "Example usage" section, by language (what a test compiles). */
export function examplesOf(page: string): Partial<Record<Language, string>> {
  const start = page.indexOf(`\n${EXAMPLES_HEADING}\n`);
  if (start < 0) return {};
  const next = page.indexOf("\n## ", start + 1);
  const section = page.slice(start, next < 0 ? undefined : next);
  const found: Partial<Record<Language, string>> = {};
  for (const block of section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm))
    if ((LANGUAGES as readonly string[]).includes(block[1])) found[block[1] as Language] = block[2];
  return found;
}
