/**
 * The examples of the reference pages (docs/api/) as the pages hold them: every page of a kind
 * or a function has one in each language; the TypeScript ones type-check against the package
 * (its built declarations, as a program that installed it sees them); the YAML ones are Pulumi
 * YAML programs whose types, properties, functions, arguments and references the native
 * provider's schema and the program itself define. The Python and Go ones run and compile on
 * the generated SDKs in sdkExamples.test.ts; the YAML ones run under the real CLI in
 * tests/realCli/docsExamplesYaml.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { nativeFunctions } from "../../../native/functions";
import { describedKinds, packageSchema, PackageSchema } from "../../../native/schema";
import { repoRoot } from "../main";
import { typeErrors } from "../typeCheck";
import { LANGUAGES } from "./examples";
import { pageExamples } from "./pages";

const docs = path.join(repoRoot, "docs");
const pages = pageExamples(docs);
const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

test("a page per kind and per function the native provider answers, each with an example in every language", () => {
  const expected = [
    ...describedKinds().map(
      (kind) => `api/${kind.domain}/${kind.typeName[0].toLowerCase()}${kind.typeName.slice(1)}.md`,
    ),
    ...[...nativeFunctions("platform").values()].map((fn) => `api/${fn.domain}/${fn.lookup.name}.md`),
  ].sort();
  expect(pages.map((page) => page.page)).toEqual(expected);
  for (const page of pages)
    expect([page.page, Object.keys(page.examples).sort()]).toEqual([page.page, [...LANGUAGES].sort()]);
});

/** Type errors of TypeScript programs (folder name → text) compiled against the built package. */
function programErrors(programs: Record<string, string>): string[] {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-docs-ts-"));
  try {
    const files = Object.entries(programs).map(([name, text]) => {
      const file = path.join(folder, name, "index.ts");
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, text);
      return file;
    });
    // `platform-pulumi` is this repository's package (its package.json names dist/index.d.ts).
    return typeErrors(files, { root: repoRoot, baseUrl: folder, paths: { "platform-pulumi": [repoRoot] } });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

test("every TypeScript example type-checks against the package; one with a property the class lacks does not", () => {
  const programs = Object.fromEntries(pages.map((page) => [page.name, page.examples.typescript!]));
  const group = programs["iam-group"];
  expect(group).toContain('name: "team"');
  programs.control = group.replace('name: "team"', 'name: "team", colour: "red"');
  const errors = programErrors(programs);
  expect(errors).toEqual([expect.stringMatching(/^control\/index\.ts: .*'colour' does not exist/s)]);
}, 120_000);

/** What is wrong with a YAML program, judged by the package schema: types, properties, functions, references. */
function yamlProblems(text: string, schema: PackageSchema): string[] {
  const problems: string[] = [];
  const program = parse(text) as {
    name?: string;
    runtime?: string;
    config?: Record<string, { type?: string }>;
    variables?: Record<string, { "fn::invoke"?: { function: string; arguments?: Record<string, unknown> } }>;
    resources?: Record<string, { type: string; properties?: Record<string, unknown> }>;
    outputs?: Record<string, unknown>;
  };
  if (!program.name || program.runtime !== "yaml") problems.push("not a Pulumi YAML project (name, runtime: yaml)");
  const names = new Set([
    ...Object.keys(program.config ?? {}),
    ...Object.keys(program.variables ?? {}),
    ...Object.keys(program.resources ?? {}),
  ]);
  for (const [name, variable] of Object.entries(program.variables ?? {})) {
    const invoke = variable["fn::invoke"];
    const fn = invoke && schema.functions[invoke.function];
    if (!fn) {
      problems.push(`${name}: no function ${invoke?.function}`);
      continue;
    }
    for (const arg of Object.keys(invoke.arguments ?? {}))
      if (!(arg in fn.inputs.properties)) problems.push(`${name}: ${invoke.function} takes no ${arg}`);
  }
  for (const [name, resource] of Object.entries(program.resources ?? {})) {
    const spec = schema.resources[resource.type];
    if (!spec) {
      problems.push(`${name}: no resource type ${resource.type}`);
      continue;
    }
    for (const property of Object.keys(resource.properties ?? {}))
      if (!(property in spec.inputProperties)) problems.push(`${name}: ${resource.type} has no input ${property}`);
    for (const required of spec.requiredInputs)
      if (!(required in (resource.properties ?? {}))) problems.push(`${name}: ${resource.type} needs ${required}`);
  }
  for (const reference of text.matchAll(/(?<!\$)\$\{([^.}]+)[.}]/g))
    if (!names.has(reference[1])) problems.push(`\${${reference[1]}} names nothing the program declares`);
  return problems;
}

test("every YAML example is a Pulumi YAML program of the schema's types, properties, functions and its own names", () => {
  const schema = packageSchema(version);
  const problems = Object.fromEntries(pages.map((page) => [page.page, yamlProblems(page.examples.yaml!, schema)]));
  expect(problems).toEqual(Object.fromEntries(pages.map((page) => [page.page, []])));
  const control = pages.find((page) => page.name === "iam-group")!.examples.yaml!.replace("name: team", "colour: red");
  expect(yamlProblems(control, schema)).toEqual([
    "team: platform:iam:Group has no input colour",
    "team: platform:iam:Group needs name",
  ]);
});
