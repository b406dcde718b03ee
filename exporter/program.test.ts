/**
 * The program an export writes, from records given directly: secrets never written, names
 * readable and unique, references as Outputs, retainOnDelete unless asked otherwise.
 */
import { completeKind, Kind } from "../provider/kind";
import idpProvider = require("../resources/iam/idpProvider");
import { generateProgram, identifier } from "./program";
import type { Subtree } from "./read";

const group: Kind = completeKind({
  typeName: "Group",
  noun: "group",
  domain: "iam",
  collection: "groups",
  message: "iam.Group",
  inputs: (f) => f.z.strictObject({}),
  parentField: "parentUid",
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
  inputs: (f) => f.z.strictObject({}),
  parentField: "parentUid",
  writable: ["name", "password"],
  replaceOn: ["parentUid"],
  secrets: ["password"],
  alreadyExistsHint: "",
});

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
