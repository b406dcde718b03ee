/**
 * The Python writer, on records holding every hostile text (tests/support/hostileTexts.ts), read
 * back by python3's own parser (ast, tests/support/readPythonProgram.py): every string and map
 * key is the record's own, objects are the SDK's `…Args` with its spelling of each property,
 * references are the other resource's attribute, secrets `config.require_secret`, and no
 * variable is a keyword, a builtin of that Python or a dunder name. Under the real CLI, on the
 * generated SDK: tests/realCli/exportPython.test.ts.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { PropertySpec } from "../native/schema";
import { packageSchema } from "../native/schema";
import { typeTokenOf } from "../native/kinds";
import groupProvider = require("../resources/iam/group/provider");
import { hostileSubtree, VIEWER } from "../tests/support/hostileSubtree";
import { HOSTILE_KEYS, HOSTILE_TEXTS } from "../tests/support/hostileTexts";
import { repoRoot } from "../tools/host/stage";
import { declareOrganization } from "./declare";
import { NamedValue, ProgramModel, ResourceOutput, SecretConfig } from "./model";
import { initParameterName, pythonName } from "./pythonNames";
import { pythonString, writePython } from "./pythonProgram";

const READER = path.join(repoRoot, "tests", "support", "readPythonProgram.py");
const schema = packageSchema("0.1.0");

interface Read {
  statements: Array<{ import?: unknown; assign?: string; value?: unknown }>;
  keywords: string[];
  builtins: string[];
}

/** The program as python3 parses it. */
function readPython(text: string): Read {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-python-program-"));
  try {
    const file = path.join(dir, "__main__.py");
    fs.writeFileSync(file, text);
    const answer = spawnSync("python3", [READER, file], { encoding: "utf8" });
    if (answer.status !== 0) throw new Error(`python3 could not read the program: ${answer.stderr}`);
    return JSON.parse(answer.stdout) as Read;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const call = (func: string, args: unknown[], kwargs: Array<[string, unknown]>) => ({ call: func, args, kwargs });

describe("the Python writer", () => {
  const model: ProgramModel = declareOrganization(hostileSubtree(), {
    manageDeletes: false,
    roles: new Map([[VIEWER.uid, VIEWER.name]]),
  });
  const read = readPython(writePython(model, schema));
  const assigned = new Map(read.statements.flatMap((s) => (s.assign ? [[s.assign, s.value] as const] : [])));
  /** The variable a resource (or named value) is assigned to, found by what the program declares. */
  const variableOf = (name: string): string => {
    for (const [variable, value] of assigned) {
      const declared = value as { call?: string; args?: unknown[] };
      if (declared.call?.startsWith("platform.") && declared.args?.[0] === name) return variable;
    }
    const constant = model.constants.find((c) => c.name === name);
    for (const [variable, value] of assigned) if (constant && value === constant.value) return variable;
    throw new Error(`nothing declares ${name}`);
  };

  /** What the model's value must read back as where the schema says `spec`. */
  function expected(value: unknown, spec: PropertySpec | undefined): unknown {
    if (value instanceof ResourceOutput) return { attribute: `${variableOf(value.resource)}.${value.output}` };
    if (value instanceof NamedValue) return { name: variableOf(value.name) };
    if (value instanceof SecretConfig) return call("config.require_secret", [value.key], []);
    if (Array.isArray(value)) return value.map((item) => expected(item, spec?.items));
    if (value !== null && typeof value === "object") {
      const token = spec?.$ref?.replace("#/types/", "");
      const type = token ? schema.types[token] : undefined;
      if (type?.type === "object") {
        const [, module, name] = token!.split(":");
        return call(
          `platform.${module}.${name}Args`,
          [],
          Object.entries(value).map(([key, item]) => [pythonName(key), expected(item, type.properties[key])]),
        );
      }
      return { dict: Object.entries(value).map(([key, item]) => [key, expected(item, spec?.additionalProperties)]) };
    }
    return value;
  }

  test("every string and map key reads back as the record's text; objects, references and secrets as the SDK takes them", () => {
    expect(read.statements.slice(0, 2)).toEqual([
      { import: [["pulumi", null]] },
      { import: [["pulumi_platform", "platform"]] },
    ]);
    for (const resource of model.resources) {
      const spec = schema.resources[typeTokenOf(resource.kind)];
      const kwargs = Object.entries(resource.values).map(([field, value]): [string, unknown] => [
        initParameterName(field),
        expected(value, spec.inputProperties[field]),
      ]);
      expect(assigned.get(variableOf(resource.name))).toEqual(
        call(
          `platform.${resource.kind.domain}.${resource.kind.typeName}`,
          [resource.name],
          [...kwargs, ["opts", { name: "opts" }]],
        ),
      );
    }
    const values = JSON.stringify(model.resources.map((r) => r.values));
    for (const hostile of [...HOSTILE_TEXTS, ...HOSTILE_KEYS]) expect(values).toContain(JSON.stringify(hostile));
    expect(assigned.get("config")).toEqual(call("pulumi.Config", [], []));
    expect(assigned.get("opts")).toEqual(call("pulumi.ResourceOptions", [], [["retain_on_delete", true]]));
    expect(assigned.get("under_uid")).toBe("root");
    expect(assigned.get("viewer_role_uid")).toBe(VIEWER.uid);
  });

  test("string literals: quotes, backslashes, line breaks, controls and characters beyond the BMP", () => {
    const texts = [...HOSTILE_TEXTS, "\ud83d\ude00", "a\u0085b", "\u{e0001}", "\u{10ffff}"];
    const program = texts.map((text, i) => `t${i} = ${pythonString(text)}`).join("\n");
    const back = readPython(program).statements.map((s) => s.value);
    expect(back).toEqual(texts);
    // Printable text is written as it is, so a person reads it.
    expect(pythonString("é 日本語 😀")).toBe('"é 日本語 😀"');
    expect(pythonString('"\\\n')).toBe('"\\"\\\\\\n"');
  });

  test("variables are never a keyword, a builtin or a dunder name of the Python that runs them, nor the program's own", () => {
    const names = ["None", "True", "class", "def", "lambda", "print", "id", "list", "type", "match", "case", "_"];
    const more = ["__name__", "__file__", "pulumi", "platform", "config", "opts", "under uid", "self", "exec", "from"];
    const groups = declareOrganization(
      {
        under: "root",
        kinds: [
          {
            exported: { domain: "iam", kind: groupProvider.kind },
            records: [...names, ...more].map((name, i) => ({ uid: `root/g${i}`, name })),
          },
        ],
      },
      { manageDeletes: true, roles: new Map() },
    );
    const parsed = readPython(writePython(groups, schema));
    const variables = parsed.statements.flatMap((s) => (s.assign ? [s.assign] : []));
    expect(new Set(variables).size).toBe(variables.length);
    const forbidden = new Set([...parsed.keywords, ...parsed.builtins]);
    for (const variable of variables) {
      expect([variable, forbidden.has(variable) || /^__.*__$/.test(variable)]).toEqual([variable, false]);
    }
    const declared = parsed.statements.filter(
      (s) => (s.value as { call?: string } | undefined)?.call === "platform.iam.Group",
    );
    expect(
      declared.map((s) => (s.value as { kwargs: Array<[string, unknown]> }).kwargs.find(([k]) => k === "name")?.[1]),
    ).toEqual([...names, ...more].sort());
    expect(parsed.statements.find((s) => s.assign === "opts")?.value).toEqual(call("pulumi.ResourceOptions", [], []));
  });

  test("the code generator's spelling of schema names", () => {
    const cases: Array<[string, string]> = [
      ["parentUid", "parent_uid"],
      ["identityProviderUid", "identity_provider_uid"],
      ["awsAccount", "aws_account"],
      ["oidc", "oidc"],
      ["SHA256Hash", "sha256_hash"],
      ["HTTPServer", "http_server"],
      ["publicIPs", "public_ips"],
      ["from", "from_"],
      ["print", "print_"],
    ];
    for (const [name, python] of cases) expect([name, pythonName(name)]).toEqual([name, python]);
    expect(() => pythonName("a-b")).toThrow("is not a name this package's schema holds");
  });

  test("comments stay comments, one line each", () => {
    const commented = writePython({ ...model, header: ["a\nimport os", "b\u2028c", ""] }, schema);
    expect(commented.split("\n").slice(0, 3)).toEqual(["# a\\x0aimport os", "# b\\u2028c", "#"]);
    expect(readPython(commented).statements.filter((s) => s.import)).toHaveLength(2);
  });
});
