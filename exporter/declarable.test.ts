/**
 * What an export declares of a record and what it refuses to: the provider's own check on the
 * inputs the program would write, and the values a Pulumi program cannot carry unchanged; each
 * refusal's premise is tested here too, so a Pulumi that starts carrying them shows up.
 */
import * as struct from "google-protobuf/google/protobuf/struct_pb";
import { serializeProperty } from "@pulumi/pulumi/runtime/rpc";
import identityProvider = require("../resources/iam/identity/provider");
import groupProvider = require("../resources/iam/group/provider");
import overlayProvider = require("../resources/registry/overlay/provider");
import overlayBindingProvider = require("../resources/registry/overlayBinding/provider");
import { declaredInputs, refusalReasons, sortOut } from "./declarable";
import type { Subtree } from "./read";

const identity = identityProvider.kind;
const claimMatch = { issuer: "https://token.example.com", subject: "deploy" };

describe("records the provider would refuse are refused at export time, with the provider's reason", () => {
  test('an identity named "", a description of 5,000 characters, 65 claims', () => {
    expect(refusalReasons(identity, { uid: "root/i1", name: "", claimMatch })).toEqual(["name: must not be empty"]);
    expect(refusalReasons(identity, { uid: "root/i2", name: "x", description: "d".repeat(5000), claimMatch })).toEqual([
      "description: must be at most 4096 characters",
    ]);
    const claims = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`claim${i}`, "v"]));
    expect(refusalReasons(identity, { uid: "root/i3", name: "x", claimMatch: { ...claimMatch, claims } })).toEqual([
      "claimMatch.claims: must have at most 64 entries (it has 65)",
    ]);
    expect(refusalReasons(identity, { uid: "root/i4", name: "x", description: "", claimMatch })).toEqual([]);
  });

  test("a field the kind requires is declared even when empty: an overlay's empty config is exported, not refused", () => {
    const overlay = overlayProvider.kind;
    const record = { uid: "root/o", name: "base", config: {} };
    expect(declaredInputs(overlay, record)).toEqual({ parentUid: "root", name: "base", config: {} });
    expect(refusalReasons(overlay, record)).toEqual([]);
    // A required list the service holds empty is declared so, and refused with the provider's reason.
    const binding = overlayBindingProvider.kind;
    const empty = { uid: "root/r/b", repo: "root/r", overlay: { uid: "root/o" }, tags: [] };
    expect(refusalReasons(binding, empty)).toEqual(["tags: must name at least one tag"]);
  });

  test("a __proto__ key or a lone surrogate anywhere: refused, naming where", () => {
    const claims = JSON.parse('{"__proto__": "x", "team": "a"}') as Record<string, string>;
    expect(refusalReasons(identity, { uid: "root/i", name: "x", claimMatch: { ...claimMatch, claims } })).toEqual([
      'claimMatch.claims: has the key "__proto__", which the Pulumi SDK drops from every input (so `up` would delete that entry)',
    ]);
    expect(refusalReasons(groupProvider.kind, { uid: "root/g", name: "g", description: "half \ud800 a pair" })).toEqual(
      ["description: holds text that is not well-formed Unicode (a lone surrogate), which Pulumi cannot carry"],
    );
    expect(
      refusalReasons(groupProvider.kind, { uid: "root/g", name: "g", description: "a whole pair \ud83d\ude00" }),
    ).toEqual([]);
  });

  test("sortOut keeps what can be declared and names every other record with all its reasons", () => {
    const tree: Subtree = {
      under: "root",
      kinds: [
        {
          exported: { domain: "iam", kind: identity },
          records: [
            { uid: "root/ok", name: "ok", claimMatch },
            { uid: "root/bad", name: "", description: "d".repeat(4097), claimMatch },
          ],
        },
      ],
    };
    const { declarable, leftOut } = sortOut(tree);
    expect(declarable.kinds[0].records.map((r) => r.uid)).toEqual(["root/ok"]);
    expect(leftOut).toEqual([
      {
        uid: "root/bad",
        noun: "identity",
        reasons: ["name: must not be empty", "description: must be at most 4096 characters"],
      },
    ]);
  });
});

describe("the premises of those refusals: what a Pulumi program cannot carry", () => {
  test("the Pulumi SDK drops a __proto__ key from an input, however the program writes it", async () => {
    const labels = { ["__proto__"]: "x", team: "a" };
    expect(Object.keys(labels)).toEqual(["__proto__", "team"]);
    const sent = (await serializeProperty("labels", labels, new Set())) as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(["team"]);
  });

  test("the engine's wire format (protobuf, UTF-8) does not carry a lone surrogate", () => {
    const sent = struct.Struct.fromJavaScript({ description: "half \ud800 a pair" });
    const received = struct.Struct.deserializeBinary(sent.serializeBinary()).toJavaScript();
    expect(received.description).not.toBe("half \ud800 a pair");
  });
});
