/**
 * A docs program in Pulumi YAML (a whole Pulumi.yaml): resources by the native provider's type
 * tokens, look-ups as `fn::invoke` variables, the stack's config declared with its types.
 */
import { stringify } from "yaml";
import type { Program, Value } from "./program";

function value(v: Value): unknown {
  if ("config" in v) return `\${${v.config}}`;
  if ("ref" in v) return `\${${v.ref}.${v.field}}`;
  // A literal `${` would read as an interpolation: YAML programs write it `$${`.
  if ("literal" in v) return typeof v.literal === "string" ? v.literal.replace(/\$\{/g, "$${") : v.literal;
  if ("list" in v) return v.list.map(value);
  return entries(v.entries);
}

const entries = (members: ReadonlyArray<readonly [string, Value]>) =>
  Object.fromEntries(members.map(([member, inner]) => [member, value(inner)]));

/** The program as a Pulumi.yaml of project `project`, whose resources come from package `packageName`. */
export function yamlProgram(program: Program, project: string, packageName: string): string {
  const document: Record<string, unknown> = { name: project, runtime: "yaml" };
  if (program.config.length > 0)
    document.config = Object.fromEntries(
      program.config.map(({ key, secret }) => [key, { type: "string", ...(secret ? { secret: true } : {}) }]),
    );
  if (program.lookups.length > 0)
    document.variables = Object.fromEntries(
      program.lookups.map((lookup) => [
        lookup.name,
        {
          "fn::invoke": {
            function: lookup.fn.token,
            ...(lookup.args.length > 0 ? { arguments: entries(lookup.args) } : {}),
          },
        },
      ]),
    );
  if (program.resources.length > 0)
    document.resources = Object.fromEntries(
      program.resources.map((resource) => [
        resource.name,
        {
          type: `${packageName}:${resource.kind.domain}:${resource.kind.typeName}`,
          properties: entries(resource.inputs),
        },
      ]),
    );
  document.outputs = Object.fromEntries(program.exports.map((out) => [out.name, `\${${out.from}.${out.field}}`]));
  // YAML 1.1's rules for quoting: a timestamp, `yes` or `on` stays a string for every reader.
  return stringify(document, { lineWidth: 0, version: "1.1" });
}
