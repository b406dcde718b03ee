import {
  displayChanges,
  displayValue,
  forProvider,
  makeSecret,
  propertyChanges,
  secretKeys,
  secretOutputs,
  UNKNOWN,
  withSecrets,
} from "./wire";

describe("propertyChanges", () => {
  test("lists changed leaves by dotted path and ignores __provider", () => {
    const olds = { name: "a", claimMatch: { issuer: "https://x", subject: "s1" }, __provider: "old code" };
    const news = {
      name: "a",
      claimMatch: { issuer: "https://x", subject: "s2" },
      description: "d",
      __provider: "new code",
    };
    expect(propertyChanges(olds, news)).toEqual([
      { path: "claimMatch.subject", old: "s1", new: "s2" },
      { path: "description", old: undefined, new: "d" },
    ]);
  });

  test("finds nothing between equal bags in a different key order", () => {
    expect(propertyChanges({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });
});

describe("displayChanges", () => {
  test("shows input changes, else the declared properties whose stored outputs differ", () => {
    const stored = {
      inputs: { name: "a", description: "d" },
      outputs: { name: "a", description: "edited", uid: "g/1" },
    };
    expect(displayChanges(stored, { name: "b", description: "d" })).toEqual([{ path: "name", old: "a", new: "b" }]);
    expect(displayChanges(stored, { name: "a", description: "d" })).toEqual([
      { path: "description", old: "edited", new: "d" },
    ]);
  });
});

describe("forProvider", () => {
  test("unwraps secrets, downgrades resource references to ids and drops undefined", () => {
    const ref = { "4dabf18193072939515e22adb298388d": "5cf8f73096256a8f31e491e813e4eb8e", urn: "urn:x", id: "g/1" };
    expect(forProvider({ token: makeSecret("t"), group: ref, gone: undefined, list: [1, undefined] })).toEqual({
      token: "t",
      group: "g/1",
      list: [1],
    });
  });
});

describe("display", () => {
  test("never prints a secret, and shows unknowns as the CLI does", () => {
    expect(displayValue(makeSecret("hunter2"))).toBe("[secret]");
    expect(displayValue({ nested: makeSecret("hunter2") })).toBe("[secret]");
    expect(displayValue(UNKNOWN)).toBe("output<unknown>");
    expect(secretKeys({ a: 1, b: { c: makeSecret(2) } })).toEqual(["b"]);
  });
});

describe("secret outputs", () => {
  test("an output is secret when its input was or when the resource names it; it is wrapped once", () => {
    const reg = { inputs: { name: "a", oidc: { clientSecret: makeSecret("s3") } }, additionalSecretOutputs: ["code"] };
    expect(secretOutputs(reg)).toEqual(["oidc", "code"]);
    expect(secretOutputs({ inputs: { name: "a" } })).toEqual([]);
    const outputs = { name: "a", code: "c0de", oidc: { issuer: "https://x", clientSecret: "s3" } };
    expect(withSecrets(outputs, secretOutputs(reg))).toEqual({
      name: "a",
      code: makeSecret("c0de"),
      oidc: makeSecret({ issuer: "https://x", clientSecret: "s3" }),
    });
    expect(withSecrets({ code: makeSecret("c0de") }, ["code"])).toEqual({ code: makeSecret("c0de") });
    expect(withSecrets(outputs, ["absent"])).toBe(outputs);
  });
});
