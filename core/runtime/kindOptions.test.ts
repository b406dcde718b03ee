/**
 * The optional parts of a kind's description, with a scripted client: fields the wire spells
 * otherwise, inputs that never reach the API, a delete refused before any request, a
 * replacement under the same natural key, and kinds only some API versions serve.
 */
import { ApiClient, ApiRequest } from "../transport/client";
import type { ResourceKind } from "../model/kind";
import { defineProvider } from "./lifecycle";
import { kindLookups } from "../program/kindLookups";
import { z } from "zod";
import { withClient } from "../program/lookup";

const kind: ResourceKind = {
  typeName: "Thing",
  noun: "thing",
  domain: "registry",
  collection: "things",
  message: "registry.Thing",
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      shape: f.z.strictObject({ source: f.text(), extra: f.text().optional() }).optional(),
      keep: f.z.boolean().optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "shape"],
  nested: ["shape"],
  replaceOn: ["parentUid", "name"],
  wireNames: { shape: "the_shape" },
  localInputs: ["keep"],
  refuseDelete: (props) => (props.keep === false ? undefined : "set keep: false first"),
  apiVersions: ["v2beta1"],
  alreadyExistsHint: "rename it",
};

function scripted(answers: unknown[]): ApiClient & { sent: ApiRequest[] } {
  const sent: ApiRequest[] = [];
  return {
    sent,
    async request<T>(req: ApiRequest): Promise<T> {
      sent.push(req);
      if (answers.length === 0) throw new Error(`unexpected request ${req.method} ${req.path}`);
      return answers.shift() as T;
    },
  };
}

const saved = { ...process.env };
function env(vars: Record<string, string>) {
  process.env = { ...saved };
  for (const key of Object.keys(process.env)) if (key.startsWith("PLATFORM_")) delete process.env[key];
  Object.assign(process.env, vars);
}
beforeEach(() => env({ PLATFORM_API_URL: "https://api.example.com", PLATFORM_TOKEN: "t" }));
afterAll(() => {
  process.env = saved;
});

const stored = { uid: "acme/x1", name: "x", the_shape: { source: "s" }, createTime: "2026-01-01T00:00:00Z" };

test("wire names: the body and the mask carry the wire's spelling, the outputs the input's", async () => {
  const client = scripted([stored, { ...stored, the_shape: { source: "s", extra: "e" } }]);
  const provider = defineProvider(kind, () => client);
  const created = await provider.create({ parentUid: "acme", name: "x", shape: { source: "s" }, keep: true });
  expect(client.sent[0]).toMatchObject({ path: "things/acme", body: { name: "x", the_shape: { source: "s" } } });
  expect(created.outs).toEqual({
    uid: "acme/x1",
    parentUid: "acme",
    name: "x",
    shape: { source: "s" },
    keep: true,
    createTime: stored.createTime,
  });
  const updated = await provider.update("acme/x1", created.outs, {
    parentUid: "acme",
    name: "x",
    shape: { source: "s", extra: "e" },
    keep: true,
  });
  expect(client.sent[1]).toMatchObject({
    method: "PATCH",
    query: { updateMask: "the_shape.extra" },
    body: { name: "x", the_shape: { source: "s", extra: "e" } },
  });
  expect(updated.outs).toMatchObject({ shape: { source: "s", extra: "e" }, keep: true });
  expect(updated.outs).not.toHaveProperty("the_shape");
});

test("local inputs: compared, kept through read, never sent; a change alone costs no request", async () => {
  const client = scripted([stored]);
  const provider = defineProvider(kind, () => client);
  const olds = { uid: "acme/x1", parentUid: "acme", name: "x", shape: { source: "s" }, keep: true };
  const news = { parentUid: "acme", name: "x", shape: { source: "s" }, keep: false };
  expect(await provider.diff("acme/x1", olds, news)).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
    diffs: ["keep"],
    detailedDiff: { keep: { kind: "update", replace: false } },
  });
  // A nested field is named by the member that changed, as the update's mask names it.
  expect(await provider.diff("acme/x1", olds, { ...news, keep: true, shape: { source: "s", extra: "e" } })).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
    diffs: ["shape"],
    detailedDiff: { "shape.extra": { kind: "add", replace: false } },
  });
  expect((await provider.update("acme/x1", olds, news)).outs).toMatchObject({ keep: false });
  // Dropped from the program: dropped from the state.
  const { keep: _dropped, ...without } = news;
  expect((await provider.update("acme/x1", olds, without)).outs).not.toHaveProperty("keep");
  expect(client.sent).toEqual([]);
  const read = await provider.read("acme/x1", olds);
  expect(read.props).toMatchObject({ keep: true, shape: { source: "s" } });
  expect(read.inputs).toEqual({ parentUid: "acme", name: "x", shape: { source: "s" }, keep: true });
});

test("a refused delete sends nothing and says why; an allowed one is one DELETE", async () => {
  const client = scripted([{}]);
  const provider = defineProvider(kind, () => client);
  await expect(provider.delete("acme/x1", { name: "x", keep: true })).rejects.toThrow(
    'deleting thing "x" (acme/x1) refused: set keep: false first',
  );
  expect(client.sent).toEqual([]);
  await provider.delete("acme/x1", { name: "x", keep: false });
  expect(client.sent.map((r) => r.method)).toEqual(["DELETE"]);
});

test("a replacement under the same natural key deletes first; under a new one it creates first", async () => {
  const provider = defineProvider({ ...kind, replaceOn: ["parentUid", "shape"] }, () => scripted([]));
  const olds = { uid: "acme/x1", parentUid: "acme", name: "x", shape: { source: "s" }, keep: false };
  expect(await provider.diff("acme/x1", olds, { ...olds, shape: { source: "t" } })).toMatchObject({
    replaces: ["shape"],
    deleteBeforeReplace: true,
  });
  expect(await provider.diff("acme/x1", olds, { ...olds, parentUid: "acme/team" })).toMatchObject({
    replaces: ["parentUid"],
    deleteBeforeReplace: false,
  });
});

test("a replacement of a record whose delete is refused is refused by diff, before anything is created", async () => {
  const client = scripted([]);
  const provider = defineProvider(kind, () => client);
  const olds = { uid: "acme/x1", parentUid: "acme", name: "x", keep: true };
  await expect(provider.diff("acme/x1", olds, { ...olds, name: "y" })).rejects.toThrow(
    'replacing thing "x" (acme/x1) (name changed) refused: set keep: false first',
  );
  expect(await provider.diff("acme/x1", { ...olds, keep: false }, { ...olds, name: "y" })).toMatchObject({
    replaces: ["name"],
  });
  expect(client.sent).toEqual([]);
});

test("a kind its API version does not serve is refused before any request, naming the setting", async () => {
  env({ PLATFORM_API_URL: "https://api.example.com", PLATFORM_TOKEN: "t", PLATFORM_API_VERSION: "v2" });
  const client = scripted([]);
  const provider = defineProvider(kind, () => client);
  const refusal =
    'registry.Thing resources exist only in the v2beta1 API, but platform:apiVersion (PLATFORM_API_VERSION) is "v2"';
  await expect(provider.check({}, { parentUid: "acme", name: "x" })).rejects.toThrow(refusal);
  await expect(provider.create({ parentUid: "acme", name: "x" })).rejects.toThrow(refusal);
  await expect(provider.read("acme/x1", {})).rejects.toThrow(refusal);
  await expect(provider.delete("acme/x1", { keep: false })).rejects.toThrow(refusal);
  const lookups = kindLookups(kind, () => z.looseObject({ uid: z.string() }));
  await expect(lookups.many.get({}, withClient(client))).rejects.toThrow(
    'getThings: registry things exist only in the v2beta1 API, but platform:apiVersion (PLATFORM_API_VERSION) is "v2"',
  );
  await expect(lookups.one.get({ uid: "acme/x1" }, withClient(client))).rejects.toThrow(
    /^getThing: registry things exist/,
  );
  expect(client.sent).toEqual([]);

  env({ PLATFORM_API_URL: "https://api.example.com", PLATFORM_TOKEN: "t", PLATFORM_API_VERSION: "v2beta1" });
  await expect(provider.check({}, { parentUid: "acme", name: "x" })).resolves.toMatchObject({ failures: [] });
});
