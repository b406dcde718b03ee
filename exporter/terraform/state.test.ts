/**
 * Both forms of a state read into the same instances (tests/support/terraformState.ts writes them
 * as Terraform does): modules with keys, count and for_each keys, an aliased provider configured
 * in a module, data sources, tainted and deposed objects; sensitive values dropped as they are
 * read, by the state's own marks.
 */
import { showJson, TfResource, tfstate } from "../../tests/support/terraformState";
import { providerOfConfiguration, readState } from "./state";

const RESOURCES: TfResource[] = [
  { mode: "data", type: "chainguard_group", name: "root", instances: [{ attributes: { id: "r" } }] },
  {
    module: 'module.region["eu"].module.teams',
    type: "chainguard_group",
    name: "team",
    alias: "eu",
    instances: [
      { key: 'pay"ments', attributes: { id: "r/a", name: "a" } },
      { key: "ledger", attributes: { id: "r/b", name: "b" }, tainted: true },
    ],
  },
  {
    type: "chainguard_identity_provider",
    name: "sso",
    instances: [
      {
        attributes: { id: "r/i", oidc: { issuer: "https://x", client_secret: "s3cret" } },
        sensitive: [["oidc", "client_secret"]],
      },
      { attributes: { id: "r/old" }, deposed: "00aa11bb" },
    ],
  },
  {
    type: "chainguard_group_invite",
    name: "i",
    instances: [{ key: 3, attributes: { id: "r/v", code: "c0de" }, sensitive: [["code"]] }],
  },
  {
    type: "random_pet",
    name: "p",
    provider: "registry.terraform.io/hashicorp/random",
    instances: [{ attributes: { id: "pet" } }],
  },
];

const summary = (text: string) =>
  readState(text, "f")
    .instances.map((i) => ({ ...i }))
    .sort((a, b) => (a.address + (a.deposed ?? "") < b.address + (b.deposed ?? "") ? -1 : 1));

test("a terraform.tfstate and its terraform show -json read into the same instances", () => {
  const fromState = summary(tfstate(RESOURCES));
  expect(summary(showJson(RESOURCES))).toEqual(fromState);
  expect(fromState.map((i) => [i.address, i.module, i.mode, i.key, i.provider, i.tainted, i.deposed])).toEqual([
    [
      "chainguard_group_invite.i[3]",
      "",
      "managed",
      3,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    [
      "chainguard_identity_provider.sso",
      "",
      "managed",
      undefined,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    [
      "chainguard_identity_provider.sso",
      "",
      "managed",
      undefined,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      "00aa11bb",
    ],
    [
      "data.chainguard_group.root",
      "",
      "data",
      undefined,
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    [
      'module.region["eu"].module.teams.chainguard_group.team["ledger"]',
      'module.region["eu"].module.teams',
      "managed",
      "ledger",
      "registry.terraform.io/chainguard-dev/chainguard",
      true,
      undefined,
    ],
    [
      'module.region["eu"].module.teams.chainguard_group.team["pay\\"ments"]',
      'module.region["eu"].module.teams',
      "managed",
      'pay"ments',
      "registry.terraform.io/chainguard-dev/chainguard",
      false,
      undefined,
    ],
    ["random_pet.p", "", "managed", undefined, "registry.terraform.io/hashicorp/random", false, undefined],
  ]);
});

test("sensitive values are gone from what is read, in both forms", () => {
  for (const text of [tfstate(RESOURCES), showJson(RESOURCES)]) {
    const instances = readState(text, "f").instances;
    const sso = instances.find((i) => i.address === "chainguard_identity_provider.sso" && !i.deposed)!;
    expect(sso.attributes).toEqual({ id: "r/i", oidc: { issuer: "https://x" } });
    expect(instances.find((i) => i.type === "chainguard_group_invite")!.attributes).toEqual({ id: "r/v" });
    expect(JSON.stringify(instances)).not.toMatch(/s3cret|c0de/);
  }
});

test("a resource's provider configuration names its registry address, whatever its module and alias", () => {
  const vendor = "registry.terraform.io/chainguard-dev/chainguard";
  expect(providerOfConfiguration(`provider["${vendor}"]`)).toBe(vendor);
  expect(providerOfConfiguration(`provider["${vendor}"].eu`)).toBe(vendor);
  expect(
    providerOfConfiguration(`module.a["k"].module.b.provider["Registry.Terraform.io/Chainguard-Dev/Chainguard"].x`),
  ).toBe(vendor);
  expect(providerOfConfiguration("provider.chainguard")).toBe("registry.terraform.io/-/chainguard");
  expect(providerOfConfiguration("module.m.provider.aws.west")).toBe("registry.terraform.io/-/aws");
});

test("an empty state in either form has no instances", () => {
  expect(readState(JSON.stringify({ format_version: "1.0" }), "f").instances).toEqual([]);
  expect(readState(tfstate([]), "f").instances).toEqual([]);
});
