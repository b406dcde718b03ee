/**
 * A `__proto__` key in a map is a key like any other: escaped where the value crosses Pulumi's
 * SDK (which drops it) and back, compared by diff, copied by every helper, checked by check,
 * kept by the look-ups' schemas; never taken for the prototype.
 */
import { z } from "zod";
import { changedFields } from "./changes";
import { checkInputs } from "../model/check";
import { escapeKey, fromHostKeys, toHostKeys, unescapeKey, withHostKeys } from "./hostKeys";
import { renameKeys, type ResourceKind } from "../model/kind";
import type { Lifecycle } from "./lifecycle";
import { mapOf } from "../model/mapSchema";
import { PartlyWrittenError } from "./resourceError";
import { canonical, sameValue, stripUndefined } from "../common/values";

/** An object with an own `__proto__` key, as JSON.parse makes it. */
const withProto = (value: unknown, rest: Record<string, unknown> = {}) =>
  ({ ...(JSON.parse(`{"__proto__": ${JSON.stringify(value)}}`) as object), ...rest }) as Record<string, unknown>;

const ownKeys = (value: unknown) => Object.keys(value as object);

describe("the escape", () => {
  test("__proto__ and every key spelled like its escape gain one ~; every other key is left alone", () => {
    expect(escapeKey("__proto__")).toBe("__proto__~");
    expect(escapeKey("__proto__~")).toBe("__proto__~~");
    expect(escapeKey("__proto__~~")).toBe("__proto__~~~");
    for (const key of ["", "proto", "__proto", "__proto__x", "__proto__~x", "~", "constructor", "prototype"])
      expect(escapeKey(key)).toBe(key);
  });

  test("unescaping undoes it: every key maps back to itself", () => {
    for (const key of ["__proto__", "__proto__~", "__proto__~~", "a", "__proto__x", "constructor"])
      expect(unescapeKey(escapeKey(key))).toBe(key);
  });

  test("values: at any depth, in arrays too; the prototype is never touched", () => {
    const value = {
      claims: withProto("a", { team: "x" }),
      list: [withProto({ nested: withProto("b") })],
      "__proto__~": "a key that only looks escaped",
    };
    const hosted = toHostKeys(value);
    expect(JSON.stringify(hosted)).toBe(
      JSON.stringify({
        claims: { "__proto__~": "a", team: "x" },
        list: [{ "__proto__~": { nested: { "__proto__~": "b" } } }],
        "__proto__~~": "a key that only looks escaped",
      }),
    );
    const back = fromHostKeys(hosted);
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    expect(ownKeys(back.claims)).toEqual(["__proto__", "team"]);
    expect(Object.getPrototypeOf(back.claims)).toBe(Object.prototype);
  });

  test("a value without such keys is handed on as it is (no copy on a refresh's hot path)", () => {
    const value = { name: "team", resourceLimits: { groups: 3 }, tags: ["a"] };
    expect(toHostKeys(value)).toBe(value);
    expect(fromHostKeys(value)).toBe(value);
  });

  test("the provider's operations see real keys; what they hand the host is escaped, errors' properties too", async () => {
    const seen: unknown[] = [];
    const answer = { uid: "u", claims: withProto("a") };
    const ops: Lifecycle = {
      configure: async () => undefined,
      check: async (_olds, news) => (seen.push(news), { inputs: news, failures: [] }),
      diff: async (_id, olds, news) => (seen.push(olds, news), { changes: true, diffs: [], detailedDiff: {} }),
      create: async (inputs) => (seen.push(inputs), { id: "u", outs: answer }),
      read: async (_id, props) => (seen.push(props), { id: "u", props: answer, inputs: answer }),
      update: async (_id, olds, news) => (seen.push(olds, news), { outs: answer }),
      delete: async (_id, props) => {
        seen.push(props);
        throw new PartlyWrittenError("partly", "u", answer, undefined);
      },
    };
    const host = withHostKeys(ops);
    const hosted = { claims: { "__proto__~": "a" } };
    const escaped = JSON.stringify(hosted);
    expect(JSON.stringify((await host.check({}, hosted)).inputs)).toBe(escaped);
    await host.diff("u", hosted, hosted);
    expect(JSON.stringify((await host.create(hosted)).outs)).toBe(JSON.stringify({ uid: "u", ...hosted }));
    const read = await host.read("u", hosted);
    expect(JSON.stringify([read.props, read.inputs])).toBe(
      JSON.stringify([
        { uid: "u", ...hosted },
        { uid: "u", ...hosted },
      ]),
    );
    expect(JSON.stringify((await host.update("u", hosted, hosted)).outs)).toBe(JSON.stringify({ uid: "u", ...hosted }));
    const failure = (await host.delete("u", hosted).catch((e: unknown) => e)) as PartlyWrittenError;
    expect(JSON.stringify(failure.properties)).toBe(JSON.stringify({ uid: "u", ...hosted }));
    // Every operation got the real key.
    expect(seen).toHaveLength(8);
    for (const props of seen) expect(ownKeys((props as { claims: object }).claims)).toEqual(["__proto__"]);
  });
});

describe("comparing and copying maps that hold __proto__", () => {
  test("canonical and stripUndefined keep the key as a key", () => {
    const claims = withProto("a", { team: "x" });
    expect(ownKeys(canonical(claims))).toEqual(["__proto__", "team"]);
    expect(ownKeys(stripUndefined({ claims }).claims)).toEqual(["__proto__", "team"]);
    // An object value would have become the copy's prototype.
    const nested = stripUndefined(withProto({ polluted: true }));
    expect(ownKeys(nested)).toEqual(["__proto__"]);
    expect((nested as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("a changed, added or removed __proto__ entry is a difference; an equal one is not", () => {
    expect(sameValue(withProto("a"), withProto("a"))).toBe(true);
    expect(sameValue(withProto("a"), withProto("b"))).toBe(false);
    expect(sameValue({}, withProto("a"))).toBe(false);
    expect(sameValue(withProto(""), {})).toBe(true);
    const olds = { claimMatch: { issuer: "i", claims: withProto("a") } };
    const news = { claimMatch: { issuer: "i", claims: withProto("b") } };
    expect(changedFields(olds, news, ["claimMatch"])).toEqual(["claimMatch"]);
    expect(changedFields(olds, olds, ["claimMatch"])).toEqual([]);
  });

  test("renaming record keys: a __proto__ key is not looked up in the prototype", () => {
    const renamed = renameKeys(withProto("a", { sync_config: 1 }), { sync_config: "syncConfig" });
    expect(ownKeys(renamed)).toEqual(["__proto__", "syncConfig"]);
    expect(renamed["[object Object]"]).toBeUndefined();
  });
});

describe("map schemas", () => {
  const kind = {
    typeName: "Thing",
    inputs: (f) =>
      f.z.strictObject({ parentUid: f.uid("a group"), name: f.name(), claims: f.stringMap(f.text()).optional() }),
  } as Pick<ResourceKind, "typeName" | "inputs"> as ResourceKind;

  test("check checks a __proto__ entry's value like any other and counts it", () => {
    const ok = checkInputs(kind, { parentUid: "acme", name: "t", claims: withProto("v") });
    expect(ok.failures).toEqual([]);
    expect(ownKeys(ok.inputs.claims)).toEqual(["__proto__"]);
    expect(checkInputs(kind, { parentUid: "acme", name: "t", claims: withProto("") }).failures).toEqual([
      { property: "claims.__proto__", reason: "must not be empty" },
    ]);
    const many = withProto("v", Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, "v"])));
    expect(checkInputs(kind, { parentUid: "acme", name: "t", claims: many }).failures).toEqual([
      { property: "claims", reason: "must have at most 64 entries (it has 65)" },
    ]);
    expect(checkInputs(kind, { parentUid: "acme", name: "t", claims: "x" }).failures).toEqual([
      { property: "claims", reason: "must be an object of strings" },
    ]);
  });

  test("a look-up's record keeps every key of its maps", () => {
    const parsed = z.object({ claims: mapOf(z, z.string()) }).parse({ claims: withProto("v", { a: "b" }) });
    expect(ownKeys(parsed.claims)).toEqual(["__proto__", "a"]);
    expect(z.object({ claims: mapOf(z, z.string()) }).safeParse({ claims: withProto(1) }).success).toBe(false);
  });
});
