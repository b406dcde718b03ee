/**
 * The program model as another source of records would build it (a Terraform state: names from
 * its addresses, the address said above each resource, its own header), and every writer putting
 * the same resources, references, secrets and comments in its language.
 */
import { packageSchema } from "../native/schema";
import groupProvider = require("../resources/iam/group/provider");
import idpProvider = require("../resources/iam/identityProvider/provider");
import { declareOrganization } from "./declare";
import { NamedValue, ResourceOutput, SecretConfig, secretKeysOf } from "./model";
import { writeTypeScript } from "./program";
import { writePython } from "./pythonProgram";
import type { Subtree } from "./read";
import { writeYaml } from "./yamlProgram";

const tree: Subtree = {
  under: "root",
  kinds: [
    {
      exported: { domain: "iam", kind: groupProvider.kind },
      records: [
        { uid: "root/a", name: "payments" },
        { uid: "root/a/b", name: "ledger" },
      ],
    },
    {
      exported: { domain: "iam", kind: idpProvider.kind },
      records: [
        { uid: "root/a/p", name: "sso", defaultRole: "viewer-uid", oidc: { issuer: "https://x", clientId: "c" } },
      ],
    },
  ],
};

const addresses: Record<string, string> = {
  "root/a": 'module.teams.chainguard_group.team["payments"]',
  "root/a/b": "chainguard_group.ledger",
  "root/a/p": "chainguard_identity_provider.sso",
};

describe("a program model from another source of records", () => {
  const model = declareOrganization(tree, {
    manageDeletes: false,
    roles: new Map([["viewer-uid", "viewer"]]),
    header: ["Migrated from terraform.tfstate."],
    describe: (_kind, record) => ({
      name: addresses[record.uid].replace(/^module\./, "").replace(/\.chainguard_\w+\./, " "),
      comments: [addresses[record.uid]],
    }),
  });

  test("names come from the source, made safe and unique; comments and the header are its own; references and secrets as always", () => {
    expect(model.header).toEqual(["Migrated from terraform.tfstate."]);
    expect(model.resources.map((r) => [r.name, r.comments])).toEqual([
      ["teamsTeamPayments", ['module.teams.chainguard_group.team["payments"]']],
      ["chainguardGroupLedger", ["chainguard_group.ledger"]],
      ["chainguardIdentityProviderSso", ["chainguard_identity_provider.sso"]],
    ]);
    const [, ledger, sso] = model.resources;
    expect(ledger.values.parentUid).toEqual(new ResourceOutput("teamsTeamPayments", "uid"));
    expect(sso.values.defaultRole).toEqual(new NamedValue("viewerRoleUid"));
    expect((sso.values.oidc as Record<string, unknown>).clientSecret).toEqual(
      new SecretConfig("chainguardIdentityProviderSsoOidcClientSecret"),
    );
    expect(secretKeysOf(model)).toEqual(["chainguardIdentityProviderSsoOidcClientSecret"]);
  });

  test("each writer says each resource's comment right above it", () => {
    const typescript = writeTypeScript(model, { js: false });
    expect(typescript).toContain(
      '\n// module.teams.chainguard_group.team["payments"]\nconst teamsTeamPayments = new platform.iam.Group(',
    );
    expect(typescript.startsWith("// Migrated from terraform.tfstate.\n")).toBe(true);
    const yaml = writeYaml(model, { name: "p", description: "d", plugin: [] });
    expect(yaml).toContain('\n  # module.teams.chainguard_group.team["payments"]\n  teamsTeamPayments:\n');
    expect(yaml).toContain("\n  # chainguard_group.ledger\n  chainguardGroupLedger:\n");
    const python = writePython(model, packageSchema("0.1.0"));
    expect(python).toContain(
      '\n# module.teams.chainguard_group.team["payments"]\nteams_team_payments = platform.iam.Group(\n    "teamsTeamPayments",',
    );
    expect(python).toContain('client_secret=config.require_secret("chainguardIdentityProviderSsoOidcClientSecret"),');
  });
});
