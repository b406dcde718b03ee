/**
 * `npm run demo`: the whole life of a stack, on a local emulator of the Platform API.
 *
 *   1. preview and up      the example organization (examples/org-hierarchy) is created
 *   2. someone edits it    a description and a repo's tier are changed, an identity deleted and a role
 *                          binding made, behind Pulumi's back
 *   3. drift check         `preview --refresh --expect-no-changes` fails and names each change of what the
 *                          stack manages, but not the binding; `platform-pulumi drift` names all of them
 *   4. repair              `up --refresh` puts back what the program declares; the binding made by hand,
 *                          which no program declares, is deleted by hand
 *   5. destroy             the organization is as it was before the demo
 *
 * It runs on the real Pulumi CLI (`npm run -s pulumi-cli`: a `pulumi` v3 on PATH, else the one
 * built from tools/pulumi-cli/go.mod, which a first run builds), through the same Automation API
 * harness as the real-CLI tests (tools/pulumi-cli/stack.ts). Its first line says when it builds the
 * CLI. With neither a CLI nor Go to build one it says what to install and exits non-zero.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { call, renderTree, snapshot } from "../tools/orgApi";
import { EXAMPLE_SSO_CLIENT_SECRET, exampleDir } from "../tools/orgProject";
import { programCommand } from "../tools/pulumi-cli/command";
import { LocatedCli, locatePulumiCli } from "../tools/pulumi-cli/find";
import { realCliStack } from "../tools/pulumi-cli/stack";
import { runProcess } from "../tools/runProcess";

interface Runner {
  /** One line: which CLI runs the demo. */
  describe: string;
  run(args: string[]): Promise<{ code: number; output: string }>;
  /** The stack outputs, as `pulumi stack output --json` shows them. */
  outputs(): Promise<any>;
  /** `platform-pulumi <args>` in the program's folder, with the stack's backend and the API's URL and token. */
  platformPulumi(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The stack's name. */
  stack: string;
  /** The program's folder, where platformPulumi runs. */
  folder: string;
  close(): void;
}

/** What to install when there is no Pulumi CLI to run the demo. */
const HOW_TO_GET_A_CLI =
  "platform-pulumi demo needs the real Pulumi CLI: install Go >= 1.26 (then `npm run demo` builds the CLI " +
  "once from tools/pulumi-cli/go.mod), or put a Pulumi CLI v3 on PATH, and run `npm run demo` again.";

let lastLineBlank = true;
/** Prints a line; never two blank lines in a row. */
const say = (text = "") => {
  if (text === "" && lastLineBlank) return;
  process.stdout.write(text + "\n");
  lastLineBlank = text === "";
};
const rule = (title: string) => {
  say();
  say(`${"━".repeat(4)} ${title} ${"━".repeat(Math.max(4, 90 - title.length))}`);
  say();
};
const indent = (text: string) =>
  text
    .replace(/\s+$/, "")
    .split("\n")
    .map((l) => "  │ " + l)
    .join("\n");

async function main(): Promise<number> {
  const cli = await locatePulumiCli({
    onBuildStart: (announcement) =>
      say(
        `platform-pulumi demo: first building the real Pulumi CLI (${announcement.replace(/^pulumi-cli: building the Pulumi CLI (\S+).*$/, "$1")}) ` +
          "from its Go modules, once: a cold build takes about 7.5 minutes on 2 cores; later runs reuse it",
      ),
    progress: process.stderr,
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (cli instanceof Error) {
    process.stderr.write(`${HOW_TO_GET_A_CLI}\n(npm run -s pulumi-cli found neither: ${cli.message})\n`);
    return 1;
  }
  say("platform-pulumi demo");
  say("");
  say("platform-pulumi lets a Pulumi program declare an organization on Platform API v2: groups,");
  say("identities (who may log in, e.g. a CI pipeline with its OIDC token), custom roles, role bindings");
  say("(which identity holds which role on which group), registry repos, event subscriptions and the");
  say("rest of what the API manages. This demo runs the example program");
  say("examples/org-hierarchy/index.ts against a local emulator of the API and walks through a stack's");
  say("life: create it, let someone change it by hand, detect that drift, repair it, destroy it.");
  say("");
  const emu = await startEmulator({ quiet: true });
  const api = { url: emu.url, token: emu.token };
  const runner = cliRunner(emu, cli);
  say(runner.describe);
  say(`Platform API emulator: ${emu.url}, organization "${ROOT_LABEL}" (uid ${emu.rootUid}).`);

  const showTree = async (title: string) => {
    const org = await snapshot(api, emu.rootUid);
    say(`${title}:`);
    say(indent(renderTree(org, emu.rootUid, ROOT_LABEL).join("\n")));
    say();
    return org;
  };
  const step = async (args: string[], expectFailure = false) => {
    say(`$ pulumi ${args.join(" ")}`);
    const { code, output } = await runner.run(args);
    say(indent(withoutOutputs(output)));
    say();
    if (expectFailure ? code === 0 : code !== 0) {
      throw new Error(
        `"pulumi ${args.join(" ")}" exited with ${code}, expected ${expectFailure ? "a failure" : "success"}`,
      );
    }
    return code;
  };
  const drift = async (args: string[]) => {
    say(`$ platform-pulumi drift ${args.join(" ")}`);
    const result = await runner.platformPulumi(["drift", ...args]);
    if (result.code !== 0 && result.code !== 3)
      throw new Error(`"platform-pulumi drift ${args.join(" ")}" exited with ${result.code}:\n${result.stderr}`);
    return result;
  };
  const driftArgs = ["--under", emu.rootUid, "--stack", runner.stack];

  try {
    rule("0. The organization before");
    say(
      `The emulator starts with one organization, ${ROOT_LABEL}, and its owner dev-owner, whose API token the demo uses.`,
    );
    const before = await showTree(
      "The organization: groups, identities, role bindings, custom roles, repos, subscriptions",
    );

    rule("1. Create: preview the plan, then apply it");
    await step(["preview"]);
    await step(["up", "--yes"]);
    const outputs = await runner.outputs();
    say("The stack's outputs (pulumi stack output), in short:");
    say(indent(outputSummary(outputs).join("\n")));
    say();
    await showTree("The organization now");

    // The emulator's samples and its owner are below the organization too, and no stack manages them.
    const baseline = await drift([...driftArgs, "--format", "json"]);
    const unmanagedBefore = JSON.parse(baseline.stdout).unmanaged as { uid: string }[];
    const ignoreFile = path.join(runner.folder, "drift-ignore.json");
    fs.writeFileSync(ignoreFile, JSON.stringify({ uids: unmanagedBefore.map((e) => e.uid) }, null, 2) + "\n");
    say(
      `  │ ${unmanagedBefore.length} records below ${ROOT_LABEL} that the stack does not manage (the emulator's samples and its`,
    );
    say("  │ owner): written to drift-ignore.json as meant to stay unmanaged (--ignore), so that drift reports only");
    say("  │ what changes from here on.");
    say();

    rule("2. Someone changes things in the console (direct API calls, not Pulumi)");
    const platformUid = outputs.tree.teams.platform as string;
    const gitlabUid = outputs.tree.identities["gitlab-ci"] as string;
    await call(api, "PATCH", `/iam/v2beta1/groups/${platformUid}?updateMask=description`, {
      name: "platform",
      description: "temporary: ask Bob",
    });
    say(`PATCH  group "platform": description = "temporary: ask Bob"`);
    await call(api, "DELETE", `/iam/v2beta1/identities/${gitlabUid}`);
    say(`DELETE identity "gitlab-ci"  (the service deletes its role binding with it)`);
    const repoUid = outputs.tree.repos["platform-base"] as string;
    await call(api, "PATCH", `/registry/v2beta1/repos/${repoUid}?updateMask=catalogTier`, {
      name: "platform-base",
      catalogTier: "CATALOG_TIER_APPLICATION",
    });
    say(`PATCH  repo "platform-base": catalogTier = CATALOG_TIER_APPLICATION`);
    const githubDeployUid = outputs.tree.identities["github-deploy"] as string;
    const owner = (await call(api, "GET", "/iam/v2beta1/roles?name=owner")).roles[0];
    const handMade = await call(api, "POST", `/iam/v2beta1/roleBindings/${platformUid}`, {
      identityUid: githubDeployUid,
      roleUid: owner.uid,
    });
    say(`POST   role binding: "github-deploy" is owner on "platform"  (${handMade.uid as string})`);

    rule("3. Drift check, as CI runs it on every pull request");
    const code = await step(["preview", "--refresh", "--expect-no-changes"], true);
    say(`→ exit code ${code}: the check fails and names what differs (the description, the missing identity`);
    say("  and its binding, the repo's tier), so the pull request shows the drift before anyone merges.");
    say("  It does not name the binding made by hand: a preview reads only what the stack manages, and a");
    say("  grant of owner made in the console is exactly the drift that matters most in an IAM organization.");
    say();
    say("platform-pulumi drift reads every record below the organization (one List per kind) and compares");
    say("them with the stack's export: what changed, what is gone, and what no stack manages.");
    const found = await drift([...driftArgs, "--ignore", "drift-ignore.json"]);
    say(indent(found.stdout));
    say();
    const named = (uid: string) => found.stdout.includes(uid);
    if (found.code !== 3 || ![platformUid, gitlabUid, handMade.uid as string].every(named))
      throw new Error(
        `platform-pulumi drift did not name the edit, the deleted identity and the binding:\n${found.stdout}`,
      );
    say(`→ exit code ${found.code}: the description edit, the deleted identity (and its binding), the repo's tier,`);
    say("  and the binding no stack manages, unmanaged. (--import-file FILE would write the import file that");
    say(
      "  brings it into a stack with `pulumi import --file`; --format markdown fits a pull request or a job summary.)",
    );

    rule("4. Repair: up with refresh puts back what the program declares");
    await step(["up", "--refresh", "--yes"]);
    await step(["preview", "--refresh", "--expect-no-changes"]);
    say("→ exit code 0: the service matches the program again.");
    await showTree("The organization after the repair");
    const after = await drift([...driftArgs, "--ignore", "drift-ignore.json"]);
    say(indent(after.stdout));
    say();
    if (after.code !== 3 || !after.stdout.includes(handMade.uid as string))
      throw new Error(`after the repair, drift did not name the binding made by hand:\n${after.stdout}`);
    say("→ the program's records match again; the binding made by hand is still there, since no program declares");
    say("  it. Nobody meant to keep it: it is deleted in the console.");
    await call(api, "DELETE", `/iam/v2beta1/roleBindings/${handMade.uid as string}`);
    say(`DELETE role binding "github-deploy" is owner on "platform"`);

    rule("5. Destroy");
    await step(["destroy", "--yes"]);
    const end = await showTree("The organization after destroy");
    if (!isDeepStrictEqual(end, before))
      throw new Error("the organization after destroy differs from the one before the demo");
    say("→ exactly as in step 0: everything the stack created is gone, nothing else was touched.");
    say();
    say("Done. The program: examples/org-hierarchy/index.ts. Everything else: README.md and docs/.");
    return 0;
  } finally {
    runner.close();
    await emu.close();
  }
}

const ROOT_LABEL = "demo-org";

/** The CLI's Outputs block is long JSON; the demo shows a summary of it instead. */
function withoutOutputs(output: string): string {
  const lines = output.split("\n");
  const at = lines.findIndex((line) => line.trim() === "Outputs:");
  if (at < 0) return output;
  let end = at + 1;
  while (end < lines.length && (lines[end].startsWith(" ") || lines[end] === "")) end++;
  return [
    ...lines.slice(0, at),
    "Outputs: advisoriesPerRepo, images, roleBindings, tree (summarised below)",
    "",
    ...lines.slice(end),
  ].join("\n");
}

/** The example's outputs in a few lines: the look-ups' results and what the uids map to. */
function outputSummary(outputs: any): string[] {
  const tree = outputs.tree ?? {};
  const groups = Object.keys(tree.teams ?? {}).length + Object.keys(tree.nested ?? {}).length + 1;
  const bindings = (outputs.roleBindings ?? []).map(
    (b: { identity: string; role: string; group: string }) => `${b.identity} is ${b.role} on ${b.group}`,
  );
  const teams = Object.keys(outputs.images ?? {}).sort((a, b) => TEAM_ORDER.indexOf(a) - TEAM_ORDER.indexOf(b));
  const width = Math.max(...teams.map((team) => team.length)) + 1;
  const images = teams.map((team) => {
    const list = outputs.images[team] as { repo: string; tags: string[] }[];
    return `${`${team}:`.padEnd(width)} ${list.map((i) => `${i.repo} [${i.tags.join(", ")}]`).join(", ")}`;
  });
  const advisories = Object.entries(outputs.advisoriesPerRepo ?? {}).map(([repo, n]) => `${repo} ${String(n)}`);
  const label = (text: string) => text.padEnd(22);
  return [
    `${label("tree")}uids of the ${groups} groups, ${count(tree.identities)} identities, ${count(tree.roles)} custom role, ` +
      `${count(tree.repos)} repo, ${count(tree.subscriptions)} event subscription and ${count(tree.identityProviders)} identity provider`,
    `${label("roleBindings")}${bindings.join(" · ")}`,
    ...images.map((line, n) => `${label(n === 0 ? "images (look-ups)" : "")}${line}`),
    `${label("advisoriesPerRepo")}${advisories.join(" · ")}`,
  ];
}

const TEAM_ORDER = ["platform", "payments", "data"];
const count = (outputs: object | undefined) => Object.keys(outputs ?? {}).length;

/**
 * The real CLI, with the harness of the real-CLI tests: the example staged with the package installed
 * from this checkout as a copy, a file backend and passphrase secrets in a temporary folder, each
 * command run by the Automation API with the same flags (the program as an inline program, since a
 * CLI built from its Go modules has no Node.js language host).
 */
function cliRunner(emu: RunningEmulator, cli: LocatedCli): Runner {
  const stack = realCliStack({
    programDir: exampleDir,
    project: "org-hierarchy",
    label: "demo",
    cliDir: cli.dir,
    config: { "platform:apiUrl": emu.url, "org-hierarchy:rootUid": emu.rootUid },
    secretConfig: { "platform:token": emu.token, "org-hierarchy:ssoClientSecret": EXAMPLE_SSO_CLIENT_SECRET },
  });
  const where = {
    path: `${cli.dir} (on PATH)`,
    "built now": `${cli.dir} (just built from tools/pulumi-cli/go.mod)`,
    "built before": `${cli.dir} (built from tools/pulumi-cli/go.mod)`,
  }[cli.source];
  let outputs: Record<string, unknown> = {};
  const cliJs = path.join(__dirname, "..", "cli.js");
  return {
    stack: stack.stack,
    folder: stack.programDir,
    describe:
      `Engine: the real Pulumi CLI ${cli.version}, ${where}; each command runs through the Automation API ` +
      "with the same flags, file backend and passphrase secrets in a temporary folder.",
    async run(args) {
      const command = programCommand(args);
      const result = await stack.run(command.operation, command);
      outputs = Object.fromEntries(Object.entries(result.outputs).map(([key, output]) => [key, output.value]));
      return { code: result.code, output: result.stdout + result.stderr };
    },
    outputs: async () => outputs,
    platformPulumi: (args) =>
      runProcess(process.execPath, [cliJs, ...args], {
        cwd: stack.programDir,
        env: { ...stack.env, PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token },
      }),
    close: () => stack.remove(),
  };
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
