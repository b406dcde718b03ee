/**
 * The program an export writes, from records given directly: secrets never written, names
 * readable and unique, references as Outputs, retainOnDelete unless asked otherwise.
 */
import * as vm from "node:vm";
import * as ts from "typescript";
import { completeKind, Kind } from "../core/model/kind";
import type { Props } from "../core/common/values";
import subscriptionProvider = require("../resources/events/subscription/provider");
import groupInviteProvider = require("../resources/iam/groupInvite/provider");
import idpProvider = require("../resources/iam/identityProvider/provider");
import { identifier, isSafeIdentifier } from "./identifiers";
import { declareOrganization } from "./declare";
import type { LeftOut } from "./declarable";
import { countsOf, secretKeysOf } from "./model";
import { property, writeTypeScript } from "./program";
import { HOSTILE_NAMES } from "../tests/support/hostileNames";
import type { Subtree } from "./read";

const group: Kind = completeKind({
  typeName: "Group",
  noun: "group",
  domain: "iam",
  collection: "groups",
  message: "iam.Group",
  inputs: (f) =>
    f.z.strictObject({ parentUid: f.uid("a group"), name: f.name(), description: f.optionalText().optional() }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description"],
  replaceOn: ["parentUid"],
  alreadyExistsHint: "",
});

const vault: Kind = completeKind({
  typeName: "Vault",
  noun: "vault",
  domain: "secrets",
  collection: "vaults",
  message: "secrets.Vault",
  inputs: (f) => f.z.strictObject({ parentUid: f.uid("a group"), name: f.name(), password: f.text().optional() }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "password"],
  replaceOn: ["parentUid"],
  secrets: ["password"],
  alreadyExistsHint: "",
});

const labelledGroup: Kind = completeKind({
  typeName: "LabelledGroup",
  noun: "labelled group",
  domain: "iam",
  collection: "labelledGroups",
  message: "iam.LabelledGroup",
  inputs: (f) => f.z.strictObject({ parentUid: f.uid("a group"), name: f.name(), labels: f.stringMap().optional() }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "labels"],
  replaceOn: ["parentUid"],
  alreadyExistsHint: "",
});

/** The TypeScript (or JavaScript) program an export writes for these records. */
function generateProgram(
  subtree: Subtree,
  options: { js: boolean; manageDeletes: boolean; roles: Map<string, string>; leftOut?: LeftOut[] },
) {
  const model = declareOrganization(subtree, options);
  return { text: writeTypeScript(model, options), secretKeys: secretKeysOf(model), counts: countsOf(model) };
}

const tree: Subtree = {
  under: "root",
  kinds: [
    {
      exported: { domain: "iam", kind: group },
      records: [
        { uid: "root/a", name: "platform", description: "" },
        { uid: "root/a/b", name: "ops" },
        { uid: "root/c", name: "ops" },
        { uid: "root/d", name: "default" },
      ],
    },
    { exported: { domain: "secrets", kind: vault }, records: [{ uid: "root/a/v", name: "keys", password: "hunter2" }] },
  ],
};

describe("the exported program", () => {
  test("never writes a secret: it reads each from a config key it names", () => {
    const program = generateProgram(tree, { js: false, manageDeletes: false, roles: new Map() });
    expect(program.text).not.toContain("hunter2");
    expect(program.secretKeys).toEqual(["keysPassword"]);
    expect(program.text).toContain(`password: config.requireSecret("keysPassword"),`);
    expect(program.text).toContain(`import * as pulumi from "@pulumi/pulumi";`);
    expect(program.counts).toEqual({ "iam.Group": 4, "secrets.Vault": 1 });
  });

  test("names are the records' own, made unique with their type, then their parent; references are Outputs", () => {
    const { text } = generateProgram(tree, { js: false, manageDeletes: false, roles: new Map() });
    // "platform" and "default" would clash with the import and a keyword; the second "ops" with the first.
    expect(text).toContain(`const platformGroup = new platform.iam.Group(\n  "platformGroup",`);
    expect(text).toContain(`const defaultGroup = new platform.iam.Group(`);
    expect(text).toContain(`const ops = new platform.iam.Group(`);
    expect(text).toContain(`const opsGroup = new platform.iam.Group(`);
    expect(text).toMatch(/parentUid: platformGroup\.uid,\n\s+name: "ops"/);
    expect(text).toMatch(/parentUid: underUid,\n\s+name: "ops"/);
    // An empty description is not set, as a program would write it.
    expect(text).not.toContain(`description: ""`);
    // What a record refers to is declared before it.
    expect(text.indexOf("const platformGroup =")).toBeLessThan(text.indexOf("const keys ="));
  });

  test("retainOnDelete unless --manage-deletes; --js writes CommonJS", () => {
    const kept = generateProgram(tree, { js: false, manageDeletes: false, roles: new Map() });
    expect(kept.text).toContain("const opts = { retainOnDelete: true };");
    const managed = generateProgram(tree, { js: true, manageDeletes: true, roles: new Map() });
    expect(managed.text).toContain("const opts = {};");
    expect(managed.text).toContain(`const platform = require("platform-pulumi");`);
    expect(managed.text).not.toContain("import ");
  });

  test("identifiers from any text", () => {
    expect(identifier("github-deploy")).toBe("githubDeploy");
    expect(identifier("team 2.ops")).toBe("team2Ops");
    expect(identifier("42")).toBe("n42");
    expect(identifier("--")).toBe("record");
  });

  test("an identity provider's client secret, never answered, is read from a secret config key its adoption writes", () => {
    const idps: Subtree = {
      under: "root",
      kinds: [
        {
          exported: { domain: "iam", kind: idpProvider.kind },
          records: [
            {
              uid: "root/i1",
              name: "sso",
              defaultRole: "viewer-uid",
              oidc: {
                issuer: "https://login.example.com",
                clientId: "platform",
                correlationRule: "CORRELATION_RULE_UNSPECIFIED",
              },
              scim: { enabled: false },
            },
            { uid: "root/i2", name: "no-oidc", defaultRole: "viewer-uid" },
          ],
        },
      ],
    };
    const program = generateProgram(idps, {
      js: false,
      manageDeletes: false,
      roles: new Map([["viewer-uid", "viewer"]]),
    });
    expect(program.secretKeys).toEqual(["ssoOidcClientSecret"]);
    expect(program.text).toContain("const config = new pulumi.Config();");
    expect(program.text).toMatch(
      /oidc: \{\n\s+issuer: "https:\/\/login\.example\.com",\n\s+clientId: "platform",\n\s+clientSecret: config\.requireSecret\("ssoOidcClientSecret"\),\n\s+\},/,
    );
    expect(program.text).toContain("defaultRole: viewerRoleUid,");
    expect(program.text).not.toContain("scim");
    expect(program.text).not.toContain("CORRELATION_RULE_UNSPECIFIED");
  });
});

/**
 * Runs a generated program as Node runs a CommonJS module (TypeScript compiled as its tsconfig
 * says), with stand-ins for its two imports: what it declares, in order, with the arguments.
 */
function runAsCommonJs(text: string, typescript: boolean): Array<{ type: string; name: string; args: Props }> {
  const js = typescript
    ? ts.transpileModule(text, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
      }).outputText
    : text;
  const declared: Array<{ type: string; name: string; args: Props }> = [];
  const namespace = (domain: string) =>
    new Proxy(
      {},
      {
        get: (_, typeName) =>
          class {
            readonly uid: string;
            constructor(name: string, args: Props) {
              declared.push({ type: `${domain}.${String(typeName)}`, name, args });
              this.uid = `uid of ${name}`;
            }
          },
      },
    );
  const platform = new Proxy({}, { get: (_, domain) => (domain === "__esModule" ? true : namespace(String(domain))) });
  const pulumi = {
    Config: class {
      requireSecret = (key: string) => `secret ${key}`;
    },
  };
  const modules: Record<string, unknown> = { "platform-pulumi": platform, "@pulumi/pulumi": pulumi };
  const module = { exports: {} };
  const wrapper = ["exports", "require", "module", "__filename", "__dirname"];
  const run = vm.compileFunction(js, wrapper, { filename: "index.js" }) as (...args: unknown[]) => void;
  run(module.exports, (id: string) => modules[id], module, "/program/index.js", "/program");
  return declared;
}

describe("the exported program, whatever the records hold", () => {
  const hostile: Subtree = {
    under: "root",
    kinds: [
      {
        exported: { domain: "iam", kind: group },
        records: HOSTILE_NAMES.map((name, i) => ({ uid: `root/g${i}`, name })),
      },
      {
        exported: { domain: "secrets", kind: vault },
        records: HOSTILE_NAMES.map((name, i) => ({ uid: `root/g${i}/v`, name, password: "hunter2" })),
      },
    ],
  };
  const roles = new Map([["viewer-uid", "viewer"]]);

  test.each([
    ["TypeScript", false],
    ["JavaScript", true],
  ])(
    "records named like globals, module bindings, reserved words or the program's own names: %s that runs",
    (_, js) => {
      const program = generateProgram(hostile, { js, manageDeletes: false, roles });
      const variables = [...program.text.matchAll(/^const (\S+) =/gm)].map((m) => m[1]);
      expect(new Set(variables).size).toBe(variables.length);
      for (const variable of variables.filter((v) => !["config", "underUid", "opts"].includes(v)))
        expect([variable, isSafeIdentifier(variable)]).toEqual([variable, true]);
      const declared = runAsCommonJs(program.text, !js);
      expect(declared.map((d) => d.args.name).sort()).toEqual([...HOSTILE_NAMES, ...HOSTILE_NAMES].sort());
      // Each vault's parent is its group's Output, whatever the group is called.
      for (const vaultDeclared of declared.filter((d) => d.type === "secrets.Vault")) {
        const parent = declared.find((d) => `uid of ${d.name}` === vaultDeclared.args.parentUid)!;
        expect(`${parent.args.name as string}/vault`).toBe(`${vaultDeclared.args.name as string}/vault`);
      }
    },
  );

  test("only the fields a kind describes as references become Outputs: a description equal to a uid stays text", () => {
    const crossed: Subtree = {
      under: "root",
      kinds: [
        {
          exported: { domain: "iam", kind: group },
          records: [
            { uid: "root/a", name: "a", description: "root/c" },
            { uid: "root/b", name: "b", description: "viewer-uid" },
            { uid: "root/c", name: "c", description: "root/a" },
            { uid: "root/c/d", name: "d", description: "root" },
          ],
        },
      ],
    };
    const program = generateProgram(crossed, { js: false, manageDeletes: false, roles: new Map() });
    expect(program.text).toContain(`description: "root/c",`);
    expect(program.text).toContain(`description: "root/a",`);
    expect(program.text).toContain(`description: "viewer-uid",`);
    expect(program.text).toContain(`description: "root",`);
    expect(program.text).toMatch(/parentUid: c\.uid,\n\s+name: "d",/);
    expect(runAsCommonJs(program.text, true).map((d) => [d.args.name, d.args.description])).toEqual([
      ["a", "root/c"],
      ["b", "viewer-uid"],
      ["c", "root/a"],
      ["d", "root"],
    ]);
  });

  test("a map holds any key: __proto__ as a key of its own, quotes, newlines and line separators as they are", () => {
    const keys = ["__proto__", "constructor", "a b", 'quote"d', "new\nline", "sep\u2028arator", "1", ""];
    const labels = Object.fromEntries(keys.map((key, i) => [key, `value ${i}\u2029`]));
    const labelled: Subtree = {
      under: "root",
      kinds: [{ exported: { domain: "iam", kind: labelledGroup }, records: [{ uid: "root/a", name: "a", labels }] }],
    };
    const program = generateProgram(labelled, { js: false, manageDeletes: false, roles: new Map() });
    expect(program.text).toContain(`["__proto__"]: "value 0\\u2029",`);
    const [declared] = runAsCommonJs(program.text, true);
    expect(Object.getOwnPropertyNames(declared.args.labels)).toContain("__proto__");
    expect(Object.entries(declared.args.labels as Props).sort()).toEqual(Object.entries(labels).sort());
    expect(property("__proto__")).toBe(`["__proto__"]`);
  });

  test("roles outside the tree are named by uid, never looked up by a name other roles may share", () => {
    const bound: Subtree = {
      under: "root",
      kinds: [
        {
          exported: { domain: "iam", kind: idpProvider.kind },
          records: [
            { uid: "root/i1", name: "sso", defaultRole: "builtin-viewer" },
            { uid: "root/i2", name: "sso2", defaultRole: "custom-viewer" },
          ],
        },
      ],
    };
    const { text } = generateProgram(bound, {
      js: false,
      manageDeletes: false,
      roles: new Map([
        ["builtin-viewer", "viewer"],
        ["custom-viewer", "viewer"],
      ]),
    });
    expect(text).not.toContain("getRole");
    expect(text).toContain(`const viewerRoleUid = "builtin-viewer"; // the role "viewer", not declared here`);
    expect(text).toContain(`const viewerRoleUid2 = "custom-viewer"; // the role "viewer", not declared here`);
    expect(text).toContain("defaultRole: viewerRoleUid,");
    expect(text).toContain("defaultRole: viewerRoleUid2,");
  });

  test("twins no key tells apart (two identical invites, two identical subscriptions) each adopt their own record by uid", () => {
    const twins: Subtree = {
      under: "root",
      kinds: [
        {
          exported: { domain: "iam", kind: groupInviteProvider.kind },
          records: [
            { uid: "root/i1", roleUid: "viewer-uid", ttl: "86400s" },
            { uid: "root/i2", roleUid: "viewer-uid", ttl: "86400s" },
          ],
        },
        {
          exported: { domain: "events", kind: subscriptionProvider.kind },
          records: [
            { uid: "root/s1", sink: "https://hooks.example.com/a" },
            { uid: "root/s2", sink: "https://hooks.example.com/a" },
          ],
        },
      ],
    };
    const { text } = generateProgram(twins, {
      js: false,
      manageDeletes: false,
      roles: new Map([["viewer-uid", "viewer"]]),
    });
    for (const uid of ["root/i1", "root/i2", "root/s1", "root/s2"]) expect(text).toContain(`adoptUid: "${uid}",`);
    expect(text).not.toContain("adopt: true");
    const declared = runAsCommonJs(text, true);
    expect(declared.map((d) => [d.type, d.args.adoptUid])).toEqual([
      ["iam.GroupInvite", "root/i1"],
      ["iam.GroupInvite", "root/i2"],
      ["events.Subscription", "root/s1"],
      ["events.Subscription", "root/s2"],
    ]);
    expect(new Set(declared.map((d) => d.name)).size).toBe(4);
  });

  test("records left out are named in a comment that ends where it should, whatever the reasons hold", () => {
    const { text } = generateProgram(tree, {
      js: false,
      manageDeletes: false,
      roles: new Map(),
      leftOut: [{ uid: "root/x", noun: "group", reasons: ["description: no\nconst boom = 1;", "name: \u2028x"] }],
    });
    expect(text).toContain(`//  group root/x: description: no\\u000aconst boom = 1;; name: \\u2028x`);
    expect(text).not.toMatch(/^const boom/m);
    expect(runAsCommonJs(text, true)).toHaveLength(5);
  });
});
