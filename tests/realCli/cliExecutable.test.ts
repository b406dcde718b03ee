/**
 * The command-line tool as a user without Node.js gets it: `npm run cli-archive`'s archive
 * (tools/plugin/build.ts), extracted into an empty folder outside the repository and run with a
 * PATH holding only its folder and the REAL Pulumi CLI's (no node, no npm), an empty HOME and an
 * empty working folder: its usage, and exit 2 with it for an unknown subcommand or flag; the
 * emulator it starts; `export` in each language and `--from-terraform` writing their programs
 * into the folders named, and nothing anywhere else. Then the YAML export of a team, imported with
 * `pulumi import --file` and previewed clean with only the CLI, its YAML host and the plugin
 * installed from its archive (tests/support/pluginArchive.ts): what a YAML user runs; then `drift`
 * reading that stack through the user's own `pulumi stack export`, clean, then naming a group made by hand.
 */
import { ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { CLI_EXECUTABLE, cliArchive, cliArchiveName } from "../../tools/plugin/build";
import { runProcess } from "../../tools/runProcess";
import { emptyFolderOutsideRepository } from "../support/outsideRepository";
import { cliOnlyPath, installPluginArchive } from "../support/pluginArchive";
import { buildMigratedOrganization } from "../support/terraformOrganization";
import { apiOf, tfstate } from "../support/terraformState";

jest.setTimeout(600_000);

describe("the platform-pulumi executable from its archive, with only it and the Pulumi CLI on PATH", () => {
  let root: string;
  let bin: string;
  let home: string;
  let work: string;
  let cliDir: string;
  let env: Record<string, string>;
  let emulator: ChildProcess;
  let api: { url: string; token: string; rootUid: string };

  const run = (args: string[], extra: Record<string, string> = {}) =>
    runProcess(path.join(bin, CLI_EXECUTABLE), args, { cwd: work, env: { ...env, ...extra } });
  const apiEnv = () => ({ PLATFORM_API_URL: api.url, PLATFORM_TOKEN: api.token });
  /** A test's own folder, empty, where its commands name their outputs. */
  const area = (name: string) => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir);
    return dir;
  };
  /** Nothing was written in HOME or the working folder, and in `dir` only what was named. */
  const onlyNamed = (dir: string | undefined, named: string[]) => {
    expect(fs.readdirSync(home)).toEqual([]);
    expect(fs.readdirSync(work)).toEqual([]);
    if (dir) expect(fs.readdirSync(dir).sort()).toEqual([...named].sort());
  };

  beforeAll(async () => {
    root = emptyFolderOutsideRepository("platform-pulumi-cli-executable-");
    cliDir = pulumiCliDir();
    const { file, version } = await cliArchive();
    const download = path.join(root, "cli-download");
    fs.mkdirSync(download);
    const archive = path.join(download, cliArchiveName(version));
    fs.copyFileSync(file, archive);
    bin = path.join(root, "bin");
    home = path.join(root, "home");
    work = path.join(root, "work");
    for (const dir of [bin, home, work]) fs.mkdirSync(dir);
    const extracted = spawnSync("tar", ["-xzf", archive, "-C", bin], { encoding: "utf8" });
    if (extracted.status !== 0) throw new Error(`tar -xzf ${archive}: ${extracted.stderr}`);
    env = {
      PATH: [bin, cliOnlyPath(cliDir, root)].join(path.delimiter),
      HOME: home,
      PULUMI_HOME: path.join(root, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    // The emulator as a user starts it; its first lines say where it listens and its token.
    emulator = spawn(path.join(bin, CLI_EXECUTABLE), ["emulator", "--port", "0"], {
      cwd: work,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    api = await new Promise((resolve, reject) => {
      let printed = "";
      const timer = setTimeout(() => reject(new Error(`the emulator printed no URL in 60 s: ${printed}`)), 60_000);
      emulator.stderr!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
      emulator.stdout!.on("data", (chunk: Buffer) => {
        printed += chunk.toString();
        const url = /^PLATFORM_API_URL=(\S+)$/m.exec(printed)?.[1];
        const token = /^PLATFORM_TOKEN=(\S+)$/m.exec(printed)?.[1];
        const rootUid = /^Root organization: (\S+)$/m.exec(printed)?.[1];
        if (!url || !token || !rootUid) return;
        clearTimeout(timer);
        resolve({ url, token, rootUid });
      });
      emulator.once("exit", (code) => reject(new Error(`the emulator exited (${code}): ${printed}`)));
    });
  });
  afterAll(() => {
    emulator?.kill();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test("the archive holds the executable, its license and notices; no node or npm on PATH; --help, alone or after a subcommand, prints the usage of every subcommand", async () => {
    expect(fs.readdirSync(bin).sort()).toEqual(["LICENSE", "THIRD-PARTY-NOTICES", CLI_EXECUTABLE].sort());
    for (const command of ["node", "npm"])
      expect([command, spawnSync(command, ["--version"], { env }).error?.message]).toEqual([
        command,
        `spawnSync ${command} ENOENT`,
      ]);
    for (const args of [["--help"], [], ["drift", "--help"], ["export", "--under", "x", "-h"], ["emulator", "-h"]]) {
      const help = await run(args);
      expect([help.code, help.stderr]).toEqual([0, ""]);
      expect(help.stdout).toMatch(/^Usage: platform-pulumi emulator /);
      expect(help.stdout).toContain("platform-pulumi export --under GROUP_UID");
      expect(help.stdout).toContain("platform-pulumi export --from-terraform FILE");
    }
    onlyNamed(undefined, []);
  });

  test("an unknown subcommand or flag prints the usage and exits 2", async () => {
    for (const [args, why] of [
      [["deploy"], 'unknown command "deploy"'],
      [["deploy", "--help"], 'unknown command "deploy"'],
      [["--verbose"], 'unknown command "--verbose"'],
      [["export", "--under", "x", "--colour"], "Unknown option '--colour'"],
      [["emulator", "--ports", "1"], "Unknown option '--ports'"],
    ] as const) {
      const answer = await run([...args]);
      expect([args, answer.code, answer.stdout]).toEqual([args, 2, ""]);
      expect(answer.stderr).toContain(`platform-pulumi: ${why}`);
      expect(answer.stderr).toContain("Usage: platform-pulumi emulator");
    }
    onlyNamed(undefined, []);
  });

  test("the emulator it started serves the API from the document it carries", async () => {
    const roles = await apiOf(api).get("/iam/v2beta1/roles?page_size=200");
    expect((roles.roles as Array<{ name: string }>).map((role) => role.name)).toContain("viewer");
    // An operation the document does not describe is not served.
    const unknown = await fetch(`${api.url}/iam/v2beta1/nothing`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(unknown.status).toBe(404);
  });

  test("export writes its program in TypeScript, JavaScript, YAML and Python into --out, and nothing else anywhere", async () => {
    const expected: Record<string, string[]> = {
      typescript: ["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"],
      javascript: ["Pulumi.yaml", "index.js", "package.json"],
      yaml: ["Pulumi.yaml"],
      python: ["Pulumi.yaml", "__main__.py", "requirements.txt"],
    };
    const exports = area("exports");
    for (const [language, files] of Object.entries(expected)) {
      const out = path.join(exports, language);
      const answer = await run(["export", "--under", api.rootUid, "--out", out, "--language", language], apiEnv());
      expect([language, answer.code]).toEqual([language, 0]);
      expect(answer.stdout).toContain(`to ${out}: `);
      expect(fs.readdirSync(out).sort()).toEqual(files);
      const program = fs.readFileSync(path.join(out, files.find((f) => f !== "Pulumi.yaml") ?? "Pulumi.yaml"), "utf8");
      expect(program).toMatch(/platform/);
      if (language === "yaml" || language === "python") {
        // The plugin comes from its release archive: no npm, no path into node_modules.
        expect(answer.stdout).toMatch(/pulumi plugin install resource platform \d+\.\d+\.\d+\S* --file /);
        for (const file of files) expect(fs.readFileSync(path.join(out, file), "utf8")).not.toMatch(/node_modules|npm/);
      }
    }
    onlyNamed(exports, Object.keys(expected));
  });

  test("export --from-terraform writes the program of a Terraform state's records", async () => {
    const org = await buildMigratedOrganization(api, "terraform team");
    const migration = area("migration");
    const state = path.join(migration, "terraform.tfstate");
    fs.writeFileSync(state, tfstate(org.resources));
    const out = path.join(migration, "program");
    const answer = await run(
      ["export", "--from-terraform", state, "--out", out, "--language", "yaml", "--partial", "--name", "migrated"],
      apiEnv(),
    );
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain(`Wrote Pulumi.yaml to ${out}: `);
    expect(answer.stdout).toContain("terraform state rm ");
    expect(fs.readdirSync(out)).toEqual(["Pulumi.yaml"]);
    expect(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toContain("type: platform:iam:Group");
    onlyNamed(migration, ["program", "terraform.tfstate"]);
  });

  test("a team's YAML export is imported by `pulumi import --file` and previews clean with only the CLI, its YAML host and the plugin installed from its archive; drift reads its stack and names a group made by hand", async () => {
    const teamApi = apiOf(api);
    const team = await teamApi.post(`/iam/v2beta1/groups/${api.rootUid}`, { name: "yaml users" });
    await teamApi.post(`/iam/v2beta1/groups/${team.uid}`, { name: "builders", description: "Build $${x}" });
    await teamApi.post(`/iam/v2beta1/identities/${team.uid}`, {
      name: "ci",
      claimMatch: { issuer: "https://token.example.com", subject: "main" },
    });
    const users = area("yaml-users");
    const project = path.join(users, "program");
    const importFile = path.join(project, "import.json");
    const exported = await run(
      ["export", "--under", team.uid, "--out", project, "--language", "yaml", "--import-file", importFile],
      apiEnv(),
    );
    expect(exported.code).toBe(0);
    const pulumiYaml = fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8");
    expect(pulumiYaml).not.toMatch(/^plugins:/m);

    // What the export printed: the plugin installed from its archive, by the CLI alone.
    const plugin = await installPluginArchive(cliDir, root, env);
    expect(exported.stdout).toContain(`pulumi plugin install resource platform ${plugin.version} --file `);
    const cliEnv = {
      ...env,
      PATH: path.join(root, "cli-only"),
      PULUMI_BACKEND_URL: `file://${path.join(users, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "yaml-users",
    };
    fs.mkdirSync(path.join(users, "backend"));
    const pulumi = (args: string[]) =>
      runProcess(path.join(cliDir, "pulumi"), [...args, "--non-interactive"], { cwd: project, env: cliEnv });
    for (const args of [
      ["stack", "init", "dev", "--secrets-provider", "passphrase"],
      ["config", "set", "platform:apiUrl", api.url],
      ["config", "set", "--secret", "platform:token", api.token],
    ])
      expect(await pulumi(args)).toMatchObject({ code: 0 });
    const declared = (JSON.parse(fs.readFileSync(importFile, "utf8")) as { resources: unknown[] }).resources.length;
    // The group and the identity under the team (the team itself is not declared).
    expect(declared).toBe(2);
    const imported = await pulumi([
      "import",
      "--file",
      importFile,
      "--generate-code=false",
      "--protect=false",
      "--yes",
    ]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    expect(imported.stdout).toMatch(new RegExp(`= ${declared} imported`));
    const preview = await pulumi(["preview", "--refresh", "--expect-no-changes", "--diff", "--color", "never"]);
    expect([preview.code, preview.stderr]).toEqual([0, ""]);
    expect(preview.stdout).not.toMatch(/[~+-] platform:/);
    expect(preview.stdout).toMatch(new RegExp(`${declared + 1} unchanged`));

    // The drift report from the same executable, reading the stack through the user's own pulumi.
    const driftEnv = { ...env, ...apiEnv(), PULUMI_BACKEND_URL: cliEnv.PULUMI_BACKEND_URL };
    const drift = (pass: string) =>
      run(["drift", "--under", team.uid, "--stack", "dev", "--cwd", project, "--format", "json"], {
        ...driftEnv,
        PULUMI_CONFIG_PASSPHRASE: pass,
      });
    const clean = await drift(cliEnv.PULUMI_CONFIG_PASSPHRASE);
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    expect(JSON.parse(clean.stdout).coverage).toMatchObject({ managed: declared, records: declared });
    const byHand = await teamApi.post(`/iam/v2beta1/groups/${team.uid}`, { name: "made by hand" });
    const found = await drift(cliEnv.PULUMI_CONFIG_PASSPHRASE);
    expect(found.code).toBe(3);
    const report = JSON.parse(found.stdout) as { unmanaged: Array<{ uid: string; type: string }>; changed: unknown[] };
    expect(report.unmanaged.map((entry) => [entry.uid, entry.type])).toEqual([[byHand.uid, "platform:iam:Group"]]);
    expect(report.changed).toEqual([]);
    expect(found.stdout + found.stderr).not.toContain(api.token);
    onlyNamed(users, ["backend", "program"]);
  });
});
