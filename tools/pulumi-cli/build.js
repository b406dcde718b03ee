#!/usr/bin/env node
// `npm run -s pulumi-cli`: finds or builds the real Pulumi CLI that the real-CLI stories run, and
// prints the folder holding it as its last line (everything else goes to stderr).
//
// - A `pulumi` on PATH of the pinned major version is used as it is: its folder is printed and
//   nothing is built (a release ships its language hosts and plugin launchers beside it).
// - Otherwise the CLI is built with Go from this folder's go.mod/go.sum into a cache folder outside
//   the repository, named by a hash of go.mod, go.sum, gen-sdk's source and this script, so it is reused until a pin
//   or the recipe changes: `pulumi` (with the version ldflag a release sets, so `pulumi version`
//   answers the pinned version) and beside it `pulumi-resource-pulumi-nodejs`, the launcher the CLI
//   runs for dynamic providers, copied from the sdk module; and `pulumi-language-yaml`, pulumi-yaml's
//   language host, built from its own module pinned by language-yaml/go.mod/go.sum (it pins the
//   pkg/v3 and sdk/v3 it was released with: v1.25.0 does not compile against pkg/v3 v3.274.1);
//   and `platform-gen-sdk` (./gen-sdk), which writes a package's Node.js, Python or Go SDK with
//   pkg/v3's own code generators: `pulumi package gen-sdk` reaches them only through language hosts.
//
// Not built, because the module proxy answers 403 for every version of their modules: the Node.js
// language host (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3), the Python one
// (…/sdk/python/cmd/pulumi-language-python/v3) and the Go one (…/sdk/go/pulumi-language-go/v3).
// Node.js and Python programs run as Automation API inline programs instead, whose language
// runtime is the calling process.
"use strict";
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const moduleDir = __dirname;
const CLI_MODULE = "github.com/pulumi/pulumi/pkg/v3";
const CLI_PACKAGE = `${CLI_MODULE}/cmd/pulumi`;
const SDK_MODULE = "github.com/pulumi/pulumi/sdk/v3";
const VERSION_VARIABLE = `${SDK_MODULE}/go/common/version.Version`;
const DYNAMIC_PROVIDER_LAUNCHER = "pulumi-resource-pulumi-nodejs";
const SDK_GENERATOR = "platform-gen-sdk";
/** Language hosts built from a module of their own: the folder holding its go.mod, and the package. */
const LANGUAGE_HOSTS = [
  {
    name: "pulumi-language-yaml",
    moduleDir: "language-yaml",
    pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  },
];
const MINIMUM_GO = [1, 26];
const exe = process.platform === "win32" ? ".exe" : "";

const HOW_TO_GET_ONE =
  "Put a Pulumi CLI v3 on PATH (https://www.pulumi.com/docs/iac/download-install/), " +
  "or install Go >= 1.26 so that `npm run pulumi-cli` builds one from tools/pulumi-cli/go.mod.";

function main() {
  const pinned = pinnedVersion();
  const onPath = pulumiOnPath(majorOf(pinned));
  if (onPath) {
    console.error(`pulumi-cli: using ${onPath.file} (${onPath.version}) from PATH`);
    return onPath.dir;
  }
  // A release's layout, <root>/bin/pulumi: what the Automation API's PulumiCommand.get({ root }) expects.
  const root = path.join(cacheRoot(), recipeHash());
  const dir = path.join(root, "bin");
  if (isComplete(dir)) return dir;
  build(root, pinned);
  return dir;
}

/** The CLI version go.mod pins, e.g. "v3.274.1". */
function pinnedVersion() {
  const goMod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const match = new RegExp(`^\\s*(?:require\\s+)?${CLI_MODULE.replace(/[./]/g, "\\$&")}\\s+(v\\S+)`, "m").exec(goMod);
  if (!match) throw new Error(`tools/pulumi-cli/go.mod requires no ${CLI_MODULE}`);
  return match[1];
}

function majorOf(version) {
  const match = /^v?(\d+)\./.exec(version.trim());
  return match ? Number(match[1]) : undefined;
}

/** An executable `pulumi` on PATH whose `pulumi version` has the same major version, if any. */
function pulumiOnPath(major) {
  for (const entry of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!entry) continue;
    const file = path.join(entry, `pulumi${exe}`);
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      continue;
    }
    const answer = spawnSync(file, ["version"], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
    const version = (answer.stdout ?? "").trim();
    if (answer.status === 0 && majorOf(version) === major) {
      // The CLI looks for its bundled plugins beside its own resolved executable.
      const real = fs.realpathSync(file);
      return { file, version, dir: path.dirname(real) };
    }
  }
  return undefined;
}

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "platform-pulumi", "pulumi-cli");
}

/** Names the build by everything that decides it: the pins and this recipe. */
function recipeHash() {
  const hash = crypto.createHash("sha256");
  const files = ["go.mod", "go.sum", path.join("gen-sdk", "main.go"), path.basename(__filename)];
  for (const host of LANGUAGE_HOSTS)
    files.push(path.join(host.moduleDir, "go.mod"), path.join(host.moduleDir, "go.sum"));
  for (const file of files) {
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(moduleDir, file)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

function isComplete(dir) {
  const names = [
    `pulumi${exe}`,
    DYNAMIC_PROVIDER_LAUNCHER,
    `${SDK_GENERATOR}${exe}`,
    ...LANGUAGE_HOSTS.map((host) => `${host.name}${exe}`),
  ];
  return names.every((name) => fs.existsSync(path.join(dir, name)));
}

function build(root, version) {
  const go = goVersion();
  const started = Date.now();
  console.error(
    `pulumi-cli: building the Pulumi CLI ${version} with ${go} into ${root} ` +
      "(a cold build, modules downloaded and compiled, takes several minutes)",
  );
  // Built beside the final folder and renamed into place, so a folder that exists is complete
  // even when two builds race or one is killed.
  fs.mkdirSync(path.dirname(root), { recursive: true });
  const scratch = fs.mkdtempSync(`${root}.partial-`);
  fs.chmodSync(scratch, 0o755);
  const bin = path.join(scratch, "bin");
  fs.mkdirSync(bin);
  try {
    const env = {
      ...process.env,
      // As releases are built: a static binary, no C toolchain needed.
      CGO_ENABLED: "0",
      GOFLAGS: "-mod=readonly -buildvcs=false",
      GOWORK: "off",
    };
    runGo(
      [
        "build",
        "-trimpath",
        "-ldflags",
        `-s -w -X ${VERSION_VARIABLE}=${version}`,
        "-o",
        path.join(bin, `pulumi${exe}`),
        CLI_PACKAGE,
      ],
      env,
    );
    runGo(
      ["build", "-trimpath", "-ldflags", "-s -w", "-o", path.join(bin, `${SDK_GENERATOR}${exe}`), "./gen-sdk"],
      env,
    );
    const sdkDir = runGo(["list", "-m", "-f", "{{.Dir}}", SDK_MODULE], env, "pipe").trim();
    const launcher = path.join(bin, DYNAMIC_PROVIDER_LAUNCHER);
    fs.copyFileSync(path.join(sdkDir, "nodejs", "dist", DYNAMIC_PROVIDER_LAUNCHER), launcher);
    fs.chmodSync(launcher, 0o755);
    for (const host of LANGUAGE_HOSTS) {
      runGo(
        ["build", "-trimpath", "-ldflags", "-s -w", "-o", path.join(bin, `${host.name}${exe}`), host.pkg],
        env,
        "inherit",
        path.join(moduleDir, host.moduleDir),
      );
    }

    // A PULUMI_HOME of its own: every command logs there, and this machine may have no Pulumi home.
    const home = path.join(scratch, "pulumi-home");
    const answered = spawnSync(path.join(bin, `pulumi${exe}`), ["version"], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_HOME: home },
    });
    fs.rmSync(home, { recursive: true, force: true });
    if ((answered.stdout ?? "").trim() !== version) {
      throw new Error(`the built CLI answers "pulumi version" with ${JSON.stringify(answered.stdout)}, not ${version}`);
    }
    try {
      fs.renameSync(scratch, root);
    } catch (error) {
      // Another build finished first; its folder is as good as ours.
      if (!isComplete(path.join(root, "bin"))) throw error;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.error(`pulumi-cli: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** `go env GOVERSION`, when it is at least the minimum; otherwise why the CLI cannot be built. */
function goVersion() {
  const answer = spawnSync("go", ["env", "GOVERSION"], {
    cwd: moduleDir,
    encoding: "utf8",
    env: { ...process.env, GOWORK: "off" },
  });
  if (answer.error || answer.status !== 0) {
    throw new Error(
      `no pulumi v3 on PATH and no Go to build one (go: ${answer.error?.message ?? answer.stderr.trim()})`,
    );
  }
  const version = answer.stdout.trim();
  const [major, minor] = (/^go(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  if (!(major > MINIMUM_GO[0] || (major === MINIMUM_GO[0] && minor >= MINIMUM_GO[1]))) {
    throw new Error(`no pulumi v3 on PATH, and ${version} is older than the go${MINIMUM_GO.join(".")} the build needs`);
  }
  return version;
}

/** Runs go in this module (or `cwd`); its progress goes to stderr, its output is returned when piped. */
function runGo(args, env, stdout = "inherit", cwd = moduleDir) {
  const answer = spawnSync("go", args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", stdout === "pipe" ? "pipe" : process.stderr, process.stderr],
  });
  if (answer.error || answer.status !== 0) {
    throw new Error(`go ${args.join(" ")} failed (${answer.error?.message ?? `exit ${answer.status}`})`);
  }
  return answer.stdout ?? "";
}

try {
  console.log(main());
} catch (error) {
  console.error(`pulumi-cli: ${error.message}`);
  console.error(`pulumi-cli: ${HOW_TO_GET_ONE}`);
  process.exit(1);
}
