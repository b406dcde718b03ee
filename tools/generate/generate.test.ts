/**
 * The generated files are what the descriptions give now, and a new kind needs nothing but its
 * description: one written into an empty folder outside the repository gets a class that
 * type-checks and a program using it that type-checks too.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import ts from "typescript";
import type { ResourceKind } from "../../core/model/kind";
import { documentedSchemas, generateKind, repoRoot, staleFiles } from "./main";
import { sdkTreeDifferences } from "../pulumi-cli/sdks";
import { typeErrors } from "./typeCheck";
import { aliasNames } from "./typeText";
import { domainIndexes } from "./domainIndex";

test("every generated file is current, the SDKs under sdk/ among them (else run `npm run generate`)", async () => {
  expect(await staleFiles()).toEqual([]);
}, 60_000);

test("an SDK tree with a changed file, a missing one and one nothing generates differs by exactly those", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-sdk-tree-"));
  try {
    const committed = path.join(folder, "committed");
    fs.cpSync(path.join(repoRoot, "sdk"), committed, { recursive: true });
    expect(sdkTreeDifferences(committed, path.join(repoRoot, "sdk"))).toEqual([]);
    fs.appendFileSync(path.join(committed, "go", "platform", "iam", "group.go"), "// edited by hand\n");
    fs.rmSync(path.join(committed, "python", "pyproject.toml"));
    fs.writeFileSync(path.join(committed, "nodejs", "old.ts"), "export {};\n");
    // What packing writes is neither generated nor compared.
    fs.mkdirSync(path.join(committed, "nodejs", "bin"));
    fs.writeFileSync(path.join(committed, "nodejs", "bin", "index.js"), "");
    expect(sdkTreeDifferences(committed, path.join(repoRoot, "sdk"))).toEqual([
      "go/platform/iam/group.go",
      "python/pyproject.toml (missing)",
      "nodejs/old.ts (nothing generates it: delete it)",
    ]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("a domain's index re-exports each kind's class, then its look-ups and types when they are beside it", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-domain-index-"));
  try {
    const kind = (name: string, beside: string[]) => {
      fs.mkdirSync(path.join(folder, "iam", name), { recursive: true });
      for (const module of ["description", "provider", ...beside])
        fs.writeFileSync(path.join(folder, "iam", name, `${module}.ts`), "export {};\n");
      return path.join(folder, "iam", name);
    };
    const indexes = domainIndexes([kind("widget", ["lookups", "types"]), kind("gadget", [])]);
    expect(indexes).toEqual([{ file: path.join(folder, "iam", "index.ts"), text: expect.any(String) }]);
    expect(indexes[0].text.split("\n").filter((line) => line.startsWith("export"))).toEqual([
      'export * from "./widget/resource";',
      'export * from "./widget/lookups";',
      'export * from "./widget/types";',
      'export * from "./gadget/resource";',
    ]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

/** A kind nobody ships, on a documented message no kind manages. */
const THROWAWAY_DESCRIPTION = `
import type { ResourceKind } from "CORE/model/kind";

const widget: ResourceKind = {
  typeName: "Widget",
  noun: "widget",
  domain: "iam",
  collection: "widgets",
  message: "libraries.Artifact",
  docs: {
    summary: "A throwaway kind: it exists only in this test.",
    example: { name: "w", inputs: { parentUid: "root", name: "w", labels: { team: "a" } } },
    fields: { name: "The widget's name.", "labels": "Free-form labels." },
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      labels: f.stringMap().optional(),
      size: f.z.enum(["SMALL", "LARGE"]).optional(),
      tier: f.z.enum(TIERS).optional(),
      tiers: f.list(f.z.enum(TIERS)).optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "labels", "size", "tier", "tiers"],
  replaceOn: ["parentUid"],
  alreadyExistsHint: "choose another name",
};

export default widget;
`;

const PROVIDER = `
import { defineProvider } from "CORE/runtime/lifecycle";
import widget from "./description";
export = defineProvider(widget);
`;

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Widget, WidgetArgs, WidgetRecord } from "./resource";

const args: WidgetArgs = { parentUid: pulumi.output("root"), name: "w", labels: { team: "a" }, size: "SMALL" };
const widget = new Widget("w", args);
export const uid: pulumi.Output<string> = widget.uid;
export const size: pulumi.Output<"SMALL" | "LARGE" | undefined> = widget.size;
new Widget("t", { parentUid: "root", name: "t", tier: "CATALOG_TIER_BASE", tiers: [pulumi.output("CATALOG_TIER_AI")] });
// @ts-expect-error the documented enum's zero value, which the check leaves out
new Widget("z", { parentUid: "root", name: "z", tier: "CATALOG_TIER_UNSPECIFIED" });
export const again = Widget.get("again", widget.id, { name: "w" }, { parent: widget });
export const record: WidgetRecord | undefined = undefined;
// @ts-expect-error an input the kind does not have
new Widget("x", { parentUid: "root", name: "x", colour: "red" });
// @ts-expect-error a value outside the enum
new Widget("y", { parentUid: "root", name: "y", size: "HUGE" });
`;

test("a throwaway kind's description, generated in an empty folder, gives a class that type-checks", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-kind-"));
  try {
    const core = path.join(repoRoot, "core");
    // A documented enum less its zero value, as a kind's check takes one (resources/iam/enums.ts).
    const tiers = documentedSchemas()["registry.CatalogTier"].enum!.filter(
      (tier) => tier !== "CATALOG_TIER_UNSPECIFIED",
    );
    const description = THROWAWAY_DESCRIPTION.replace(/CORE/g, core).replace(
      "const widget",
      `const TIERS = ${JSON.stringify(tiers)} as const;\nconst widget`,
    );
    fs.writeFileSync(path.join(folder, "description.ts"), description);
    fs.writeFileSync(path.join(folder, "provider.ts"), PROVIDER.replace(/CORE/g, core));
    fs.writeFileSync(path.join(folder, "program.ts"), PROGRAM);
    // The description as the generator sees it: compiled and loaded (its only import is a type).
    const compiled = ts.transpileModule(description, { compilerOptions: { module: ts.ModuleKind.CommonJS } });
    const module = { exports: {} as { default?: ResourceKind } };
    vm.runInNewContext(compiled.outputText, { module, exports: module.exports, require });
    const kind = module.exports.default!;
    const generated = await generateKind(kind, folder, documentedSchemas(), core);
    fs.writeFileSync(generated.file, generated.text);

    const errors = typeErrors([path.join(folder, "program.ts"), path.join(folder, "provider.ts")], {
      root: repoRoot,
      baseUrl: folder,
    });
    expect(errors).toEqual([]);
    expect(generated.text).toContain("export class Widget extends KindResource");
    expect(generated.text).toContain("labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;");
    // A documented enum is named once, and each use of its values (less its zero value) refers to it.
    expect(generated.text.match(/CATALOG_TIER_BASE/g)).toHaveLength(1);
    expect(generated.text).toContain("type CatalogTier =");
    expect(generated.text).toContain('tier?: pulumi.Input<Exclude<CatalogTier, "CATALOG_TIER_UNSPECIFIED">>;');
    // A value set no documented enum has stays written out.
    expect(generated.text).toContain('size?: pulumi.Input<"SMALL" | "LARGE">;');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);

test("each documented enum's alias is the shortest tail of its name that no other enum or name of the module has", () => {
  const names = aliasNames(
    ["advisory.Reference.Type", "advisory.Severity.Type", "capabilities.Capability", "iam.Widget", "x.Reference.Type"],
    new Set(["Widget", "WidgetArgs"]),
  );
  expect(Object.fromEntries(names)).toEqual({
    "advisory.Reference.Type": "AdvisoryReferenceType",
    "advisory.Severity.Type": "SeverityType",
    "capabilities.Capability": "Capability",
    "iam.Widget": "IamWidget",
    "x.Reference.Type": "XReferenceType",
  });
});
