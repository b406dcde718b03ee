/**
 * `docs/api/<domain>/<function>.md`: a look-up's reference page, one for each function the
 * native provider answers (native/functions.ts): what it finds, an example in each language,
 * its arguments (with the words its argument schema carries), its result and the paging it does.
 */
import { z } from "zod";
import type { NativeFunction } from "../../../native/functions";
import type { JsonSchema } from "../../../core/model/jsonSchema";
import { MAX_PAGE_SIZE } from "../../../core/transport/pagination";
import { DocsContext, exampleSection } from "./examples";
import { GENERATED_NOTE } from "./kindPage";
import { functionProgram, snakeCase } from "./program";
import { NamedTypes, cell, typeText } from "./tables";

const code = (text: string) => `\`${text}\``;

/** The words on each argument: the descriptions its argument schema carries. */
function argumentWords(fn: NativeFunction): Record<string, string | undefined> {
  const json = z.toJSONSchema(fn.lookup.args(), { io: "input", unrepresentable: "any" }) as JsonSchema;
  return Object.fromEntries(Object.entries(json.properties ?? {}).map(([name, schema]) => [name, schema.description]));
}

export async function functionPage(fn: NativeFunction, context: DocsContext): Promise<string> {
  const { schema } = context;
  const spec = schema.functions[fn.token];
  if (!spec) throw new Error(`the schema has no function ${fn.token}`);
  const kind = context.kinds.find((candidate) => candidate.message === fn.message && !candidate.partOf);
  const name = fn.lookup.name;
  const args = spec.inputs.properties;
  const accepts = new Set(Object.keys(args));
  const required = new Set(spec.inputs.required ?? []);
  const words = argumentWords(fn);
  // A list's records are documented as the kind's outputs are: by their own paths.
  const fieldWords = (path: string) =>
    kind?.docs?.fields?.[fn.list && path.startsWith(`${fn.list}.`) ? path.slice(fn.list.length + 1) : path];
  const goName = context.goNames.functionName(fn.token);
  const plural = fn.list ?? `${fn.noun}s`;

  const finds = fn.list
    ? `Every ${fn.noun} the API lists with these arguments as filters (every one the caller can see without any), ` +
      `as the list ${code(fn.list)}.`
    : accepts.has("uid") && accepts.has("name")
      ? `Exactly one ${fn.noun}: by ${code("uid")}, or by exact ${code("name")} (scoped with ${code("childrenOf")} or ` +
        `${code("descendantsOf")}); an error when none or several match.`
      : accepts.has("name")
        ? `Exactly one ${fn.noun} by exact ${code("name")}, optionally scoped with ${code("childrenOf")} or ` +
          `${code("descendantsOf")}; an error when none or several match.`
        : `One ${fn.noun}, by its ${code("uid")}.`;
  const served = kind?.apiVersions ? ` Served by the API versions ${kind.apiVersions.map(code).join(", ")} only.` : "";
  const listing =
    `it reads the List in pages of ${MAX_PAGE_SIZE} (the most the API gives), following each page's token to the last ` +
    `page, so N ${plural} cost ⌈N/${MAX_PAGE_SIZE}⌉ requests`;
  const paging = fn.list
    ? `A call of ${code(name)} is one walk of the List: ${listing}; ${code("limit")} stops the walk early (its last page ` +
      `asks only for what is missing) and ${code("skip")} drops the first results of the ordered set. Each ${fn.noun} comes ` +
      "once, even when a page token expires in the middle of the walk, and the count is checked against the " +
      "service's `totalCount`: a mismatch (the collection changed while it was read) is an error, never a partial answer."
    : accepts.has("name")
      ? `${accepts.has("uid") ? `With ${code("uid")}, one Get of the record. ` : ""}With ${code("name")}, ` +
        `${listing}, filtered by the name and scope, and keeps the ${plural} of exactly that name.`
      : `One Get of the record.`;

  const named = new NamedTypes(schema);
  for (const [arg, argSpec] of Object.entries(args)) named.visit(argSpec, arg);
  for (const [field, fieldSpec] of Object.entries(spec.outputs.properties)) named.visit(fieldSpec, field);
  const answerRequired = new Set(spec.outputs.required ?? []);
  const typescript = context.packageFunctions.has(fn.token)
    ? `${code(`platform.${fn.domain}.${name}(args, opts?)`)} (a Promise) and ${code(
        `platform.${fn.domain}.${name}Output(args, opts?)`,
      )} (an Output), of the npm package \`platform-pulumi\``
    : `not in the npm package \`platform-pulumi\`: a program on the native provider calls ${code(
        `pulumi.runtime.invokeOutput("${fn.token}", args)`,
      )}`;

  const lines = [
    `# ${name}`,
    "",
    GENERATED_NOTE(
      `native/functions.ts (the functions the native provider answers), the look-up's argument schema${
        kind ? `, ${context.descriptionFile(kind)}` : ""
      } and the native provider's schema (native/schema.ts)`,
    ),
    "",
    finds + served,
    "",
    "| Language | Function |",
    "|---|---|",
    `| TypeScript | ${typescript} |`,
    `| Python | ${code(`platform.${fn.domain}.${snakeCase(name)}(…)`)} and ${code(
      `platform.${fn.domain}.${snakeCase(name)}_output(…)`,
    )} |`,
    `| Go | ${code(`${fn.domain}.${goName}(ctx, &${fn.domain}.${goName}Args{…})`)} and ${code(
      `${fn.domain}.${goName}Output(ctx, ${fn.domain}.${goName}OutputArgs{…})`,
    )} |`,
    `| YAML | ${code(`fn::invoke: { function: ${fn.token}, arguments: {…} }`)} |`,
    "",
    ...(await exampleSection(
      functionProgram(fn, accepts, context),
      `${snakeCase(name).replace(/_/g, "-")}-example`,
      `The program calls ${code(name)} and exports ${fn.list ? `the list ${code(fn.list)}` : `the ${fn.noun}'s ${code("uid")}`}.`,
      context,
    )),
    "## Arguments",
    "",
    "Python spells each argument in snake_case (`descendants_of`), Go with a capital (`DescendantsOf`).",
    "",
    "| Argument | Type | Required | Description |",
    "|---|---|---|---|",
    ...Object.entries(args).map(
      ([arg, argSpec]) =>
        `| ${code(arg)} | ${typeText(argSpec, schema)} | ${required.has(arg) ? "required" : "optional"} | ${cell(words[arg])} |`,
    ),
    "",
    "## Result",
    "",
    fn.list
      ? `An object holding the list ${code(fn.list)}: each ${fn.noun} as the API answers it, by the API's field names.`
      : `The ${fn.noun} as the API answers it, by the API's field names.`,
    "",
    "| Field | Type | Always present | Description |",
    "|---|---|---|---|",
    ...Object.entries(spec.outputs.properties).map(
      ([field, fieldSpec]) =>
        `| ${code(field)} | ${typeText(fieldSpec, schema)} | ${answerRequired.has(field) ? "yes" : "no"} | ${cell(
          fieldWords(field) ?? (field === fn.list ? `Every ${fn.noun} found.` : undefined),
        )} |`,
    ),
    "",
    ...(named.paths.size > 0 ? ["## Supporting types", "", ...named.sections(fieldWords, "../enums.md")] : []),
    "## Paging",
    "",
    paging,
    "",
    `Like every look-up it runs during preview too, with the provider's settings, within one \`platform:timeout\`. ` +
      `In TypeScript the Output form waits for the resources in \`dependsOn\` before it calls the API.`,
    "",
  ];
  return lines.join("\n");
}
