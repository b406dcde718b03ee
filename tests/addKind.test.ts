/**
 * CONTRIBUTING.md's "Adding a kind" is the whole list: a made-up kind, added in-process by exactly
 * those steps (its description, its provider module, its registry line and, since the API has no
 * such collection, its API document entry; no emulator file, its behaviour being the generic one),
 * is served by the emulator, created, read, updated, looked up and deleted through the generic
 * lifecycle, and is picked up by the native schema, the exporter, the class generator, the docs,
 * the request floors of the benchmarks and the cases of the suites that run every kind.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { RunningEmulator, startEmulator } from "../emulator";
import { ApiDocument, DocOperation, loadApiDocument } from "../emulator/apiDocument";
import { kindsOf } from "../emulator/kinds/registry";
import { exportedKinds } from "../exporter/kinds";
import { packageSchema } from "../native/schema";
import type { Kind } from "../core/model/kind";
import type { Provider } from "../core/runtime/lifecycle";
import { kindLookups } from "../core/program/kindLookups";
import { withClient } from "../core/program/lookup";
import { KINDS, RegisteredKind } from "../resources/kinds";
import { docsContext } from "../tools/generate/docs/docsFiles";
import { kindPage } from "../tools/generate/docs/kindPage";
import { documentedSchemas, generateKind, repoRoot } from "../tools/generate/main";
import { fetchClient } from "./support/lookupClient";
import { KIND_CASES, kindCase } from "./support/kindCases";
import { samplesOf } from "../bench/requests";
import type { ManagedKind } from "../bench/kinds";

/** Step 1: the description (resources/iam/widget/description.ts); CORE is the package's core/. */
const DESCRIPTION = `
import type { ResourceKind } from "CORE/model/kind";

const widget: ResourceKind = {
  typeName: "Widget",
  noun: "widget",
  domain: "iam",
  collection: "widgets",
  message: "iam.Widget",
  docs: {
    summary: "A throwaway kind: it exists only in this test.",
    example: { name: "w", inputs: { parentUid: { $uidOf: "Group" }, name: "w", description: "a widget" } },
    fields: { parentUid: "The group the widget lives in." },
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      description: f.text().optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description"],
  replaceOn: ["parentUid"],
  alreadyExistsHint: "choose another name",
};

export default widget;
`;

/** Step 2: the provider module, the path states store. */
const PROVIDER = `
import { defineProvider } from "CORE/runtime/lifecycle";
import widget from "./description";
export = defineProvider(widget);
`;

/** The API document's entry for the collection, as the vendor's documents would give it. */
function withWidgets(doc: ApiDocument): ApiDocument {
  const listParameters = doc.operations.find((op) => op.operation === "RolesService_ListRoles")!.parameters;
  const uid = [{ name: "uid", in: "path" as const, required: true, type: "string" }];
  const op = (operation: string, method: string, suffix: string, rest: Partial<DocOperation>): DocOperation => ({
    operation: `WidgetsService_${operation}`,
    method,
    path: `/iam/v2/widgets${suffix}`,
    answer: { ref: "iam.Widget" },
    ...rest,
  });
  const capabilities = doc.schemas["capabilities.Capability"];
  return {
    ...doc,
    operations: [
      ...doc.operations,
      op("ListWidgets", "GET", "", { parameters: listParameters, answer: { ref: "iam.ListWidgetsResponse" } }),
      op("GetWidget", "GET", "/{uid}", { parameters: uid }),
      op("CreateWidget", "POST", "/{uid}", { parameters: uid, body: { ref: "iam.Widget" }, bodyRequired: true }),
      op("UpdateWidget", "PATCH", "/{uid}", { parameters: uid, body: { ref: "iam.Widget" }, bodyRequired: true }),
      op("DeleteWidget", "DELETE", "/{uid}", { parameters: uid, answer: { type: "object" } }),
    ],
    schemas: {
      ...doc.schemas,
      "iam.Widget": {
        type: "object",
        required: ["name"],
        properties: {
          uid: { type: "string", readOnly: true },
          name: { type: "string" },
          description: { type: "string" },
          createTime: { type: "string", format: "date-time", readOnly: true },
          updateTime: { type: "string", format: "date-time", readOnly: true },
        },
      },
      "iam.ListWidgetsResponse": {
        type: "object",
        properties: { nextPageToken: { type: "string" }, widgets: { type: "array", items: { ref: "iam.Widget" } } },
      },
      "capabilities.Capability": {
        ...capabilities,
        enum: [...capabilities.enum!, ...["LIST", "CREATE", "UPDATE", "DELETE"].map((v) => `CAP_IAM_WIDGETS_${v}`)],
      },
    },
  };
}

let folder: string;
let documentFile: string;
let emu: RunningEmulator;
let widget: Kind;
let provider: Provider;
/** Step 3: the registry line. */
let registered: RegisteredKind;
const savedEnv = { ...process.env };

/** A module of the kind's folder, written as TypeScript and loaded compiled, as the build would. */
function writeModule(name: string, text: string): void {
  const source = text.replace(/CORE/g, path.join(repoRoot, "dist", "core"));
  fs.writeFileSync(path.join(folder, "widget", `${name}.ts`), source);
  const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } });
  fs.writeFileSync(path.join(folder, "widget", `${name}.js`), compiled.outputText);
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-add-kind-"));
  fs.mkdirSync(path.join(folder, "api"));
  fs.mkdirSync(path.join(folder, "widget"));
  documentFile = path.join(folder, "api", "api-v2-schema.json");
  fs.writeFileSync(documentFile, JSON.stringify(withWidgets(loadApiDocument())));
  emu = await startEmulator({ quiet: true, apiDocumentPath: documentFile });
  // The provider reaches the emulator as a program's would: through its settings.
  for (const key of Object.keys(process.env)) if (key.startsWith("PLATFORM_")) delete process.env[key];
  Object.assign(process.env, { PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token });
  writeModule("description", DESCRIPTION);
  writeModule("provider", PROVIDER);

  provider = require(path.join(folder, "widget", "provider.js")) as Provider;
  widget = provider.kind!;
  registered = { provider, formerModules: [] };
  (KINDS as RegisteredKind[]).push(registered);
}, 60_000);

afterAll(async () => {
  if (registered) (KINDS as RegisteredKind[]).splice(KINDS.indexOf(registered), 1);
  process.env = savedEnv;
  await emu?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test("the emulator serves the kind from its API document entry alone: generic rules, derived capabilities", () => {
  const def = kindsOf(loadApiDocument(documentFile)).widgets;
  expect(def).toMatchObject({
    domain: "iam",
    message: "iam.Widget",
    singular: "widget",
    parentKind: "groups",
    uniqueNames: true,
    operations: ["list", "get", "create", "update", "delete"],
    capabilities: { LIST: "CAP_IAM_WIDGETS_LIST", DELETE: "CAP_IAM_WIDGETS_DELETE" },
  });
  expect(def.onDelete).toBeUndefined();
  // The package's own document has no such collection.
  expect(kindsOf(loadApiDocument()).widgets).toBeUndefined();
});

test("create, read, update, look up and delete through the generic lifecycle against the emulator", async () => {
  const inputs = { parentUid: emu.rootUid, name: "w1", description: "first" };
  const checked = await provider.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  expect(created.outs).toMatchObject({ ...inputs, uid: created.id });
  expect(created.id.startsWith(`${emu.rootUid}/`)).toBe(true);

  const read = await provider.read(created.id, created.outs);
  expect(read).toMatchObject({ id: created.id, props: { name: "w1", description: "first" } });

  const diff = await provider.diff(created.id, created.outs, { ...inputs, description: "second" });
  expect(diff).toMatchObject({ changes: true });
  expect(diff.replaces ?? []).toEqual([]);
  const updated = await provider.update(created.id, created.outs, { ...inputs, description: "second" });
  expect(updated.outs).toMatchObject({ uid: created.id, description: "second" });

  const lookups = kindLookups(widget, () => z.looseObject({ uid: z.string(), name: z.string() }));
  const client = withClient(fetchClient(emu));
  expect(await lookups.one.get({ name: "w1", childrenOf: emu.rootUid }, client)).toMatchObject({ uid: created.id });
  expect(await lookups.many.get({ childrenOf: emu.rootUid }, client)).toEqual({
    widgets: [expect.objectContaining({ uid: created.id, description: "second" })],
  });

  await provider.delete(created.id, updated.outs);
  expect(await provider.read(created.id, updated.outs)).toEqual({ id: "", props: {} });
});

test("the derived rules hold for it: a group's delete takes its widgets along, the built-in owner holds its capabilities", async () => {
  const api = (method: string, route: string, body?: unknown) =>
    fetch(`${emu.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const group = (await (await api("POST", `/iam/v2/groups/${emu.rootUid}`, { name: "with-widgets" })).json()) as {
    uid: string;
  };
  const made = (await (await api("POST", `/iam/v2/widgets/${group.uid}`, { name: "w2" })).json()) as { uid: string };
  expect((await api("GET", `/iam/v2/widgets/${made.uid}`)).status).toBe(200);
  expect((await api("DELETE", `/iam/v2/groups/${group.uid}`)).status).toBe(200);
  expect((await api("GET", `/iam/v2/widgets/${made.uid}`)).status).toBe(404);

  const roles = (await (await api("GET", "/iam/v2/roles?name=owner")).json()) as {
    roles: Array<{ capabilities: string[] }>;
  };
  expect(roles.roles[0].capabilities).toEqual(
    expect.arrayContaining(["CAP_IAM_WIDGETS_LIST", "CAP_IAM_WIDGETS_CREATE", "CAP_IAM_WIDGETS_DELETE"]),
  );
});

test("the native schema, the exporter, the class generator and the docs pick the kind up from its registry line", async () => {
  expect(packageSchema("0.0.0", loadApiDocument(documentFile)).resources["platform:iam:Widget"]).toBeDefined();
  expect(exportedKinds().map(({ kind }) => kind.typeName)).toContain("Widget");

  const generated = await generateKind(widget, path.join(folder, "widget"), documentedSchemas(folder));
  expect(generated.text).toContain("export class Widget extends KindResource");
  expect(generated.text).toContain("description?: pulumi.Input<string>;");

  const context = docsContext("0.0.0", documentFile, async (text) => text);
  const page = await kindPage(widget, context);
  expect(page).toContain("new platform.iam.Widget(");
  expect(page).toContain("The group the widget lives in.");
}, 120_000);

test("its request-floor sample and its case in the suites that run every kind come from its description: no table line", async () => {
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${emu.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  // The kind list with the kind on it: KIND_CASES is kindCase of each kind of the list (taken when loaded).
  const kinds = KINDS.map((r) => r.provider.kind!);
  expect(Object.keys(KIND_CASES)).toEqual(
    kinds.filter((kind) => !kind.partOf && kind !== widget).map((kind) => kind.typeName),
  );

  // The case: three records made out of band under a group, each declared by inputs that pass the check.
  const group = (await api("POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "widget-cases" })).body.uid;
  const place = await kindCase(widget, kinds).place({ api }, group, 3);
  expect(place.parent).toBe(group);
  const made = [];
  for (const i of [0, 1, 2]) {
    expect(place.inputs(i)).toEqual({ parentUid: group, name: `w-${i}`, description: "a widget" });
    expect((await provider.check({}, place.inputs(i))).failures ?? []).toEqual([]);
    made.push(await api("POST", `/iam/v2beta1/widgets/${place.parent}`, place.body(i)));
  }
  expect(made.map((answer) => answer.status)).toEqual([200, 200, 200]);

  // The sample: its example under a group of its own, and a change in place; measured at the
  // benchmarks' floors (create 1, read 1, update 1, delete 1) through the generic lifecycle. The
  // benchmarks read each kind of the staged package; here, of the kind list in-process.
  const managed = kinds.map(
    (kind) => ({ typeName: kind.typeName, description: kind, updatable: true }) as unknown as ManagedKind,
  );
  const [sample, ...variants] = await samplesOf({ api, emu }, managed.at(-1)!, managed);
  expect(variants).toEqual([]);
  expect(sample).toMatchObject({ subject: "Widget", inPlace: true, change: { name: "w-1" } });
  expect(sample.inputs).toEqual({ parentUid: expect.any(String), name: "w", description: "a widget" });
  const counted = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    emu.clearRequests();
    const result = await work();
    return [result, emu.requests().length];
  };
  const [created, creates] = await counted(() => provider.create(sample.inputs));
  const [read, reads] = await counted(() => provider.read(created.id, created.outs));
  const next = { ...sample.inputs, ...sample.change };
  const diff = await provider.diff(created.id, read.props, next);
  expect(diff).toMatchObject({ changes: true });
  expect(diff.replaces ?? []).toEqual([]);
  const [updated, updates] = await counted(() => provider.update(created.id, read.props, next));
  expect(updated.outs).toMatchObject({ name: "w-1" });
  const [, deletes] = await counted(() => provider.delete(created.id, updated.outs));
  expect([creates, reads, updates, deletes]).toEqual([1, 1, 1, 1]);
  await sample.cleanup();
}, 60_000);
