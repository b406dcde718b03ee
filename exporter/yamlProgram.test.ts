/**
 * The YAML writer, on records holding every hostile text (tests/support/hostileTexts.ts): the
 * program parses as YAML 1.1 with no error, and every value and map key reads back as the record's
 * own text once Pulumi YAML's interpolation has read it (`$$` is `$`, `${…}` a reference), while
 * references, named values and secrets read back as exactly those. The real proof, pulumi-yaml
 * under the CLI, is tests/realCli/exportYaml.test.ts.
 */
import * as YAML from "yaml";
import { typeTokenOf } from "../native/kinds";
import { hostileSubtree, VIEWER } from "../tests/support/hostileSubtree";
import { HOSTILE_KEYS, HOSTILE_TEXTS } from "../tests/support/hostileTexts";
import { declareOrganization } from "./declare";
import { ModelResource, NamedValue, ProgramModel, ResourceOutput, SecretConfig } from "./model";
import { uninterpolated, writeYaml, yamlQuoted, yamlRefusals } from "./yamlProgram";

const PROJECT = {
  name: "hostile",
  description: "exported ${x} null",
  plugin: ["Runs on the native provider `platform` 1.2.3", "  pulumi plugin install resource platform 1.2.3 --file x"],
};

/** A reference as Pulumi YAML reads `${…}`. */
interface Reference {
  ref: string;
}

/**
 * A string as pulumi-yaml reads it (ast/interpolation.go: `$$` is `$`, `${…}` an access); one
 * reference alone is that reference.
 */
function interpolated(text: string): string | Reference {
  let literal = "";
  const parts: Array<string | Reference> = [];
  for (let i = 0; i < text.length;) {
    if (text.startsWith("$$", i)) {
      literal += "$";
      i += 2;
    } else if (text.startsWith("${", i)) {
      const end = text.indexOf("}", i);
      if (end < 0) throw new Error(`an unterminated interpolation in ${JSON.stringify(text)}`);
      if (literal) parts.push(literal);
      literal = "";
      parts.push({ ref: text.slice(i + 2, end) });
      i = end + 1;
    } else literal += text[i++];
  }
  if (literal || parts.length === 0) parts.push(literal);
  if (parts.length === 1) return parts[0];
  throw new Error(`${JSON.stringify(text)} reads as an interpolation of ${JSON.stringify(parts)}`);
}

/** A parsed YAML value as Pulumi YAML evaluates it. */
function evaluated(value: unknown): unknown {
  if (typeof value === "string") return interpolated(value);
  if (Array.isArray(value)) return value.map(evaluated);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const readKey = interpolated(key);
        if (typeof readKey !== "string") throw new Error(`the key ${JSON.stringify(key)} reads as a reference`);
        return [readKey, evaluated(item)];
      }),
    );
  return value;
}

/** What the model says a value must read back as. */
function expected(value: unknown): unknown {
  if (value instanceof ResourceOutput) return { ref: `${value.resource}.${value.output}` };
  if (value instanceof NamedValue) return { ref: value.name };
  if (value instanceof SecretConfig) return { ref: value.key };
  if (Array.isArray(value)) return value.map(expected);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expected(item)]));
  return value;
}

/** Parses as a YAML 1.1 reader does, failing on any error or warning. */
function parse11(text: string): Record<string, unknown> {
  const doc = YAML.parseDocument(text, { version: "1.1", uniqueKeys: true });
  expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
  return doc.toJS({ mapAsMap: false }) as Record<string, unknown>;
}

describe("the YAML writer", () => {
  const model: ProgramModel = declareOrganization(hostileSubtree(), {
    manageDeletes: false,
    roles: new Map([[VIEWER.uid, VIEWER.name]]),
  });
  const text = writeYaml(model, PROJECT);
  const program = parse11(text);

  test("every value and map key reads back as the record's text; references, named values and secrets as themselves", () => {
    const resources = program.resources as Record<string, { type: string; properties: unknown; options: unknown }>;
    expect(Object.keys(resources)).toEqual(model.resources.map((r) => r.name));
    for (const resource of model.resources) {
      const written = resources[resource.name];
      expect([resource.name, written.type]).toEqual([resource.name, typeTokenOf(resource.kind)]);
      expect([resource.name, evaluated(written.properties)]).toEqual([resource.name, expected(resource.values)]);
      expect(written.options).toEqual({ retainOnDelete: true });
    }
    // Every hostile text and key is in there, so the comparison above covered each.
    const values = JSON.stringify(model.resources.map((r) => r.values));
    for (const hostile of [...HOSTILE_TEXTS, ...HOSTILE_KEYS]) expect(values).toContain(JSON.stringify(hostile));
    expect(JSON.stringify(model.resources.map((r) => r.values))).toContain('"adoptUid"');
  });

  test("the project: runtime yaml, the plugin named in a comment and no path to it, the secrets it reads as secret config, the named values as variables", () => {
    expect(program.name).toBe(PROJECT.name);
    expect(program.runtime).toBe("yaml");
    // Project fields are not templates: no interpolation to escape.
    expect(program.description).toBe(PROJECT.description);
    // The engine finds the installed plugin by name: no plugins entry, no path into node_modules.
    expect(program.plugins).toBeUndefined();
    expect(text).toContain(
      "\n# Runs on the native provider `platform` 1.2.3\n#   pulumi plugin install resource platform 1.2.3 --file x\nruntime: yaml\n",
    );
    expect(program.config).toEqual({ ssoOidcClientSecret: { type: "string", secret: true } });
    expect(evaluated(program.variables)).toEqual({ underUid: "root", viewerRoleUid: VIEWER.uid });
    expect(text).toContain('  # the role "viewer", not declared here\n  viewerRoleUid: ');
    const sso = model.resources.find((r) => r.name === "sso") as ModelResource;
    expect(evaluated((program.resources as Record<string, { properties: unknown }>).sso.properties)).toEqual(
      expected(sso.values),
    );
    expect(text).toContain("clientSecret: ${ssoOidcClientSecret}");
  });

  test("no character a YAML reader would not keep as it is reaches the text raw: only line feeds end lines", () => {
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    expect(text.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g)).toBeNull();
    for (const raw of ["\u0085", "\u2028", "\u2029", "\u007f", "\u0090", "\ufeff", "\uffff", "\u0000"])
      expect([raw, yamlQuoted(raw), parse11(`k: ${yamlQuoted(raw)}\n`).k]).toEqual([
        raw,
        expect.stringMatching(/^"\\u[0-9a-f]{4}"$/),
        raw,
      ]);
  });

  test("Pulumi YAML's interpolation: every $ doubled, in values and keys", () => {
    expect(uninterpolated("${x} $${y} $")).toBe("$${x} $$$${y} $$");
    for (const hostile of HOSTILE_TEXTS) expect(interpolated(uninterpolated(hostile))).toBe(hostile);
  });

  test("comments stay comments, one line each, whatever they hold", () => {
    const commented: ProgramModel = {
      ...model,
      header: ["one\nname: injected", "two\u2028three", "", "four\u0085five"],
      resources: [{ ...model.resources[0], comments: ["a\r\nresources: {}", "b"] }],
    };
    const written = writeYaml(commented, PROJECT);
    const lines = written.split("\n");
    expect(lines.slice(0, 4)).toEqual(["# one\\u000aname: injected", "# two\\u2028three", "#", "# four\\u0085five"]);
    expect(written).toContain("  # a\\u000d\\u000aresources: {}\n  # b\n  ");
    // Only the first resource is left: it reads no secret, so there is no config.
    expect(Object.keys(parse11(written))).toEqual(["name", "runtime", "description", "variables", "resources"]);
  });

  test("a key Pulumi YAML reads as a function (the fn:: prefix, any case) is refused, naming where", () => {
    expect(yamlRefusals({ claimMatch: { claims: { "fn::secret": "x", "Fn::Join": "y", "fn:ok": "z" } } })).toEqual([
      'claimMatch.claims: has the key "fn::secret", which Pulumi YAML reads as a function (it reserves the fn:: prefix), so a YAML program cannot declare it',
      'claimMatch.claims: has the key "Fn::Join", which Pulumi YAML reads as a function (it reserves the fn:: prefix), so a YAML program cannot declare it',
    ]);
    expect(yamlRefusals({ description: "fn::join", claimMatch: { claims: { "fn:ok": "fn::x" } } })).toEqual([]);
    const [first] = model.resources;
    const broken: ProgramModel = {
      ...model,
      resources: [{ ...first, values: { labels: { "fn::readFile": "/etc" } } }],
    };
    expect(() => writeYaml(broken, PROJECT)).toThrow('the key "fn::readFile" cannot be written in YAML');
  });

  test("without retainOnDelete no options are written", () => {
    const managed = parse11(writeYaml({ ...model, retainOnDelete: false }, PROJECT));
    const resources = Object.values(managed.resources as Record<string, Record<string, unknown>>);
    expect(resources.filter((r) => "options" in r)).toEqual([]);
  });
});
