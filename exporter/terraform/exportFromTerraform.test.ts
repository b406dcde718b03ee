/**
 * `export --from-terraform` on the emulator, from states written as Terraform writes them
 * (tests/support/terraformState.ts) for an organization a configuration of the vendor's provider
 * manages (tests/support/terraformOrganization.ts): every type, nested blocks, count and for_each,
 * modules, an aliased provider, data sources and another provider's resource.
 *
 * Both forms of a state give byte-identical programs (every language) and import files; names and
 * comments come from the addresses; references stay references; the records are read as they are
 * now (a description edited since Terraform's last refresh is the organization's, and noted); the
 * client secret and the invite's code the state holds appear in no file and no output; and every
 * refusal names its instances before anything is written.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { createClient } from "../../core/transport/client";
import {
  buildMigratedOrganization,
  INVITE_CODE,
  MigratedOrganization,
  SSO_SECRET,
} from "../../tests/support/terraformOrganization";
import { addressOf, apiOf, showJson, TfResource, tfstate } from "../../tests/support/terraformState";
import { repoRoot } from "../../tools/host/stage";
import { runProcess } from "../../tools/runProcess";
import type { Language } from "../project";
import { exportFromTerraform, TerraformExportOptions, TerraformRefusedError } from "./index";
import { terraformReport } from "./report";
import { StateFormatError } from "./state";
import { MANAGED_TYPES, UNMANAGED_TYPES } from "../../resources/terraform/vendorProvider";

jest.setTimeout(120_000);

let emu: RunningEmulator;
let scratch: string;
let org: MigratedOrganization;
let client: ReturnType<typeof createClient>;
let counter = 0;

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-from-terraform-"));
  client = createClient({ apiUrl: emu.url, authUrl: emu.url, apiVersion: "v2beta1", token: emu.token });
  org = await buildMigratedOrganization(emu, "platform");
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Writes the resources as a state of one form, returns its path. */
function stateFile(resources: readonly TfResource[], form: "tfstate" | "json"): string {
  const file = path.join(scratch, `${++counter}-${form === "tfstate" ? "terraform.tfstate" : "show.json"}`);
  fs.writeFileSync(file, form === "tfstate" ? tfstate(resources) : showJson(resources));
  return file;
}

async function migrate(files: string[], options: Partial<TerraformExportOptions> = {}) {
  const out = path.join(scratch, `out-${++counter}`);
  const importFile = path.join(out, "import.json");
  const result = await exportFromTerraform({ states: files, out, importFile, client, ...options });
  const read = (file: string) => fs.readFileSync(path.join(out, file), "utf8");
  return { out, result, read, files: Object.fromEntries(fs.readdirSync(out).map((f) => [f, read(f)])) };
}

const writes = () => emu.requests().filter((r) => r.method !== "GET");

describe("both forms of a state", () => {
  test.each<Language>(["typescript", "javascript", "yaml", "python"])(
    "give byte-identical %s programs and import files",
    async (language) => {
      const options = { language, partial: true };
      const fromState = await migrate([stateFile(org.resources, "tfstate")], options);
      const fromJson = await migrate([stateFile(org.resources, "json")], options);
      expect(Object.keys(fromState.files).length).toBeGreaterThanOrEqual(2);
      expect(fromJson.files).toEqual(fromState.files);
      expect(terraformReport(fromJson.result)).toEqual(terraformReport(fromState.result));
    },
  );
});

describe("a TypeScript migration of every managed type", () => {
  let migrated: Awaited<ReturnType<typeof migrate>>;
  beforeAll(async () => {
    emu.clearRequests();
    migrated = await migrate([stateFile(org.resources, "tfstate")], { importFile: undefined });
  });

  test("declares exactly the vendor's managed instances, read from the API with no write", () => {
    expect(writes()).toEqual([]);
    expect(migrated.result.counts).toEqual({
      "events.Subscription": 1,
      "iam.AccountAssociation": 1,
      "iam.GroupInvite": 1,
      "iam.Group": 3,
      "iam.Identity": 5,
      "iam.IdentityProvider": 1,
      "iam.RoleBinding": 3,
      "iam.Role": 1,
      "registry.Repo": 1,
      "registry.Tag": 1,
    });
    expect(migrated.result.skipped.map((s) => [s.address, s.why])).toEqual([
      ["data.chainguard_group.root", "a data source: Terraform reads it, nothing manages it"],
      ["data.chainguard_role.viewer", "a data source: Terraform reads it, nothing manages it"],
      ["random_pet.suffix", "a resource of another provider (registry.terraform.io/hashicorp/random)"],
    ]);
    expect(migrated.result.passed).toEqual([]);
    // Each state holds what its record does, in the provider's spelling: nothing to say.
    expect(migrated.result.notes).toEqual([]);
  });

  test("names each resource after its address, the address above it; references stay references", () => {
    const program = migrated.read("index.ts");
    const declaration = (address: string, name: string, type: string) =>
      expect(program).toContain(`// ${address}\nconst ${name} = new platform.${type}(\n  "${name}",\n`);
    // `platform` is the program's import: the name taken gets the type.
    declaration("chainguard_group.platform", "platformGroup", "iam.Group");
    declaration('module.teams.chainguard_group.team["payments"]', "teamsTeamPayments", "iam.Group");
    declaration('module.teams.chainguard_group.team["ledger"]', "teamsTeamLedger", "iam.Group");
    declaration("chainguard_identity.ci[0]", "ci0", "iam.Identity");
    declaration("chainguard_identity.ci[1]", "ci1", "iam.Identity");
    declaration('module.teams.chainguard_identity.deployer["ledger"]', "teamsDeployerLedger", "iam.Identity");
    declaration("chainguard_identity.static_ci", "staticCi", "iam.Identity");
    declaration("chainguard_role.publisher", "publisher", "iam.Role");
    declaration("chainguard_rolebinding.ci_viewer[0]", "ciViewer0", "iam.RoleBinding");
    declaration(
      'module.teams.chainguard_rolebinding.deployer["ledger"]',
      "teamsDeployerLedgerRoleBinding",
      "iam.RoleBinding",
    );
    declaration(
      'module.region["eu"].module.accounts.chainguard_account_associations.this',
      "regionEuAccountsThis",
      "iam.AccountAssociation",
    );
    declaration("chainguard_image_tag.latest", "latest", "registry.Tag");
    // The root organization, which the state only reads, is the named group the program builds under.
    expect(program).toContain(`const underUid = "${org.root}";`);
    expect(program).toMatch(/const platformGroup = [^;]*\n {4}parentUid: underUid,/s);
    expect(program).toMatch(/const teamsTeamPayments = [^;]*parentUid: platformGroup\.uid,/s);
    expect(program).toMatch(
      /const teamsDeployerLedgerRoleBinding = [^;]*groupUid: teamsTeamLedger\.uid,\n {4}identityUid: teamsDeployerLedger\.uid,\n {4}roleUid: publisher\.uid,/s,
    );
    expect(program).toMatch(/const latest = [^;]*repoUid: app\.uid,/s);
    expect(program).toMatch(/const publisher = [^;]*parentUid: platformGroup\.uid,/s);
  });

  test("declares the API's values: capabilities, the tier, the invite's ttl, static keys, the association's blocks", () => {
    const program = migrated.read("index.ts");
    for (const cap of [
      "CAP_IAM_GROUPS_LIST",
      "CAP_IAM_SCIM_MANAGE",
      "CAP_TENANT_CLUSTERS_LIST",
      "CAP_EVENTS_SUBSCRIPTION_CREATE",
    ])
      expect(program).toContain(`"${cap}"`);
    expect(program).toContain('catalogTier: "CATALOG_TIER_BASE"');
    expect(program).toContain('ttl: "604800s"');
    expect(program).toContain('expirationTime: "2031-01-01T00:00:00Z"');
    expect(program).toMatch(/amazon: \{\n\s+account: "210987654321",/);
    expect(program).toMatch(/installationId: "7654321"/);
  });

  test("reads the client secret from secret config; neither it nor the invite's code is in any file or output", () => {
    const program = migrated.read("index.ts");
    expect(program).toContain('clientSecret: config.requireSecret("ssoOidcClientSecret")');
    const report = terraformReport(migrated.result);
    const everything = [
      ...Object.values(migrated.files),
      ...report.stdout,
      ...report.stderr,
      JSON.stringify(migrated.result),
    ].join("\n");
    expect(everything).not.toContain(SSO_SECRET);
    expect(everything).not.toContain(INVITE_CODE);
    expect(report.stdout[0]).toBe(
      "Set the secret ssoOidcClientSecret (the oidc.client_secret of chainguard_identity_provider.sso: the value " +
        "Terraform applied is in its state): pulumi config set --secret ssoOidcClientSecret <value>",
    );
  });

  test("prints a terraform state rm line for each migrated address, quoted for the shell", () => {
    const { stdout } = terraformReport(migrated.result);
    const lines = stdout.filter((line) => line.startsWith("  terraform state rm "));
    expect(lines).toHaveLength(18);
    expect(lines).toContain("  terraform state rm chainguard_group.platform");
    expect(lines).toContain(`  terraform state rm 'module.teams.chainguard_group.team["payments"]'`);
    expect(lines).toContain("  terraform state rm 'chainguard_identity.ci[0]'");
    expect(lines).not.toContain("  terraform state rm random_pet.suffix");
  });
});

describe("the state against the organization", () => {
  test("a record changed since Terraform's last refresh is declared as it is now, and the difference noted", async () => {
    const api = apiOf(emu);
    const platform = org.uids.get("chainguard_group.platform")!;
    await api.request("PATCH", `/iam/v2beta1/groups/${platform}?updateMask=description`, {
      description: "Edited in the console",
    });
    try {
      const { result, read } = await migrate([stateFile(org.resources, "json")], { importFile: undefined });
      expect(read("index.ts")).toContain('description: "Edited in the console"');
      expect(result.notes).toContainEqual({
        file: expect.stringMatching(/show\.json$/),
        address: "chainguard_group.platform",
        lines: [
          "Terraform's state differs from the organization in description: the organization's values are declared " +
            "(Terraform would have changed them back on its next apply)",
        ],
      });
      expect(read("index.ts")).toContain("// Terraform's state differs from the organization in description");
    } finally {
      await api.request("PATCH", `/iam/v2beta1/groups/${platform}?updateMask=description`, {
        description: "The platform team",
      });
    }
  });

  test("attributes with no counterpart are noted where set: verified_protection, a readme, a capability the API has not", async () => {
    const resources = org.resources.map((resource) => {
      const edit = (changes: Record<string, unknown>) => ({
        ...resource,
        instances: resource.instances.map((i) => ({ ...i, attributes: { ...i.attributes, ...changes } })),
      });
      if (resource.type === "chainguard_group" && resource.name === "platform")
        return edit({ verified_protection: true });
      if (resource.type === "chainguard_image_repo") return edit({ readme: "# App" });
      if (resource.type === "chainguard_role" && resource.mode !== "data")
        return edit({
          capabilities: [
            ...(resource.instances[0].attributes.capabilities as string[]),
            "libraries.remote_registries.list",
          ],
        });
      return resource;
    });
    const { result } = await migrate([stateFile(resources, "tfstate")], { importFile: undefined });
    const notes = Object.fromEntries(result.notes.map((n) => [n.address, n.lines]));
    expect(notes["chainguard_group.platform"]).toEqual([
      expect.stringMatching(/^verified_protection: a guard of the Terraform provider/),
    ]);
    expect(notes["chainguard_image_repo.app"]).toEqual([
      expect.stringMatching(/^readme: a document of its own in this API/),
    ]);
    expect(notes["chainguard_role.publisher"]).toEqual([
      expect.stringMatching(/^Terraform's state differs from the organization in capabilities:/),
      'capabilities: the capability "libraries.remote_registries.list" has no value in this API',
    ]);
  });
});

/** The organization's resources, the instances at the addresses given with some attributes replaced. */
const edited = (edits: Record<string, Record<string, unknown>>): TfResource[] =>
  org.resources.map((resource) => ({
    ...resource,
    instances: resource.instances.map((instance) => {
      const edit = edits[addressOf(resource, instance.key)];
      return edit ? { ...instance, attributes: { ...instance.attributes, ...edit } } : instance;
    }),
  }));

describe("refusals, before anything is written", () => {
  const refusal = async (files: string[], options: Partial<TerraformExportOptions> = {}) => {
    const out = path.join(scratch, `refused-${++counter}`);
    const error = await exportFromTerraform({ states: files, out, client, ...options }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(fs.existsSync(out)).toBe(false);
    return error!;
  };

  test("a tainted instance and a deposed object, even with --partial", async () => {
    const resources = org.resources.map((resource) =>
      resource.type === "chainguard_subscription"
        ? { ...resource, instances: [{ ...resource.instances[0], tainted: true }] }
        : resource.type === "chainguard_image_tag"
          ? { ...resource, instances: [...resource.instances, { ...resource.instances[0], deposed: "1a2b3c4d" }] }
          : resource,
    );
    for (const form of ["tfstate", "json"] as const) {
      const error = await refusal([stateFile(resources, form)], { partial: true });
      expect(error).toBeInstanceOf(TerraformRefusedError);
      expect(error.message).toMatch(/^2 Terraform instances cannot be migrated, so nothing was written:\n/);
      expect(error.message).toContain("  chainguard_subscription.hooks (");
      expect(error.message).toContain("): tainted: Terraform replaces it on its next apply.");
      expect(error.message).toContain("  chainguard_image_tag.latest (");
      expect(error.message).toMatch(/a deposed object \(1a2b3c4d\) that Terraform has not finished replacing/);
    }
  });

  test("types this package cannot manage, unless --partial leaves them out and names them", async () => {
    const resources: TfResource[] = [
      ...org.resources,
      {
        type: "chainguard_image_repo_deployment",
        name: "app",
        instances: [
          { attributes: { id: org.uids.get("chainguard_image_repo.app"), charts: [], ignore_errors: false } },
        ],
      },
      {
        type: "chainguard_apko_build",
        name: "base",
        instances: [{ attributes: { id: "build-1", repo: "r", config: "{}" } }],
      },
      { type: "chainguard_policy", name: "old", instances: [{ attributes: { id: `${org.platform}/0123` } }] },
      { type: "chainguard_sigstore", name: "old", instances: [{ attributes: { id: `${org.platform}/4567` } }] },
    ];
    const file = stateFile(resources, "tfstate");
    const error = await refusal([file]);
    expect(error.message).toContain("4 Terraform instances cannot be migrated");
    for (const address of [
      "chainguard_image_repo_deployment.app",
      "chainguard_apko_build.base",
      "chainguard_policy.old",
      "chainguard_sigstore.old",
    ])
      expect(error.message).toContain(`  ${address} (${file}): `);
    expect(error.message).toContain("Run with --partial");

    const { result, read } = await migrate([file], { partial: true, importFile: undefined });
    expect(result.passed.map((p) => p.address)).toEqual([
      "chainguard_apko_build.base",
      "chainguard_image_repo_deployment.app",
      "chainguard_policy.old",
      "chainguard_sigstore.old",
    ]);
    expect(read("index.ts")).toContain(
      "//  chainguard_image_repo_deployment.app: a repo's Helm chart deployments, which this package does not manage",
    );
    expect(terraformReport(result).stdout.join("\n")).not.toContain("chainguard_apko_build");
  });

  test("a vendor type the table does not list is refused naming it, unless --partial leaves it out", async () => {
    const type = "chainguard_made_up";
    expect(Object.keys(MANAGED_TYPES)).not.toContain(type);
    expect(Object.keys(UNMANAGED_TYPES)).not.toContain(type);
    const resources: TfResource[] = [
      ...org.resources,
      { type, name: "x", instances: [{ attributes: { id: `${org.platform}/89ab` } }] },
    ];
    const file = stateFile(resources, "tfstate");
    emu.clearRequests();
    const error = await refusal([file]);
    expect(error).toBeInstanceOf(TerraformRefusedError);
    expect(error.message).toMatch(/^1 Terraform instance cannot be migrated, so nothing was written:\n/);
    expect(error.message).toContain(
      `  ${type}.x (${file}): a type this package does not know (the vendor's provider v0.4 has no ${type})`,
    );
    // Refused before any request.
    expect(emu.requests()).toEqual([]);

    const { result } = await migrate([file], { partial: true, importFile: undefined });
    expect(result.passed).toEqual([
      {
        file,
        address: `${type}.x`,
        why: `a type this package does not know (the vendor's provider v0.4 has no ${type})`,
      },
    ]);
  });

  test("a group with no parent_id, the root organization, is refused naming it as the table says", async () => {
    const { rootWithout } = MANAGED_TYPES.chainguard_group;
    const resources: TfResource[] = [
      ...org.resources,
      { type: "chainguard_group", name: "root", instances: [{ attributes: { id: org.root, name: "root" } }] },
    ];
    const file = stateFile(resources, "json");
    const error = await refusal([file]);
    expect(error.message).toContain(`  chainguard_group.root (${file}): ${rootWithout!.why}`);
    expect(rootWithout!.why).toMatch(/^a root organization \(no parent_id\)/);
  });

  test("an instance whose record is gone from the organization, unless --partial", async () => {
    const api = apiOf(emu);
    const gone = await api.post(`/events/v2beta1/subscriptions/${org.platform}`, {
      sink: "https://hooks.example.com/gone",
    });
    await api.request("DELETE", `/events/v2beta1/subscriptions/${gone.uid}`);
    const resources: TfResource[] = [
      ...org.resources,
      {
        type: "chainguard_subscription",
        name: "gone",
        instances: [{ attributes: { id: gone.uid, parent_id: org.platform, sink: "https://hooks.example.com/gone" } }],
      },
    ];
    const file = stateFile(resources, "json");
    const error = await refusal([file]);
    expect(error.message).toContain(
      `  chainguard_subscription.gone (${file}): the organization has no subscription ${gone.uid} (deleted since Terraform's last refresh?`,
    );
    const { result } = await migrate([file], { partial: true, importFile: undefined });
    expect(result.passed.map((p) => p.address)).toEqual(["chainguard_subscription.gone"]);
  });

  test("a state of another format names what it reads; a malformed one never echoes its text", async () => {
    const write = (name: string, text: string) => {
      const file = path.join(scratch, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const cases: Array<[string, string, RegExp]> = [
      [
        "v3.tfstate",
        JSON.stringify({ version: 3, modules: [] }),
        /is a Terraform state of format version 3 \(Terraform before 0\.12/,
      ],
      [
        "plan.json",
        JSON.stringify({ format_version: "1.2", planned_values: {} }),
        /is a plan \(terraform show -json PLANFILE\), not a state/,
      ],
      ["stack.json", JSON.stringify({ version: 3, checkpoint: {} }), /is a Pulumi stack's state/],
      ["schemas.json", JSON.stringify({ format_version: "1.0", provider_schemas: {} }), /is provider schemas/],
      ["other.json", JSON.stringify({ resources: [] }), /is no Terraform state/],
      ["broken.tfstate", `{"version": 4, "resources": [{"oidc": {"client_secret": "${SSO_SECRET}"`, /is not JSON/],
    ];
    for (const [name, text, message] of cases) {
      const error = await refusal([write(name, text)]);
      expect(error).toBeInstanceOf(StateFormatError);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(SSO_SECRET);
    }
  });

  test("instances lacking what the provider requires, unless --partial leaves them out: never a note of a difference", async () => {
    const resources = edited({
      'module.teams.chainguard_group.team["payments"]': { name: null },
      "chainguard_rolebinding.ci_viewer[0]": { group: null },
      "chainguard_rolebinding.ci_viewer[1]": { identity: null, role: "" },
      "chainguard_identity.ingester": {
        parent_id: null,
        name: null,
        claim_match: null,
        service_principal: null,
        aws_identity: null,
        static: null,
      },
      "chainguard_subscription.hooks": { sink: null },
      "chainguard_role.publisher": { parent_id: null },
    });
    const lacks = (one: string) =>
      `: it lacks the required attribute ${one}, which the vendor's provider never leaves out: the state was edited`;
    for (const form of ["tfstate", "json"] as const) {
      const file = stateFile(resources, form);
      const error = await refusal([file]);
      expect(error).toBeInstanceOf(TerraformRefusedError);
      expect(error.message).toMatch(/^6 Terraform instances cannot be migrated, so nothing was written:\n/);
      for (const [address, why] of [
        ['module.teams.chainguard_group.team["payments"]', lacks("name")],
        ["chainguard_rolebinding.ci_viewer[0]", lacks("group")],
        ["chainguard_rolebinding.ci_viewer[1]", ": it lacks required attributes: identity; role, which"],
        [
          "chainguard_identity.ingester",
          ": it lacks required attributes: parent_id; name; exactly one of service_principal, aws_identity, " +
            "claim_match, static, which",
        ],
        ["chainguard_subscription.hooks", lacks("sink")],
        ["chainguard_role.publisher", lacks("parent_id")],
      ])
        expect(error.message).toContain(`  ${address} (${file})${why}`);
      expect(error.message).toContain("Run with --partial");
    }

    const { result, read } = await migrate([stateFile(resources, "json")], {
      partial: true,
      language: "yaml",
      importFile: undefined,
    });
    expect(result.passed.map((p) => p.address)).toEqual([
      "chainguard_identity.ingester",
      "chainguard_role.publisher",
      "chainguard_rolebinding.ci_viewer[0]",
      "chainguard_rolebinding.ci_viewer[1]",
      "chainguard_subscription.hooks",
      'module.teams.chainguard_group.team["payments"]',
    ]);
    expect(result.notes).toEqual([]);
    expect(read("Pulumi.yaml")).toContain(" chainguard_subscription.hooks: it lacks the required attribute sink");
    expect(result.forget.flatMap((f) => f.addresses)).not.toContain("chainguard_role.publisher");
  });

  test("an identity or an association with more or fewer of its one-of blocks than the provider allows", async () => {
    const resources = edited({
      "chainguard_identity.ingester": {
        service_principal: "SERVICE_PRINCIPAL_COSIGNED",
        aws_identity: { aws_account: "1" },
      },
      'module.region["eu"].module.accounts.chainguard_account_associations.this': {
        amazon: null,
        google: null,
        azure: null,
        chainguard: null,
        github: null,
        github_installation: [],
      },
    });
    const file = stateFile(resources, "tfstate");
    const error = await refusal([file], {});
    expect(error.message).toContain(
      "  chainguard_identity.ingester (" + file + "): it lacks the required attribute exactly one of service_principal",
    );
    expect(error.message).toMatch(/claim_match, static \(it has service_principal, aws_identity\)/);
    expect(error.message).toContain(
      "chainguard_account_associations.this (" +
        file +
        "): it lacks the required attribute at least one of amazon, google, azure, chainguard, github, github_installation",
    );
  });

  test("one record under two addresses is refused, naming both", async () => {
    const first = stateFile(org.resources, "tfstate");
    const second = stateFile(
      org.resources.filter((r) => r.type === "chainguard_subscription"),
      "json",
    );
    const error = await refusal([first, second], { partial: true });
    expect(error.message).toContain(
      `  chainguard_subscription.hooks (${second}): the record ${org.uids.get("chainguard_subscription.hooks")} is also chainguard_subscription.hooks (${first})`,
    );
  });
});

test("two states: each forgets its own addresses, each comment says which state", async () => {
  const split = (keep: (r: TfResource) => boolean) => org.resources.filter(keep);
  const repos = (r: TfResource) => r.type.startsWith("chainguard_image_");
  const first = stateFile(
    split((r) => !repos(r)),
    "tfstate",
  );
  const second = stateFile(split(repos), "json");
  const { result, read } = await migrate([first, second], { partial: true, language: "yaml" });
  expect(result.forget.map((f) => [f.file, f.addresses.length])).toEqual([
    [first, 15],
    [second, 2],
  ]);
  expect(read("Pulumi.yaml")).toContain("# chainguard_image_tag.latest (state 2)");
  const { stdout } = terraformReport(result);
  expect(stdout).toContain(`  # in the configuration whose state is ${second}:`);
});

describe("names", () => {
  /** The attributes of the organization's instance at an address. */
  const attributesOf = (address: string) =>
    org.resources.flatMap((r) => r.instances.filter((i) => addressOf(r, i.key) === address))[0].attributes;
  const resources = (): TfResource[] => [
    {
      type: "chainguard_group",
      name: "team",
      instances: [
        { key: "ü", attributes: attributesOf('module.teams.chainguard_group.team["payments"]') },
        { key: "東京", attributes: attributesOf('module.teams.chainguard_group.team["ledger"]') },
        { key: "u", attributes: attributesOf("chainguard_group.platform") },
      ],
    },
    {
      module: 'module.squad["team-a"]',
      type: "chainguard_identity",
      name: "ci",
      instances: [{ attributes: attributesOf("chainguard_identity.ingester") }],
    },
  ];

  test("keep their word boundaries in Python and carry non-ASCII keys readably, each unique", async () => {
    const python = await migrate([stateFile(resources(), "tfstate")], { language: "python", importFile: undefined });
    const program = python.read("__main__.py");
    const variable = (address: string) =>
      new RegExp(`# ${address.replace(/[[\]."]/g, "\\$&")}\n(\\w+) = `).exec(program)?.[1];
    expect(variable('module.squad["team-a"].chainguard_identity.ci')).toBe("squad_team_a_ci");
    // `ü` reads as `u`: the key `u`, declared first (the others' parent), has the name, `ü` the next one.
    expect(variable('chainguard_group.team["u"]')).toBe("team_u");
    expect(variable('chainguard_group.team["ü"]')).toBe("team_u_group");
    expect(variable('chainguard_group.team["東京"]')).toBe("team_u6771u4eac");

    const typescript = await migrate([stateFile(resources(), "json")], { importFile: undefined });
    const index = typescript.read("index.ts");
    for (const [address, name] of [
      ['module.squad["team-a"].chainguard_identity.ci', "squadTeamACi"],
      ['chainguard_group.team["u"]', "teamU"],
      ['chainguard_group.team["ü"]', "teamUGroup"],
      ['chainguard_group.team["東京"]', "teamU6771u4eac"],
    ])
      expect(index).toContain(`// ${address}\nconst ${name} = new platform.`);
  });

  test("one address in two states: each line on stderr names its file", async () => {
    const payments = 'module.teams.chainguard_group.team["payments"]';
    const first = stateFile(
      edited({ "chainguard_group.platform": { description: "stale" } }).map((r) => ({
        ...r,
        instances: r.instances.filter((i) => addressOf(r, i.key) !== payments),
      })),
      "tfstate",
    );
    const second = stateFile(
      [
        {
          type: "chainguard_group",
          name: "platform",
          instances: [{ attributes: { ...attributesOf(payments), description: "stale" } }],
        },
      ],
      "json",
    );
    const { result } = await migrate([first, second], { importFile: undefined });
    const { stderr } = terraformReport(result);
    for (const file of [first, second])
      expect(stderr).toContain(
        `  chainguard_group.platform (${file}): Terraform's state differs from the organization in description: ` +
          "the organization's values are declared (Terraform would have changed them back on its next apply)",
      );
  });
});

describe("the command line", () => {
  const cli = (args: string[]) =>
    runProcess(process.execPath, [path.join(repoRoot, "dist", "cli.js"), "export", ...args], {
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_"))),
        PLATFORM_API_URL: emu.url,
        PLATFORM_TOKEN: emu.token,
      },
    });

  test("--from-terraform takes several states, the first after it and the others as arguments", async () => {
    const repos = (r: TfResource) => r.type.startsWith("chainguard_image_");
    const first = stateFile(
      org.resources.filter((r) => !repos(r)),
      "tfstate",
    );
    const second = stateFile(org.resources.filter(repos), "json");
    const out = path.join(scratch, `cli-${++counter}`);
    const answer = await cli(["--from-terraform", first, second, "--out", out, "--language", "python"]);
    expect([answer.code, answer.stderr]).toEqual([0, expect.stringContaining("skipped 3 instance(s)")]);
    expect(answer.stdout).toContain(`Wrote Pulumi.yaml, __main__.py, requirements.txt to ${out}:`);
    expect(answer.stdout).toContain(
      `  # in the configuration whose state is ${second}:\n  terraform state rm chainguard_image_repo.app\n`,
    );
    expect(answer.stdout).not.toContain(SSO_SECRET);
  });

  test("the printed terraform state rm lines, run by a shell, hand Terraform each migrated address intact", async () => {
    const out = path.join(scratch, `cli-${++counter}`);
    const answer = await cli(["--from-terraform", stateFile(org.resources, "json"), "--out", out]);
    expect(answer.code).toBe(0);
    const lines = answer.stdout.split("\n").filter((line) => line.startsWith("  terraform state rm "));
    // A stand-in `terraform` that prints the arguments it was given, one JSON list a call.
    const bin = path.join(scratch, `bin-${++counter}`);
    fs.mkdirSync(bin);
    const fake = path.join(bin, "terraform");
    fs.writeFileSync(fake, `#!${process.execPath}\nconsole.log(JSON.stringify(process.argv.slice(2)));\n`);
    fs.chmodSync(fake, 0o755);
    const shell = await runProcess("/bin/sh", ["-c", lines.join("\n")], {
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    expect([shell.code, shell.stderr]).toEqual([0, ""]);
    const given = shell.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    expect(given.every(([state, rm]) => state === "state" && rm === "rm")).toBe(true);
    expect(given.map((args) => args.slice(2))).toHaveLength(lines.length);
    expect(given.map((args) => args[2]).sort()).toEqual([...org.uids.keys()].sort());
  });

  test("a refusal exits 1, names each instance on stderr and writes nothing", async () => {
    const tainted = org.resources.map((resource) =>
      resource.type === "chainguard_subscription"
        ? { ...resource, instances: [{ ...resource.instances[0], tainted: true }] }
        : resource,
    );
    const file = stateFile(tainted, "tfstate");
    const out = path.join(scratch, `cli-${++counter}`);
    const answer = await cli(["--from-terraform", file, "--out", out, "--partial"]);
    expect([answer.code, answer.stdout]).toEqual([1, ""]);
    expect(answer.stderr).toContain(
      "platform-pulumi: 1 Terraform instance cannot be migrated, so nothing was written:\n" +
        `  chainguard_subscription.hooks (${file}): tainted: Terraform replaces it on its next apply.`,
    );
    expect(fs.existsSync(out)).toBe(false);

    const other = path.join(scratch, `v3-${++counter}.tfstate`);
    fs.writeFileSync(other, JSON.stringify({ version: 3, modules: [] }));
    const older = await cli(["--from-terraform", other, "--out", out]);
    expect([older.code, older.stderr]).toEqual([
      1,
      expect.stringContaining(`platform-pulumi: ${other} is a Terraform state of format version 3`),
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });

  test("a state that is not UTF-8, or lacks a required attribute, exits 1 naming it and writes nothing", async () => {
    const out = path.join(scratch, `cli-${++counter}`);
    const text = tfstate(edited({ "chainguard_group.platform": { description: "Für alle" } }));
    const latin1 = path.join(scratch, `latin1-${++counter}.tfstate`);
    fs.writeFileSync(latin1, Buffer.from(text, "latin1"));
    const offset = Buffer.from(text.slice(0, text.indexOf("ü"))).length;
    const bad = await cli(["--from-terraform", latin1, "--out", out, "--partial"]);
    expect([bad.code, bad.stdout]).toEqual([1, ""]);
    expect(bad.stderr).toContain(`platform-pulumi: ${latin1} is not UTF-8: the byte at offset ${offset} (line `);
    expect(bad.stderr).toContain("in the attribute description of chainguard_group.platform, is no UTF-8 character");
    expect(fs.existsSync(out)).toBe(false);

    const utf16 = path.join(scratch, `utf16-${++counter}.tfstate`);
    fs.writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    const wide = await cli(["--from-terraform", utf16, "--out", out]);
    expect([wide.code, wide.stderr]).toEqual([
      1,
      expect.stringContaining(`platform-pulumi: ${utf16} is UTF-16 (little-endian, with a byte order mark), not UTF-8`),
    ]);
    expect(fs.existsSync(out)).toBe(false);

    const lacking = stateFile(edited({ "chainguard_role.publisher": { parent_id: null } }), "tfstate");
    const refused = await cli(["--from-terraform", lacking, "--out", out]);
    expect([refused.code, refused.stdout]).toEqual([1, ""]);
    expect(refused.stderr).toContain(
      `  chainguard_role.publisher (${lacking}): it lacks the required attribute parent_id, which the vendor's provider`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  test("--under and --from-terraform are one or the other; arguments need --from-terraform", async () => {
    const both = await cli(["--under", org.platform, "--from-terraform", "x.tfstate"]);
    expect([both.code, both.stderr]).toEqual([
      2,
      expect.stringContaining("give --under or --from-terraform, not both"),
    ]);
    const stray = await cli(["--under", org.platform, "x.tfstate"]);
    expect([stray.code, stray.stderr]).toEqual([2, expect.stringContaining('unexpected argument "x.tfstate"')]);
    const missing = await cli([
      "--from-terraform",
      path.join(scratch, "no-such.tfstate"),
      "--out",
      path.join(scratch, "never"),
    ]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining("cannot read the state")]);
  });
});
