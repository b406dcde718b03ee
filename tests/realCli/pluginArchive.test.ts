/**
 * The plugin as Pulumi's own providers ship: `npm run plugin`'s archive (tools/plugin), copied alone
 * into an empty folder outside the repository, installed by `pulumi plugin install resource platform
 * <version> --file <archive>`, run by the REAL Pulumi CLI with a PATH holding only the CLI and
 * pulumi-yaml's language host (no node, no npm): the archive holds the plugin's Go front and the
 * Node.js single executable it starts at its root, and no process of either outlives a command; the
 * installed plugin answers the schema native/schema.ts writes, and the mapping Pulumi's Terraform
 * converters ask for (native/terraformMapping.ts); `pulumi package add` of it in a YAML
 * project; and the example organization's YAML program, with no plugins entry in its Pulumi.yaml,
 * through the story of tests/support/nativeOrgStory.ts on the emulator.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { packageSchema } from "../../native/schema";
import { terraformMapping } from "../../native/terraformMapping";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { archiveName, EXECUTABLE, PLUGIN_NAME } from "../../tools/plugin/build";
import { nodeExecutableFile } from "../../tools/plugin/front";
import { runProcess } from "../../tools/runProcess";
import { describeNativeOrgStory } from "../support/nativeOrgStory";
import { cliOnlyPath, InstalledPlugin, installPluginArchive, processesOf } from "../support/pluginArchive";
import { getMapping, getMappings, startPlugin } from "../support/pluginClient";
import { yamlProgram } from "../support/yamlProgram";

jest.setTimeout(600_000);

describe("the plugin archive installed by `pulumi plugin install --file`, with only the CLI on PATH", () => {
  let scratch: string;
  let cliDir: string;
  let env: Record<string, string>;
  let plugin: InstalledPlugin;
  const cli = (args: string[], cwd: string, extra: Record<string, string> = {}) =>
    runProcess(path.join(cliDir, "pulumi"), [...args, "--non-interactive"], {
      cwd,
      env: { ...withoutPlatformEnv(), ...env, ...extra },
    });

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-plugin-"));
    cliDir = pulumiCliDir();
    env = {
      PULUMI_HOME: path.join(scratch, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PATH: cliOnlyPath(cliDir, scratch),
    };
    plugin = await installPluginArchive(cliDir, scratch, env);
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("the archive holds the front and the Node.js executable at its root, with the license and notices, and no node_modules; no node or npm on PATH", () => {
    expect(plugin.archive.startsWith(repoRoot)).toBe(false);
    expect(fs.readdirSync(path.dirname(plugin.archive))).toEqual([path.basename(plugin.archive)]);
    const listing = spawnSync("tar", ["-tvzf", plugin.archive], { encoding: "utf8" });
    const entries = listing.stdout
      .trim()
      .split("\n")
      .map((line) => ({ mode: line.split(/\s+/)[0], name: line.split(/\s+/).pop()! }));
    expect(entries.map((entry) => entry.name).sort()).toEqual([
      "LICENSE",
      "THIRD-PARTY-NOTICES",
      EXECUTABLE,
      nodeExecutableFile(),
    ]);
    expect(entries.filter((entry) => entry.mode.includes("x")).map((entry) => entry.name)).toEqual([
      EXECUTABLE,
      nodeExecutableFile(),
    ]);
    for (const command of ["node", "npm"])
      expect([command, spawnSync(command, ["--version"], { env }).error?.message]).toEqual([
        command,
        `spawnSync ${command} ENOENT`,
      ]);
    expect(fs.readdirSync(path.dirname(plugin.executable)).sort()).toEqual([
      "LICENSE",
      "THIRD-PARTY-NOTICES",
      EXECUTABLE,
      nodeExecutableFile(),
    ]);
  });

  test("the installed plugin answers `pulumi package get-schema` with the schema native/schema.ts writes", async () => {
    const answer = await cli(["package", "get-schema", plugin.executable], scratch);
    expect(answer.stderr).toBe("");
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual(packageSchema(plugin.version));
    expect(processesOf(path.dirname(plugin.executable))).toEqual([]);
  });

  test("the installed plugin answers Pulumi's Terraform converters' mapping request as the built package does", async () => {
    const started = await startPlugin(plugin.executable, [], { ...withoutPlatformEnv(), ...env });
    try {
      expect(await getMappings(started.client, "terraform")).toEqual(["chainguard"]);
      // Answered by the Node.js plugin the front started beside it (what the check after each command looks for).
      expect(processesOf(path.dirname(plugin.executable)).map((found) => found.command)).toEqual([
        plugin.executable,
        path.join(path.dirname(plugin.executable), nodeExecutableFile()),
      ]);
      const answer = await getMapping(started.client, "terraform", "chainguard");
      expect(answer.provider).toBe("chainguard");
      expect(JSON.parse(answer.data)).toEqual(terraformMapping(plugin.version));
    } finally {
      started.client.close();
      started.process.kill();
    }
  });

  test("a damaged archive is refused by `pulumi plugin install` with the CLI's own error, and nothing usable is left installed", async () => {
    const damaged = path.join(scratch, "damaged", archiveName(plugin.version));
    fs.mkdirSync(path.dirname(damaged));
    // The first megabyte of the archive: a download cut short.
    fs.writeFileSync(damaged, fs.readFileSync(plugin.archive).subarray(0, 1 << 20));
    const home = path.join(scratch, "damaged-home");
    const answer = await cli(
      ["plugin", "install", "resource", PLUGIN_NAME, plugin.version, "--file", damaged],
      path.dirname(damaged),
      { PULUMI_HOME: home },
    );
    expect(answer.code).toBe(1);
    const folder = path.join(home, "plugins", `resource-${PLUGIN_NAME}-v${plugin.version}`);
    expect(answer.stderr.trim().split("\n").pop()).toBe(
      `error: installing [resource plugin ${PLUGIN_NAME}-${plugin.version}] from ${damaged}: ` +
        `untarring file ${path.join(folder, EXECUTABLE)}: unexpected EOF`,
    );
    expect(fs.existsSync(folder)).toBe(false);
  });

  test("an archive of another platform installs (the CLI does not look inside) and then fails with the CLI's own error where it runs", async () => {
    // A macOS executable's header (Mach-O, 64-bit, arm64) where Linux expects ELF.
    const other = path.join(scratch, "other-platform");
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, EXECUTABLE), Buffer.from("cffaedfe0c000001", "hex"), { mode: 0o755 });
    const archive = path.join(other, `${EXECUTABLE}-v${plugin.version}-darwin-arm64.tar.gz`);
    expect(spawnSync("tar", ["-czf", archive, "-C", other, EXECUTABLE]).status).toBe(0);
    const home = path.join(scratch, "other-platform-home");
    const installed = await cli(
      ["plugin", "install", "resource", PLUGIN_NAME, plugin.version, "--file", archive],
      other,
      { PULUMI_HOME: home },
    );
    expect(installed.code).toBe(0);
    const executable = path.join(home, "plugins", `resource-${PLUGIN_NAME}-v${plugin.version}`, EXECUTABLE);
    const run = await cli(["package", "get-schema", executable], other, { PULUMI_HOME: home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`fork/exec ${executable}: exec format error`);
  });

  test("`pulumi package add <the installed executable>` in a YAML project: the SDK is written from the plugin; pulumi-yaml v1.25.0's host cannot link it", async () => {
    const project = path.join(scratch, "package-add");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: package-add\nruntime: yaml\n");
    const answer = await cli(["package", "add", plugin.executable], project);
    // The CLI ran the plugin for its schema and generated the package's SDK for YAML...
    expect(answer.stdout).toContain(`Successfully generated an SDK for the platform package at ${project}/sdks`);
    // ...then asks the language host to link it, which pulumi-yaml's host (v1.25.0, the newest the
    // module proxy serves) does not implement: the one step that fails, and not the plugin's.
    expect(answer.stderr.trim()).toBe("error: linking package: method Link not implemented");
    expect(answer.code).toBe(1);
  });

  test("a YAML project naming the installed plugin's folder under `packages` (what `package add` records) previews on it", async () => {
    const emu = await startEmulator({ quiet: true });
    try {
      const project = path.join(scratch, "packages-entry");
      fs.mkdirSync(project);
      fs.writeFileSync(
        path.join(project, "Pulumi.yaml"),
        [
          "name: packages-entry",
          "runtime: yaml",
          "packages:",
          `  platform: ${path.dirname(plugin.executable)}`,
          "resources:",
          "  team:",
          "    type: platform:iam:Group",
          "    properties:",
          `      parentUid: ${emu.rootUid}`,
          "      name: team",
          "",
        ].join("\n"),
      );
      const backend = { PULUMI_BACKEND_URL: `file://${project}`, PULUMI_CONFIG_PASSPHRASE: "packages-entry" };
      for (const args of [
        ["stack", "init", "dev", "--secrets-provider", "passphrase"],
        ["config", "set", "platform:apiUrl", emu.url],
        ["config", "set", "--secret", "platform:token", emu.token],
      ])
        expect(await cli(args, project, backend)).toMatchObject({ code: 0 });
      const preview = await cli(["preview", "--stack", "dev", "--color", "never"], project, backend);
      expect(preview.stderr).toBe("");
      expect(preview.stdout).toMatch(/\+\s+platform:iam:Group\s+team\s+create/);
      expect(preview.code).toBe(0);
      // The engine ended the front, and the front the Node.js plugin it started, before the CLI exited.
      expect(processesOf(path.dirname(plugin.executable))).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});

describeNativeOrgStory(
  "the example organization as a YAML program on the plugin installed from its archive, with only the CLI on PATH",
  {
    exampleDir: path.join(repoRoot, "examples", "org-hierarchy-yaml"),
    project: "org-hierarchy-yaml",
    plugin: "archive",
    prepare: yamlProgram,
  },
);
