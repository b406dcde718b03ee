/**
 * `platform-pulumi export --from-terraform` under the REAL Pulumi CLI, on the emulator, from the
 * states a configuration of the vendor's Terraform provider would hold for an organization made
 * there (tests/support/terraformOrganization.ts: every type this package manages, nested blocks,
 * count and for_each, modules, an aliased provider, data sources, another provider's resource),
 * written as Terraform writes them in both forms (tests/support/terraformState.ts):
 *
 * - YAML, the import path: the command run as a user runs it, on the terraform.tfstate and on the
 *   terraform show -json (byte-identical projects and import files); `pulumi import --file …
 *   --generate-code=false` brings every record in with no write; the one change a preview then
 *   shows is the identity provider's client secret, which the service never answers (one PATCH,
 *   the value from secret config), previewed as that field's change (`[diff: ~oidc]`); then
 *   `preview --refresh --expect-no-changes` is clean with no write. A state without an identity
 *   provider previews clean right after the import. The invite, whose code no import can bring
 *   in, is left out by --partial and named.
 * - TypeScript, the adoption path: the program run by the Automation API; `up` adopts every
 *   record (the invite too, by uid), the one write the client secret; then no changes, and
 *   destroy deletes nothing. One for_each key is in other alphabets (`lédger 東京`), carried in its
 *   resource's name.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { plainStack } from "../../tools/pulumi-cli/plainStack";
import { runExport } from "../support/exportOrganization";
import { installPackage, nativeResources } from "../support/exportLanguages";
import { realCliStack, RealCliStack } from "../support/realCli";
import { buildMigratedOrganization, INVITE_CODE, SSO_SECRET } from "../support/terraformOrganization";
import { showJson, TfResource, tfstate } from "../support/terraformState";

jest.setTimeout(600_000);

/** The keys of the `pulumi config set --secret KEY <value>` lines the command printed (one: the client secret's). */
function printedSecretKeys(stdout: string): string[] {
  const keys = [...stdout.matchAll(/: pulumi config set --secret (\S+) <value>$/gm)].map((match) => match[1]);
  expect(keys).toEqual(["ssoOidcClientSecret"]);
  return keys;
}

describe("export --from-terraform under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let cliDir: string;
  const stacks: RealCliStack[] = [];
  const writes = () => emu.requests().filter((r) => r.method !== "GET");
  const exportEnv = () => ({ ...withoutPlatformEnv(), PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token });

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    cliDir = pulumiCliDir();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-from-terraform-"));
  });
  afterAll(async () => {
    for (const stack of stacks) stack.remove();
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  function writeStates(resources: readonly TfResource[], label: string) {
    const dir = path.join(scratch, `${label}-states`);
    fs.mkdirSync(dir);
    const tfstateFile = path.join(dir, "terraform.tfstate");
    const jsonFile = path.join(dir, "show.json");
    fs.writeFileSync(tfstateFile, tfstate(resources));
    fs.writeFileSync(jsonFile, showJson(resources));
    return { tfstateFile, jsonFile };
  }

  /** A YAML project's stack on its own file backend, its secrets set: its plain `pulumi` commands. */
  const yamlStack = async (project: string, dir: string, secrets: Record<string, string>) =>
    (
      await plainStack({
        dir,
        scratch: path.join(scratch, project),
        cliDir,
        config: { "platform:apiUrl": emu.url },
        secretConfig: { "platform:token": emu.token, ...secrets },
      })
    ).cli;

  test("YAML: both forms give one project; pulumi import --file --generate-code=false brings every record in with no write; after the client secret's one PATCH, no changes", async () => {
    const org = await buildMigratedOrganization(emu, "yaml-platform");
    const { tfstateFile, jsonFile } = writeStates(org.resources, "yaml");
    const project = "from-terraform-yaml";
    const run = async (state: string, out: string) =>
      runExport(
        [
          "--from-terraform",
          state,
          "--out",
          out,
          "--language",
          "yaml",
          "--import-file",
          path.join(out, "import.json"),
          "--partial",
          "--name",
          project,
        ],
        exportEnv(),
      );
    const dir = path.join(scratch, "yaml");
    const exported = await run(tfstateFile, dir);
    expect([exported.code, exported.stderr]).toEqual([0, expect.stringContaining("skipped 3 instance(s)")]);
    const fromJson = await run(jsonFile, path.join(scratch, "yaml-json"));
    expect(fromJson.code).toBe(0);
    for (const file of ["Pulumi.yaml", "import.json"])
      expect(fs.readFileSync(path.join(scratch, "yaml-json", file), "utf8")).toBe(
        fs.readFileSync(path.join(dir, file), "utf8"),
      );

    // Left out by --partial, and named: the invite, whose code no import brings in.
    expect(exported.stderr).toContain(
      "left out 1 instance(s) (--partial; Terraform still manages them):\n  chainguard_group_invite.alice: a group invite cannot be imported",
    );
    expect(exported.stderr).toContain("  random_pet.suffix: a resource of another provider");
    expect(exported.stdout).toContain(
      "pulumi config set --secret ssoOidcClientSecret <value>\nOnce `pulumi import` or `pulumi up` has brought them in",
    );
    expect(exported.stdout).toContain(`  terraform state rm 'module.teams.chainguard_group.team["payments"]'\n`);
    expect(exported.stdout).not.toContain("terraform state rm chainguard_group_invite.alice");
    for (const output of [exported.stdout, exported.stderr, fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")]) {
      expect(output).not.toContain(SSO_SECRET);
      expect(output).not.toContain(INVITE_CODE);
    }
    const program = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    expect(program).toContain('  # module.teams.chainguard_group.team["payments"]\n  teamsTeamPayments:\n');
    expect(program).toContain("parentUid: ${platformGroup.uid}");

    const imports = (JSON.parse(fs.readFileSync(path.join(dir, "import.json"), "utf8")) as { resources: unknown[] })
      .resources.length;
    // Every migrated instance but the invite.
    expect(imports).toBe(org.uids.size - 1);
    installPackage(dir);
    // The secret set as the command said to, under the key it printed.
    const cli = await yamlStack(
      project,
      dir,
      Object.fromEntries(printedSecretKeys(exported.stdout).map((key) => [key, SSO_SECRET])),
    );

    emu.clearRequests();
    const imported = await cli([
      "import",
      "--file",
      path.join(dir, "import.json"),
      "--generate-code=false",
      "--protect=false",
      "--yes",
    ]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    expect(imported.stdout).toMatch(new RegExp(`= ${imports} imported`));
    expect(writes()).toEqual([]);

    // Nothing differs but the client secret, which the service never answers.
    const preview = await cli(["preview", "--refresh", "--diff"]);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(preview.stdout.match(/^\s*[~+-] platform:\S+/gm)).toEqual([
      expect.stringMatching(/~ platform:iam:IdentityProvider:$/),
    ]);
    expect(preview.stdout).toMatch(new RegExp(`~ 1 to update\\s+${imports} unchanged`));
    // The change shown is the one written: the client secret, as a secret (no value on screen).
    expect(preview.stdout).toMatch(/~ oidc: \{\n\s+\+ clientSecret: \[secret\]\n\s+\}/);
    const summary = await cli(["preview"]);
    expect([summary.code, summary.stderr]).toEqual([0, ""]);
    expect(summary.stdout).toMatch(/~ +platform:iam:IdentityProvider sso update \[diff: ~oidc\]/);
    expect(writes()).toEqual([]);
    const up = await cli(["up", "--yes"]);
    expect([up.code, up.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${org.identityProvider}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);

    emu.clearRequests();
    const clean = await cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(clean.stdout).not.toMatch(/^\s*[~+-] platform:/m);
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
    const managed = nativeResources(path.join(scratch, project), project);
    expect(managed.map((r) => r.id).sort()).toEqual(
      [...org.uids]
        .filter(([address]) => !address.startsWith("chainguard_group_invite."))
        .map(([, uid]) => uid)
        .sort(),
    );

    const destroy = await cli(["destroy", "--yes"]);
    expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
  });

  test("YAML: a state with no identity provider previews clean right after the import, with no write", async () => {
    const org = await buildMigratedOrganization(emu, "yaml-plain");
    const resources = org.resources.filter(
      (r) => r.type !== "chainguard_identity_provider" && r.type !== "chainguard_group_invite",
    );
    const { jsonFile } = writeStates(resources, "plain");
    const project = "from-terraform-plain";
    const dir = path.join(scratch, "plain");
    const exported = await runExport(
      [
        "--from-terraform",
        jsonFile,
        "--out",
        dir,
        "--language",
        "yaml",
        "--import-file",
        path.join(dir, "import.json"),
      ],
      exportEnv(),
    );
    expect([exported.code, exported.stdout]).toEqual([0, expect.not.stringContaining("pulumi config set")]);
    installPackage(dir);
    const cli = await yamlStack(project, dir, {});
    emu.clearRequests();
    const imported = await cli([
      "import",
      "--file",
      path.join(dir, "import.json"),
      "--generate-code=false",
      "--protect=false",
      "--yes",
    ]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    const clean = await cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(clean.stdout).not.toMatch(/^\s*[~+-] platform:/m);
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    expect(clean.stdout).toMatch(new RegExp(`${org.uids.size - 2 + 1} unchanged`));
    expect(writes()).toEqual([]);
  });

  test("TypeScript: up adopts every record through the Automation API, the invite by uid; the one write the client secret; then no changes, and destroy deletes nothing", async () => {
    const org = await buildMigratedOrganization(emu, "ts-platform");
    // A for_each key in other alphabets: carried into the resource's name, which the engine takes as it is.
    const resources = org.resources.map((resource) =>
      resource.module === "module.teams" && resource.type === "chainguard_group"
        ? {
            ...resource,
            instances: resource.instances.map((i) => (i.key === "ledger" ? { ...i, key: "lédger 東京" } : i)),
          }
        : resource,
    );
    const { tfstateFile } = writeStates(resources, "ts");
    const project = "from-terraform-ts";
    const dir = path.join(scratch, "ts");
    const exported = await runExport(["--from-terraform", tfstateFile, "--out", dir, "--name", project], exportEnv());
    expect([exported.code, exported.stderr]).toEqual([0, expect.not.stringContaining("left out")]);
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    expect(program).not.toContain(SSO_SECRET);
    expect(program).toContain(`adoptUid: "${org.invite}"`);
    expect(program).toContain(
      '// module.teams.chainguard_group.team["lédger 東京"]\nconst teamsTeamLedgerU6771u4eac = new platform.iam.Group(',
    );

    const stack = realCliStack({
      programDir: dir,
      project,
      label: "from-terraform",
      config: { "platform:apiUrl": emu.url },
      secretConfig: {
        "platform:token": emu.token,
        ...Object.fromEntries(printedSecretKeys(exported.stdout).map((key) => [`${project}:${key}`, SSO_SECRET])),
      },
    });
    stacks.push(stack);
    const managed = () =>
      (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter((r) =>
        r.type.startsWith("pulumi-nodejs:dynamic/"),
      );

    emu.clearRequests();
    const up = await stack.run("up");
    expect([up.code, up.stderr]).toEqual([0, ""]);
    // The engine counts an adoption as a create; the stack is the one more.
    expect(up.stdout).toMatch(new RegExp(`\\+ ${org.uids.size + 1} created`));
    expect(
      managed()
        .map((r) => r.id)
        .sort(),
    ).toEqual([...org.uids.values()].sort());
    expect(managed().filter((r) => r.outputs?.adopted !== true)).toEqual([]);
    // No record was created (each create answered ALREADY_EXISTS and the record was taken over);
    // the one write is the client secret, which the service never answers.
    expect(writes().filter((r) => r.status < 400)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `/iam/v2beta1/identityProviders/${org.identityProvider}`,
        query: { updateMask: "oidc.clientSecret" },
      }),
    ]);

    emu.clearRequests();
    const preview = await stack.run("preview", { refresh: true, expectNoChanges: true, diff: true });
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
    const destroy = await stack.run("destroy");
    expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
    expect(writes()).toEqual([]);
  });
});
