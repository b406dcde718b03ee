/**
 * A docs program in TypeScript, on the package's own classes and look-ups (`platform.iam.Group`,
 * `platform.iam.getRoleOutput`). A function the native provider has and the package does not is
 * called by its token with `pulumi.runtime.invokeOutput`. The text is formatted by the caller
 * (prettier, as the generated classes are).
 */
import { camelCase, Program, ProgramLookup, ProgramResource, Value } from "./program";

const identifier = /^[A-Za-z_$][\w$]*$/;
const key = (name: string) => (identifier.test(name) ? name : JSON.stringify(name));

function value(v: Value): string {
  if ("literal" in v) return JSON.stringify(v.literal);
  if ("list" in v) return `[${v.list.map(value).join(", ")}]`;
  if ("entries" in v) return `{ ${v.entries.map(([member, inner]) => `${key(member)}: ${value(inner)}`).join(", ")} }`;
  if ("config" in v) return camelCase(v.config);
  return `${camelCase(v.ref)}.${v.field}`;
}

const args = (entries: ReadonlyArray<readonly [string, Value]>) => value({ entries });

function lookupCall(lookup: ProgramLookup, packageFunctions: ReadonlySet<string>): string {
  const { fn } = lookup;
  if (packageFunctions.has(fn.token)) return `platform.${fn.domain}.${fn.lookup.name}Output(${args(lookup.args)})`;
  const answer = fn.list ? `{ ${fn.list}: Record<string, unknown>[] }` : "{ uid: string }";
  return `pulumi.runtime.invokeOutput<${answer}>(${JSON.stringify(fn.token)}, ${args(lookup.args)})`;
}

/** One resource's declaration: `const team = new platform.iam.Group("team", { … });`. */
export function typescriptDeclaration(resource: ProgramResource): string {
  const { kind } = resource;
  return `const ${camelCase(resource.name)} = new platform.${kind.domain}.${kind.typeName}(${JSON.stringify(
    resource.name,
  )}, ${args(resource.inputs)});`;
}

export function typescriptProgram(program: Program, packageFunctions: ReadonlySet<string>): string {
  const usesPulumi =
    program.config.length > 0 || program.lookups.some((lookup) => !packageFunctions.has(lookup.fn.token));
  const lines = [
    ...(usesPulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as platform from "platform-pulumi";',
    "",
  ];
  if (program.config.length > 0) {
    lines.push("const config = new pulumi.Config();");
    for (const { key: name, secret } of program.config)
      lines.push(`const ${camelCase(name)} = config.${secret ? "requireSecret" : "require"}(${JSON.stringify(name)});`);
    lines.push("");
  }
  for (const lookup of program.lookups)
    lines.push(`const ${camelCase(lookup.name)} = ${lookupCall(lookup, packageFunctions)};`);
  if (program.lookups.length > 0) lines.push("");
  for (const resource of program.resources) lines.push(typescriptDeclaration(resource));
  if (program.resources.length > 0) lines.push("");
  for (const out of program.exports)
    lines.push(`export const ${camelCase(out.name)} = ${camelCase(out.from)}.${out.field};`);
  return `${lines.join("\n")}\n`;
}
