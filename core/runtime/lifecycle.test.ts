/**
 * The shared machinery of the managed resources, with a scripted client: value comparison,
 * check's handling of unknown values, and the decisions a create makes when answers get lost.
 * (The real host, emulator and serialized providers are exercised in resources/iam/*.test.ts.)
 */
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { ApiClient, ApiRequest } from "../transport/client";
import { ApiError, Code, UnknownOutcomeError } from "../common/errors";
import { changedFields, maskPaths, updateMask } from "./changes";
import { checkInputs } from "../model/check";
import type { ResourceKind } from "../model/kind";
import { defineProvider } from "./lifecycle";
import { redact } from "../common/messages";
import { oneOf } from "../model/rules";
import {
  UNKNOWN,
  canonical,
  parentOfUid,
  sameValue,
  shown,
  stripUndefined,
  valueAt,
  withValuesAt,
  withoutValuesAt,
} from "../common/values";

const kind: ResourceKind = {
  typeName: "Thing",
  noun: "thing",
  domain: "iam",
  collection: "groups",
  message: "iam.Group",
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.z.string(f.expecting("a string")),
      description: f.optionalText().optional(),
      match: f.z
        .strictObject(
          {
            a: f.z.string(f.expecting("a string")).optional(),
            aPattern: f.z.string().optional(),
            b: f.z.string().url("must be a URL"),
          },
          f.expecting("an object"),
        )
        .optional(),
    }),
  rules: (inputs) => oneOf(inputs.match, "match", "a", "aPattern", true),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description"],
  replaceOn: ["parentUid"],
  label: (props) => `thing "${shown(props.name ?? "?")}"`,
  alreadyExistsHint: "rename it",
  explainDeleteRefusal: () => "it is not empty",
};

type Step = (req: ApiRequest) => unknown;

/** A client answering from a script, one step per request, recording each request. */
function scripted(steps: Step[]): ApiClient & { sent: ApiRequest[] } {
  const sent: ApiRequest[] = [];
  return {
    sent,
    async request<T>(req: ApiRequest): Promise<T> {
      sent.push(req);
      const step = steps.shift();
      if (!step) throw new Error(`unexpected request ${req.method} ${req.path}`);
      return step(req) as T;
    },
  };
}

const apiError =
  (code: number, serviceMessage: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  () => {
    throw new ApiError({ code, httpStatus: 400, method: "X", path: "/p", serviceMessage, ...extra });
  };
/** What a NOT_FOUND carries when the service says the record asked for is gone (its ResourceInfo names it). */
const gone = (uid: string) => ({ askedUid: uid, resourceName: uid });
const lost = () => {
  throw new UnknownOutcomeError("POST", "/iam/v2beta1/groups/acme", "UND_ERR_SOCKET");
};
const now = () => new Date().toISOString();
const record = (fields: Record<string, unknown> = {}) => ({
  uid: "acme/t1",
  name: "t",
  description: "",
  createTime: now(),
  ...fields,
});
const inputs = { parentUid: "acme", name: "t" };

test("the unknown sentinel is the SDK's", () => {
  expect(UNKNOWN).toBe(unknownValue);
});

test("values compare with empty and absent alike, key order ignored", () => {
  expect(sameValue(undefined, "")).toBe(true);
  expect(sameValue({ a: "x", b: "" }, { a: "x" })).toBe(true);
  expect(sameValue({ a: "x", c: { d: "" } }, { a: "x" })).toBe(true);
  expect(sameValue({ b: "2", a: "1" }, { a: "1", b: "2" })).toBe(true);
  expect(sameValue("x", "y")).toBe(false);
  expect(sameValue([], undefined)).toBe(true);
  expect(sameValue(false, undefined)).toBe(true);
  expect(sameValue(true, undefined)).toBe(false);
  expect(sameValue(["a"], [])).toBe(false);
  expect(sameValue({ a: "x" }, { a: "x", b: "y" })).toBe(false);
  expect(canonical({ b: [1, ""], a: null })).toEqual({ b: [1, null] });
});

test("changed fields: only the compared ones, unknown values always count", () => {
  const olds = { name: "a", description: "", verified: false, __provider: "old" };
  expect(changedFields(olds, { name: "a", verified: true, __provider: "new" }, ["name", "description"])).toEqual([]);
  expect(changedFields(olds, { name: "b", description: "d" }, ["name", "description"])).toEqual([
    "name",
    "description",
  ]);
  expect(changedFields(olds, { name: "a", description: { x: UNKNOWN } }, ["name", "description"])).toEqual([
    "description",
  ]);
  expect(updateMask(["name", "description"])).toBe("name,description");
});

test("mask paths name the changed members of a nested message, maps and scalars whole", () => {
  const olds = { name: "a", match: { a: "x", b: "https://b", m: { k: "1" } } };
  const nested = ["match"];
  expect(maskPaths(olds, { ...olds, match: { a: "x", b: "https://c", m: { k: "1" } } }, ["match"], nested)).toEqual([
    "match.b",
  ]);
  // A member removed, one added, a map changed: each named, sorted; the scalar named whole.
  expect(
    maskPaths(
      olds,
      { name: "b", match: { aPattern: "^x$", b: "https://b", m: { k: "2" } } },
      ["name", "match"],
      nested,
    ),
  ).toEqual(["name", "match.a", "match.aPattern", "match.m"]);
  // Not declared nested, or not a message on both sides: named whole.
  expect(maskPaths(olds, { match: { a: "y" } }, ["match"])).toEqual(["match"]);
  expect(maskPaths({}, { match: { a: "y" } }, ["match"], nested)).toEqual(["match"]);
  expect(maskPaths(olds, { match: { a: "x", b: UNKNOWN, m: { k: "1" } } }, ["match"], nested)).toEqual(["match.b"]);
});

test("stripUndefined removes undefined at any depth", () => {
  const stripped = stripUndefined({ a: undefined, b: { c: undefined, d: 1 }, e: [undefined, { f: undefined }] });
  expect(stripped).toEqual({ b: { d: 1 }, e: [null, {}] });
  expect(JSON.stringify(stripped)).toBe('{"b":{"d":1},"e":[null,{}]}');
});

test("parentOfUid: everything before the last segment", () => {
  expect(parentOfUid("acme/team/ci")).toBe("acme/team");
  expect(parentOfUid("acme")).toBeUndefined();
});

test("check: failures under unknown values are dropped, the rest kept and named; __provider ignored", () => {
  const { inputs: checked, failures } = checkInputs(kind, {
    __provider: "text",
    parentUid: UNKNOWN,
    name: 7,
    match: { b: UNKNOWN, aPattern: UNKNOWN, a: "x" },
    stray: undefined,
  });
  expect(failures).toEqual([
    { property: "name", reason: "must be a string" },
    { property: "match.a", reason: "set either a or aPattern, not both" },
  ]);
  expect(checked).toEqual({ parentUid: UNKNOWN, name: 7, match: { b: UNKNOWN, aPattern: UNKNOWN, a: "x" } });
  expect("__provider" in checked).toBe(false);
  expect(checkInputs(kind, { parentUid: "acme", name: "t", match: UNKNOWN }).failures).toEqual([]);
  expect(checkInputs(kind, { parentUid: "acme", name: "t", match: { b: "nope", a: "x" } }).failures).toEqual([
    { property: "match.b", reason: "must be a URL" },
  ]);
});

test("create: one POST to the parent with only the resource's own fields", async () => {
  const client = scripted([() => record({ description: "d" })]);
  const provider = defineProvider(kind, () => client);
  const created = await provider.create({ ...inputs, description: "d" });
  expect(client.sent).toEqual([
    { method: "POST", domain: "iam", path: "groups/acme", body: { name: "t", description: "d" } },
  ]);
  expect(created).toEqual({
    id: "acme/t1",
    outs: { ...record({ description: "d" }), createTime: expect.any(String), parentUid: "acme" },
  });
});

test("create: a lost answer, nothing found, then ALREADY_EXISTS: the record is looked for again and adopted", async () => {
  const client = scripted([
    lost,
    () => ({ groups: [] }),
    apiError(Code.ALREADY_EXISTS, "exists"),
    () => ({ groups: [record()] }),
  ]);
  const created = await defineProvider(kind, () => client).create(inputs);
  expect(created.id).toBe("acme/t1");
  expect(client.sent.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET"]);
  expect(client.sent[1].query).toMatchObject({ "uidp.children_of": "acme", name: "t" });
});

test("create: after a lost answer, a record that differs from the request is not taken over", async () => {
  const theirs = record({ description: "someone else's" });
  const client = scripted([
    lost,
    () => ({ groups: [theirs] }),
    apiError(Code.ALREADY_EXISTS, 'a thing named "t" already exists'),
    () => ({ groups: [theirs] }),
  ]);
  await expect(defineProvider(kind, () => client).create(inputs)).rejects.toThrow(
    /^creating thing "t" failed: it already exists \(a thing named "t" already exists\)\. This program does not take over existing records silently: rename it; or take it over: set `adopt: true` on this resource, or `pulumi config set platform:adopt true` for the whole stack$/,
  );
});

test("create: after a lost answer, a matching record created long before the request is not taken over", async () => {
  const old = record({ createTime: "2020-01-01T00:00:00.000Z" });
  const client = scripted([
    lost,
    () => ({ groups: [old] }),
    apiError(Code.ALREADY_EXISTS, "exists"),
    () => ({ groups: [old] }),
  ]);
  await expect(defineProvider(kind, () => client).create(inputs)).rejects.toThrow(/it already exists/);
});

/** `ms` milliseconds from now, as the service writes times. */
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

test("create: after a lost answer, a match made just before the send is neither taken nor deleted: the error names it", async () => {
  for (const invite of [kind, { ...kind, onlyAtCreate: ["code"], secrets: ["code"] }]) {
    const theirs = record({ uid: "acme/theirs", createTime: at(-5_000) });
    const client = scripted([lost, () => ({ groups: [theirs] })]);
    await expect(defineProvider(invite, () => client).create(inputs)).rejects.toThrow(
      /^creating thing "t" failed: the answer to the create was lost \(.*\), and a thing with the same values exists that this program cannot prove it made: acme\/theirs \(createTime .*\)\. A record counts as the create's only when it is the one such record made at or after .*, when the request was sent; nothing was taken over or deleted\. To settle it: if one of them is this resource's, set `adoptUid` to its uid on the resource; .* then run `pulumi up` again$/,
    );
    expect(client.sent.map((r) => r.method)).toEqual(["POST", "GET"]);
  }
});

test("create: after a lost answer, two matches made since the send are both unproven; with adoption on, one is adopted", async () => {
  const two = () => ({ groups: [record({ uid: "acme/a" }), record({ uid: "acme/b" })] });
  const client = scripted([lost, two]);
  await expect(defineProvider(kind, () => client).create(inputs)).rejects.toThrow(
    /and 2 groups with the same values exist that this program cannot prove it made: acme\/a \(createTime .*\), acme\/b/,
  );
  const one = scripted([lost, () => ({ groups: [record({ uid: "acme/theirs", createTime: at(-5_000) })] })]);
  const adopted = await defineProvider(kind, () => one).create({ ...inputs, adopt: true });
  expect(adopted).toMatchObject({ id: "acme/theirs", outs: { adopted: true } });
});

test("create: a kind whose code is only answered at create never deletes a match made long before the send", async () => {
  const invite: ResourceKind = { ...kind, onlyAtCreate: ["code"], secrets: ["code"] };
  const theirs = record({ uid: "acme/theirs", createTime: at(-10 * 60_000) });
  const client = scripted([lost, () => ({ groups: [theirs] }), () => record({ uid: "acme/ours", code: "fresh-code" })]);
  const created = await defineProvider(invite, () => client).create(inputs);
  expect(client.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
    "POST groups/acme",
    "GET groups",
    "POST groups/acme",
  ]);
  expect(created).toMatchObject({ id: "acme/ours", outs: { code: "fresh-code" } });
});

test("create: a kind whose records tell no time lists first; after a lost answer only a record not listed before is its own", async () => {
  const timeless: ResourceKind = { ...kind, createdAtField: null };
  const theirs = { uid: "acme/theirs", name: "t" };
  const ours = { uid: "acme/ours", name: "t" };
  const client = scripted([() => ({ groups: [theirs] }), lost, () => ({ groups: [theirs, ours] })]);
  expect((await defineProvider(timeless, () => client).create(inputs)).id).toBe("acme/ours");
  expect(client.sent.map((r) => r.method)).toEqual(["GET", "POST", "GET"]);
  // Nothing new after the lost answer: the one listed before is another's, and the create is sent again.
  const again = scripted([
    () => ({ groups: [theirs] }),
    lost,
    () => ({ groups: [theirs] }),
    apiError(Code.ALREADY_EXISTS, "exists"),
    () => ({ groups: [theirs] }),
  ]);
  await expect(defineProvider(timeless, () => again).create(inputs)).rejects.toThrow(/failed: it already exists/);
  expect(again.sent.map((r) => r.method)).toEqual(["GET", "POST", "GET", "POST", "GET"]);
});

test("create: when looking for the record fails, the message says to check for it", async () => {
  const client = scripted([lost, apiError(Code.PERMISSION_DENIED, "no list")]);
  await expect(defineProvider(kind, () => client).create(inputs)).rejects.toThrow(
    /^creating thing "t": the answer to the create was lost and looking for the record failed \(PERMISSION_DENIED: no list .*\)\. Check whether it exists: if one is this resource's, set `adoptUid` to its uid on the resource, or delete it/,
  );
});

test("create: other API errors name the operation, the record and the API's answer", async () => {
  const client = scripted([
    apiError(Code.INVALID_ARGUMENT, "bad", { fieldViolations: [{ field: "name", description: "must match x" }] }),
  ]);
  await expect(defineProvider(kind, () => client).create(inputs)).rejects.toThrow(
    /^creating thing "t" failed: INVALID_ARGUMENT: name: must match x \(X \/p\)$/,
  );
});

test("read: one GET; NOT_FOUND is gone; inputs are the user-settable values; nothing undefined", async () => {
  const root = { uid: "acme", name: "acme", description: "", createTime: now() };
  const client = scripted([
    () => root,
    apiError(Code.NOT_FOUND, "gone", gone("acme/gone")),
    apiError(Code.PERMISSION_DENIED, "denied"),
  ]);
  const provider = defineProvider(kind, () => client);
  const read = await provider.read("acme", {});
  expect(read).toEqual({ id: "acme", props: root, inputs: { name: "acme" } });
  expect(Object.keys(read.props)).not.toContain("parentUid");
  expect(await provider.read("acme/gone", {})).toEqual({ id: "", props: {} });
  await expect(provider.read("acme/t1", { name: "t" })).rejects.toThrow(
    /^reading thing "t" failed: PERMISSION_DENIED: denied/,
  );
  expect(client.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
    "GET groups/acme",
    "GET groups/acme/gone",
    "GET groups/acme/t1",
  ]);
});

test("update: NOT_FOUND says to refresh; nothing changed sends nothing", async () => {
  const client = scripted([apiError(Code.NOT_FOUND, "gone", gone("acme/t1"))]);
  const provider = defineProvider(kind, () => client);
  const olds = { ...record(), parentUid: "acme", __provider: "p" };
  expect(await provider.update("acme/t1", olds, { parentUid: "acme", name: "t", __provider: "q" })).toEqual({
    outs: { ...record(), createTime: expect.any(String), parentUid: "acme" },
  });
  expect(client.sent).toEqual([]);
  await expect(provider.update("acme/t1", olds, { parentUid: "acme", name: "u" })).rejects.toThrow(
    /^updating thing "u" failed: NOT_FOUND: gone .*It no longer exists \(deleted outside this program\): run `pulumi up --refresh`, or `pulumi refresh` then `pulumi up`, to create it again$/,
  );
  expect(client.sent).toEqual([
    { method: "PATCH", domain: "iam", path: "groups/acme/t1", query: { updateMask: "name" }, body: { name: "u" } },
  ]);
});

test("update: the body carries every declared writable field, the mask only the changed ones", async () => {
  const client = scripted([(req) => ({ ...record(), ...(req.body as object) })]);
  const provider = defineProvider(kind, () => client);
  const olds = { ...record({ description: "d" }), parentUid: "acme" };
  await provider.update("acme/t1", olds, { parentUid: "acme", name: "t", description: "e" });
  expect(client.sent).toEqual([
    {
      method: "PATCH",
      domain: "iam",
      path: "groups/acme/t1",
      query: { updateMask: "description" },
      body: { name: "t", description: "e" },
    },
  ]);
  // A field dropped from the program: the mask names it, the body leaves it out, so the service clears it.
  client.sent.length = 0;
  const scriptedAgain = scripted([(req) => ({ ...record(), ...(req.body as object) })]);
  await defineProvider(kind, () => scriptedAgain).update("acme/t1", olds, { parentUid: "acme", name: "t" });
  expect(scriptedAgain.sent[0]).toMatchObject({ query: { updateMask: "description" }, body: { name: "t" } });
});

test("delete: NOT_FOUND is success; FAILED_PRECONDITION is explained", async () => {
  const client = scripted([
    apiError(Code.NOT_FOUND, "gone", gone("acme/t1")),
    apiError(Code.FAILED_PRECONDITION, "not empty"),
  ]);
  const provider = defineProvider(kind, () => client);
  await provider.delete("acme/t1", { name: "t" });
  await expect(provider.delete("acme/t1", { name: "t" })).rejects.toThrow(
    /^deleting thing "t" failed: it is not empty$/,
  );
});

test("configure tolerates a host that was never configured", async () => {
  const provider = defineProvider(kind, () => scripted([]));
  await expect(
    provider.configure({
      config: {
        get: () => {
          throw new TypeError("Cannot read properties of undefined");
        },
        require: () => {
          throw new TypeError("Cannot read properties of undefined");
        },
      },
    }),
  ).resolves.toBeUndefined();
});

test("a uid the service answers is checked like an input before it becomes a resource id", async () => {
  for (const uid of ["acme/..", "acme/./t1", "../roles/x", "acme//t1", "acme/t 1", "acme/%2e%2e"]) {
    const client = scripted([() => record({ uid }), () => record({ uid })]);
    const provider = defineProvider(kind, () => client);
    await expect(provider.create(inputs)).rejects.toThrow(/^the API answered a thing whose uid .* is not well formed/);
    await expect(provider.read("acme/t1", {})).rejects.toThrow(/is not well formed .*platform:apiUrl/);
  }
});

test("a read checks the answer's place: the uid asked, under the state's parent, and the parent it says its uid's", async () => {
  const state = { uid: "acme/t1", parentUid: "acme", name: "t" };
  const readWith = (answer: Record<string, unknown>, over: Partial<ResourceKind> = {}) =>
    defineProvider({ ...kind, ...over }, () => scripted([() => answer])).read("acme/t1", state);
  await expect(readWith(record({ uid: "acme/t9" }))).rejects.toThrow(
    /^reading thing "t" failed: the API answered the record "acme\/t9" for "acme\/t1"; it was not recorded/,
  );
  // The same uid asked for, under another parent than the state's.
  const moved = defineProvider(kind, () => scripted([() => record({ uid: "other/t1" })]));
  await expect(moved.read("other/t1", state)).rejects.toThrow(
    /its uid places it under "other", not under its parentUid "acme"/,
  );
  // A record whose parent field (a binding's group) is not the one its uid names.
  const saysGroup: Partial<ResourceKind> = {
    toOutputs: (r) => ({ ...r, parentUid: (r.group as { uid: string }).uid }),
  };
  await expect(readWith(record({ group: { uid: "elsewhere" } }), saysGroup)).rejects.toThrow(
    /it says its parentUid is "elsewhere", but its uid places it under "acme"/,
  );
  expect((await readWith(record({ group: { uid: "acme" } }), saysGroup)).id).toBe("acme/t1");
  // A first read (an import) has no parent in its state: the record's own consistency is still checked.
  const imported = defineProvider({ ...kind, ...saysGroup }, () => scripted([() => record({ group: { uid: "x" } })]));
  await expect(imported.read("acme/t1", {})).rejects.toThrow(/says its parentUid is "x"/);
});

test("create: a lost answer for a kind whose code is only answered at create deletes what it made and sends again", async () => {
  const invite: ResourceKind = { ...kind, onlyAtCreate: ["code"], secrets: ["code"] };
  const client = scripted([
    lost,
    () => ({ groups: [record()] }),
    () => ({}),
    () => record({ uid: "acme/t2", code: "s3cret" }),
  ]);
  const created = await defineProvider(invite, () => client).create(inputs);
  expect(client.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
    "POST groups/acme",
    "GET groups",
    "DELETE groups/acme/t1",
    "POST groups/acme",
  ]);
  expect(created).toMatchObject({ id: "acme/t2", outs: { code: "s3cret" } });
  // Read and update keep it from the state, since the service never answers it again.
  const reread = scripted([() => record({ uid: "acme/t2" })]);
  const read = await defineProvider(invite, () => reread).read("acme/t2", created.outs);
  expect(read.props).toMatchObject({ code: "s3cret" });
});

test("a secret output never reaches a message: left out of a malformed answer, redacted once answered", async () => {
  const invite: ResourceKind = { ...kind, onlyAtCreate: ["code"], secrets: ["code"] };
  const code = "c0de-that-redeems-the-invite";
  const noUid = scripted([() => ({ name: "t", code })]);
  const error = await defineProvider(invite, () => noUid)
    .create(inputs)
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(error?.message).toMatch(/^the API answered a thing without a uid: \{"name":"t"\}$/);
  // Once answered, the value is redacted from any later message of the process.
  const created = scripted([
    () => record({ uid: "acme/t3", code: `${code}-2` }),
    apiError(Code.INTERNAL, `echo ${code}-2`),
  ]);
  const provider = defineProvider(invite, () => created);
  expect((await provider.create(inputs)).outs).toMatchObject({ code: `${code}-2` });
  await expect(provider.delete("acme/t3", { name: "t" })).rejects.toThrow(/echo \[redacted\]/);
});

test("a replacement deletes first only when the new record has the old one's whole natural key (List filters and key fields)", async () => {
  const byParent: ResourceKind = {
    ...kind,
    replaceOn: ["parentUid", "name", "description"],
    naturalKey: (props) => ({ "uidp.children_of": shown(props.parentUid) }),
  };
  const provider = defineProvider(byParent, () => scripted([]));
  const olds = { uid: "acme/t1", parentUid: "acme", name: "t", description: "d" };
  // Same filters, same key field: the service would hold two records of one key.
  expect(await provider.diff("acme/t1", olds, { ...olds, description: "e" })).toMatchObject({
    replaces: ["description"],
    deleteBeforeReplace: true,
  });
  // Same filters, another key field value: created first, then the old one deleted.
  expect(await provider.diff("acme/t1", olds, { ...olds, name: "u" })).toMatchObject({
    replaces: ["name"],
    deleteBeforeReplace: false,
  });
  expect(await provider.diff("acme/t1", olds, { ...olds, name: UNKNOWN })).toMatchObject({
    replaces: ["name"],
    deleteBeforeReplace: false,
  });
});

test("values at dotted paths: read, copied where the message exists, removed without touching the original", () => {
  const state = { name: "a", login: { url: "u", secret: "s" } };
  expect(valueAt(state, "login.secret")).toBe("s");
  expect(valueAt(state, "name.secret")).toBeUndefined();
  expect(withValuesAt({ name: "b", login: { url: "v" } }, state, ["login.secret"])).toEqual({
    name: "b",
    login: { url: "v", secret: "s" },
  });
  // No message to put it in: nothing is made up.
  expect(withValuesAt({ name: "b" }, state, ["login.secret"])).toEqual({ name: "b" });
  expect(withValuesAt({ name: "b", login: { url: "v" } }, { name: "c" }, ["login.secret"])).toEqual({
    name: "b",
    login: { url: "v" },
  });
  expect(withoutValuesAt(state, ["login.secret", "other.x"])).toEqual({ name: "a", login: { url: "u" } });
  expect(state.login.secret).toBe("s");
});

/** A kind with a write-only secret member and a companion document, on the scripted client. */
const secretive: ResourceKind = {
  ...kind,
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.z.string(),
      login: f.z.strictObject({ url: f.z.string(), secret: f.z.string().optional() }).optional(),
      notes: f.z.string().optional(),
    }),
  rules: undefined,
  writable: ["name", "login"],
  nested: ["login"],
  writeOnly: ["login.secret"],
  secrets: ["login.secret"],
  companions: [{ input: "notes", suffix: "notes", message: "x.Notes", field: "content" }],
};
const SECRET = "write-only-secret-0123456789";
const secretInputs = { parentUid: "acme", name: "t", login: { url: "https://u", secret: SECRET } };

test("write-only members: kept from the inputs by create and update, from the state by read; the mask names them", async () => {
  const answered = record({ login: { url: "https://u" } });
  const client = scripted([() => answered, () => answered, () => record({ login: { url: "https://u" } })]);
  const provider = defineProvider(secretive, () => client);
  const created = await provider.create(secretInputs);
  expect(client.sent[0].body).toEqual({ name: "t", login: { url: "https://u", secret: SECRET } });
  expect(created.outs.login).toEqual({ url: "https://u", secret: SECRET });
  const read = await provider.read("acme/t1", created.outs);
  expect(read.props?.login).toEqual({ url: "https://u", secret: SECRET });
  expect(read.inputs).toEqual(secretInputs);
  expect(await provider.diff("acme/t1", read.props, secretInputs)).toMatchObject({ changes: false });
  const rotated = { ...secretInputs, login: { url: "https://u", secret: `${SECRET}-2` } };
  const updated = await provider.update("acme/t1", read.props, rotated);
  expect(client.sent[2].query).toEqual({ updateMask: "login.secret" });
  expect(updated.outs?.login).toEqual({ url: "https://u", secret: `${SECRET}-2` });
});

test("write-only members: after a lost create answer, the record made is found without comparing them", async () => {
  const client = scripted([lost, () => ({ groups: [record({ login: { url: "https://u" } })] })]);
  const created = await defineProvider(secretive, () => client).create(secretInputs);
  expect(created.id).toBe("acme/t1");
  expect(created.outs.login).toEqual({ url: "https://u", secret: SECRET });
  expect(client.sent.map((r) => r.method)).toEqual(["POST", "GET"]);
});

test("a secret member echoed by the service is redacted from the error", async () => {
  const client = scripted([apiError(Code.INVALID_ARGUMENT, `login.secret "${SECRET}" is not accepted`)]);
  const error = await defineProvider(secretive, () => client)
    .create(secretInputs)
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(error?.message).toMatch(/^creating thing "t" failed: .*\[redacted\]/);
  expect(error?.message).not.toContain(SECRET);
});

test("companions: none requested unless set; written after the create, read with the record, written when changed", async () => {
  const plain = scripted([() => record(), () => record()]);
  const withoutNotes = defineProvider(secretive, () => plain);
  const created = await withoutNotes.create(inputs);
  await withoutNotes.read("acme/t1", created.outs);
  expect(plain.sent.map((r) => `${r.method} ${r.path}`)).toEqual(["POST groups/acme", "GET groups/acme/t1"]);

  const client = scripted([
    () => record(),
    (req) => ({ uid: "acme/t1", content: (req.body as { content: string }).content }),
    () => record(),
    () => ({ uid: "acme/t1", content: "edited elsewhere" }),
    (req) => ({ uid: "acme/t1", content: (req.body as { content: string }).content }),
  ]);
  const provider = defineProvider(secretive, () => client);
  const withNotes = await provider.create({ ...inputs, notes: "# hello" });
  expect(withNotes.outs.notes).toBe("# hello");
  const read = await provider.read("acme/t1", withNotes.outs);
  expect(read.props?.notes).toBe("edited elsewhere");
  expect(read.inputs).toMatchObject({ notes: "edited elsewhere" });
  expect(await provider.diff("acme/t1", read.props, { ...inputs, notes: "# hello" })).toMatchObject({ changes: true });
  const updated = await provider.update("acme/t1", read.props, { ...inputs, notes: "# hello" });
  expect(updated.outs?.notes).toBe("# hello");
  expect(client.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
    "POST groups/acme",
    "PATCH groups/acme/t1/notes",
    "GET groups/acme/t1",
    "GET groups/acme/t1/notes",
    "PATCH groups/acme/t1/notes",
  ]);
  expect(client.sent[1].body).toEqual({ content: "# hello" });
  // Left out of the program: no longer managed, no request.
  const dropped = await provider.update("acme/t1", updated.outs, inputs);
  expect(dropped.outs).not.toHaveProperty("notes");
  expect(client.sent).toHaveLength(5);
});

test("companions: a document that fails after the create keeps the record in the state, without the document", async () => {
  const client = scripted([() => record(), apiError(Code.UNAVAILABLE, "try later")]);
  const error = await defineProvider(secretive, () => client)
    .create({ ...inputs, notes: "# hello", __provider: "p" })
    .then(
      () => undefined,
      (e: Error & { id?: string; properties?: Record<string, unknown>; reasons?: string[] }) => e,
    );
  expect(error?.message).toMatch(/^writing the notes of thing "t" \(acme\/t1\) failed: .*run `pulumi up` again/);
  expect(error?.id).toBe("acme/t1");
  expect(error?.properties).toMatchObject({ uid: "acme/t1", name: "t", __provider: "p" });
  expect(error?.properties).not.toHaveProperty("notes");
  expect(error?.reasons).toEqual([error?.message]);
});

test("a secret member not known yet (preview) is not registered: its sentinel stays readable in messages", async () => {
  const provider = defineProvider(secretive, () => scripted([]));
  await provider.check({}, { ...secretInputs, login: { url: "https://u", secret: UNKNOWN } });
  expect(redact(`value ${UNKNOWN}`)).toBe(`value ${UNKNOWN}`);
  await provider.check({}, { ...secretInputs, login: { url: "https://u", secret: "preview-known-secret" } });
  expect(redact("value preview-known-secret")).toBe("value [redacted]");
});
