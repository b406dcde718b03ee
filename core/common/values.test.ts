/**
 * The allocation-free helpers a read runs on every record agree with the copying ones they
 * stand in for: isUnset with canonical, withoutUndefined with stripUndefined.
 */
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { canonical, holdsUndefined, isUnset, stripUndefined, UNKNOWN, withoutUndefined } from "./values";

const SAMPLES: unknown[] = [
  undefined,
  null,
  "",
  false,
  0,
  "x",
  true,
  [],
  [null],
  [""],
  [undefined],
  {},
  { a: "" },
  { a: { b: [] } },
  { a: { b: [1] } },
  { a: null, b: false },
  { a: 0 },
  { a: undefined },
  { a: { b: undefined, c: "kept" } },
  [1, [2, undefined]],
  // eslint-disable-next-line no-sparse-arrays -- a hole is what the host cannot carry either
  [1, , 3],
];

describe("isUnset", () => {
  it.each(SAMPLES.map((value) => [JSON.stringify(value) ?? "undefined", value]))(
    "%s: unset exactly when its canonical form is undefined",
    (_shown, value) => {
      expect(isUnset(value)).toBe(canonical(value) === undefined);
    },
  );
});

describe("withoutUndefined", () => {
  it.each(SAMPLES.map((value) => [JSON.stringify(value) ?? "undefined", value]))(
    "%s: equals stripUndefined's copy",
    (_shown, value) => {
      expect(withoutUndefined(value)).toStrictEqual(stripUndefined(value));
    },
  );

  it("returns the value itself when there is nothing to strip, a copy when there is", () => {
    const clean = { uid: "g", labels: { team: "a" }, members: ["x"] };
    expect(withoutUndefined(clean)).toBe(clean);
    const dirty = { uid: "g", labels: { team: undefined } };
    expect(holdsUndefined(dirty)).toBe(true);
    expect(withoutUndefined(dirty)).toStrictEqual({ uid: "g", labels: {} });
    expect(dirty.labels).toHaveProperty("team");
  });
});

describe("UNKNOWN", () => {
  it("is the SDK's own runtime.unknownValue, which it spells out", () => {
    expect(UNKNOWN).toBe(unknownValue);
  });
});
