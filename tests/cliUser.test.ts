/**
 * What a user with the Pulumi CLI runs, under the real CLI on the emulator: every line of the
 * "With the Pulumi CLI installed" block of docs/guides/cli-walkthrough.md, in order, and the GitHub
 * Actions example's job for a pull request and for a push to main, step by step, on a stack set
 * up by those lines. How each line runs here (as written by bash, or through the Automation API
 * with the same flags when it runs the program) is tests/support/userShell.ts; a line it cannot run fails the test. The
 * workflow also passes actionlint (tools/actionlint/go.mod).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { call, OrgSnapshot, snapshot } from "../tools/orgApi";
import { EXAMPLE_SSO_CLIENT_SECRET, exampleDir } from "../tools/orgProject";
import { repoRoot } from "../tools/host/stage";
import { realCliStack, RealCliStack } from "../tools/pulumi-cli/stack";
import { ActionsTokenEndpoint, startActionsTokenEndpoint } from "./support/actionsTokenEndpoint";
import { LineRun, UserShell, withoutComment } from "./support/userShell";
import { Job, workflowJob } from "./support/workflowJob";
import { actionlint } from "./support/actionlint";

jest.setTimeout(600_000);

const WALKTHROUGH = path.join("docs", "guides", "cli-walkthrough.md");
const WALKTHROUGH_HEADING = "## With the Pulumi CLI installed";
const WORKFLOW = path.join(repoRoot, "examples", "github-actions", "pulumi.yml");
const PROJECT = "org-hierarchy";

/** The lines of the walk-through's block for CLI users, comments dropped. */
function walkthroughLines(): string[] {
  const guide = fs.readFileSync(path.join(repoRoot, WALKTHROUGH), "utf8");
  const section = guide.slice(guide.indexOf(WALKTHROUGH_HEADING));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (guide.indexOf(WALKTHROUGH_HEADING) < 0 || !block)
    throw new Error(`${WALKTHROUGH} has no sh block under "${WALKTHROUGH_HEADING}"`);
  return block[1].split("\n").map(withoutComment).filter(Boolean);
}

const FIRST_UP = "pulumi up --yes";
const DRIFT_CHECK = "pulumi preview --refresh --expect-no-changes --diff";
const REPAIR = "pulumi up --refresh --yes";

describe("a user with the Pulumi CLI: the walk-through's commands and the GitHub Actions example", () => {
  let emu: RunningEmulator;
  let stack: RealCliStack;
  let before: OrgSnapshot;
  const api = () => ({ url: emu.url, token: emu.token });
  /** The variables the walk-through asks the user to set first. */
  const userEnv = () => ({
    PLATFORM_API_URL: emu.url,
    PLATFORM_TOKEN: emu.token,
    ROOT_UID: emu.rootUid,
    SSO_CLIENT_SECRET: EXAMPLE_SSO_CLIENT_SECRET,
  });

  /** What each story opened: the walk-through's own, and the one the job's tests share. */
  const opened: Array<{ emu: RunningEmulator; stack: RealCliStack }> = [];
  /** An emulator and a stack of the example of their own. */
  const start = async () => {
    emu = await startEmulator({ quiet: true });
    // The stack's config comes from the walk-through's own `pulumi config set` lines; the backend
    // from its `pulumi login`.
    stack = realCliStack({ programDir: exampleDir, project: PROJECT, label: "user", config: {}, backend: "login" });
    opened.push({ emu, stack });
    before = await snapshot(api(), emu.rootUid);
  };
  afterAll(async () => {
    for (const story of opened) {
      await story.emu.close();
      story.stack.remove();
    }
  });

  /** The API's writes (a token exchange is not one). */
  const writes = () => emu.requests().filter((r) => r.method !== "GET" && !r.path.startsWith("/sts/"));
  const platformGroupUid = async () =>
    (await snapshot(api(), emu.rootUid)).groups.find((g) => g.name === "platform")!.uid;
  const editPlatformDescription = async () =>
    call(api(), "PATCH", `/iam/v2beta1/groups/${await platformGroupUid()}?updateMask=description`, {
      name: "platform",
      description: "edited in the console",
    });
  const secretsIn = (text: string) => [emu.token, EXAMPLE_SSO_CLIENT_SECRET].filter((secret) => text.includes(secret));
  const failure = (run: LineRun) => `"${run.line}" (${run.how}) exited ${run.code}:\n${run.stdout}\n${run.stderr}`;

  test("every line of the walk-through's block for CLI users runs, in order: deploy, export, drift caught and repaired, destroy", async () => {
    await start();
    const lines = walkthroughLines();
    // What the test checks around a line beyond its exit code 0; every entry names a line of the block.
    const around: Record<string, { before?: () => Promise<unknown>; after: (run: LineRun) => Promise<void> | void }> = {
      "pulumi preview": {
        after: (run) => {
          expect(run.stdout).toMatch(/Resources:\s+\+ 18 to create/);
          expect(writes()).toEqual([]);
        },
      },
      [FIRST_UP]: {
        after: async (run) => {
          expect(run.stdout).toMatch(/Resources:\s+\+ 18 created/);
          expect((await snapshot(api(), emu.rootUid)).groups.map((g) => g.name)).toContain("engineering");
        },
      },
      "pulumi stack output --json": {
        after: async (run) => {
          const outputs = JSON.parse(run.stdout);
          expect(outputs.tree.teams.platform).toBe(await platformGroupUid());
        },
      },
      "pulumi stack export": {
        after: (run) => {
          const sso = JSON.parse(run.stdout).deployment.resources.find((r: { urn: string }) =>
            r.urn.endsWith("::corporate-sso"),
          );
          expect(sso.inputs.oidc).toMatchObject({ ciphertext: expect.any(String) });
          expect(sso.outputs.oidc).toMatchObject({ ciphertext: expect.any(String) });
          expect(secretsIn(fs.readFileSync(path.join(stack.programDir, "Pulumi.dev.yaml"), "utf8"))).toEqual([]);
        },
      },
      [DRIFT_CHECK]: {
        before: editPlatformDescription,
        after: (run) => {
          expect(run.code).toBe(7);
          expect(run.stdout).toMatch(/~ description\s*: "edited in the console" => "Platform engineering: CI\/CD/);
        },
      },
      [REPAIR]: {
        before: async () => emu.clearRequests(),
        after: async () => {
          expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
            `PATCH /iam/v2beta1/groups/${await platformGroupUid()}`,
          ]);
        },
      },
      "pulumi destroy --yes": {
        after: async () => expect(await snapshot(api(), emu.rootUid)).toEqual(before),
      },
    };
    for (const line of Object.keys(around)) expect(lines).toContain(line);

    const shell = new UserShell(stack, userEnv());
    const ran: LineRun[] = [];
    for (const line of lines) {
      await around[line]?.before?.();
      const run = await shell.run(line);
      ran.push(run);
      if (line !== DRIFT_CHECK && run.code !== 0) throw new Error(failure(run));
      await around[line]?.after(run);
    }
    // The program's lines ran through the Automation API, every other pulumi line as written.
    expect(ran.filter((r) => r.how === "Automation API, same flags").map((r) => r.line)).toEqual(
      lines.filter((line) => /^pulumi (preview|up|destroy)\b/.test(line)),
    );
    expect(ran.filter((r) => r.how === "bash, as written").length).toBeGreaterThanOrEqual(8);
    // Neither secret in any output (nor, above, in the export or the stack's config file).
    for (const run of ran) expect(secretsIn(run.stdout + run.stderr)).toEqual([]);
    // `pulumi stack rm` removed the stack from the backend the walk-through's `pulumi login` chose.
    expect(fs.existsSync(stack.checkpointFile)).toBe(false);
  });

  describe("the GitHub Actions example's job", () => {
    let endpoint: ActionsTokenEndpoint;
    let event: "pull_request" | "push" = "pull_request";
    let identityUid: string;
    const SUBJECT = { pull_request: "repo:acme/infra:pull_request", push: "repo:acme/infra:ref:refs/heads/main" };
    /** The passphrase the walk-through's lines chose for the stack. */
    let passphrase: string;

    // One stack for the job's tests, deployed by the walk-through's lines up to the first `up`:
    // each test leaves the organization as the stack declares it.
    beforeAll(async () => {
      await start();
      endpoint = await startActionsTokenEndpoint(emu, () => SUBJECT[event]);
      // The identity the workflow assumes, trusted for the repository's pull requests and main.
      identityUid = (
        await call(api(), "POST", `/iam/v2beta1/identities/${emu.rootUid}`, {
          name: "github-infra",
          claimMatch: { issuer: emu.issuer, subjectPattern: "repo:acme/infra:(pull_request|ref:refs/heads/main)" },
        })
      ).uid;
      const owner = (await call(api(), "GET", "/iam/v2beta1/roles?name=owner")).roles[0];
      await call(api(), "POST", `/iam/v2beta1/roleBindings/${emu.rootUid}`, { identityUid, roleUid: owner.uid });
      const lines = walkthroughLines();
      const shell = new UserShell(stack, userEnv());
      // Its `pulumi preview` is left out: the first test runs it, and the set-up needs only the up.
      for (const line of lines.slice(0, lines.indexOf(FIRST_UP) + 1).filter((line) => line !== "pulumi preview")) {
        const run = await shell.run(line);
        if (run.code !== 0) throw new Error(failure(run));
      }
      passphrase = shell.exported.PULUMI_CONFIG_PASSPHRASE;
    });
    afterAll(async () => endpoint?.close());

    /** The job for `event`, as GitHub would run it for this repository. */
    function job(passphrase: string): Job {
      return workflowJob(WORKFLOW, "pulumi", {
        github: { event_name: event, ref: event === "push" ? "refs/heads/main" : "refs/pull/7/merge" },
        vars: {
          PLATFORM_API_URL: emu.url,
          PLATFORM_IDENTITY: identityUid,
          PULUMI_STACK: stack.stack,
          // A self-managed backend: the file backend the set-up logged in to.
          PULUMI_BACKEND_URL: `file://${path.join(stack.programDir, "state")}`,
        },
        secrets: { PULUMI_CONFIG_PASSPHRASE: passphrase, PULUMI_ACCESS_TOKEN: "" },
      });
    }

    /** What stands for each action the job uses. */
    const ACTIONS: Record<string, string> = {
      "actions/checkout@v4": "the program's folder, staged",
      "actions/setup-node@v4": "this Node.js",
      "pulumi/actions@v6": "the CLI of npm run -s pulumi-cli, first on PATH",
    };

    /** Runs the job's steps in a fresh shell until one fails, as the runner does. */
    async function runJob(passphrase: string): Promise<{ failedStep?: string; runs: LineRun[] }> {
      const { steps, mayRequestIdToken } = job(passphrase);
      const shell = new UserShell(stack);
      const runs: LineRun[] = [];
      for (const step of steps) {
        if (step.uses !== undefined) {
          expect(ACTIONS).toHaveProperty([step.uses]);
          continue;
        }
        for (const line of step.run!.split("\n").map(withoutComment).filter(Boolean)) {
          const run = await shell.run(line, { ...step.env, ...(mayRequestIdToken ? endpoint.env : {}) });
          runs.push(run);
          if (run.code !== 0) return { failedStep: step.name, runs };
        }
      }
      return { runs };
    }

    test("runs the scheduled drift job as an assumed identity: its Markdown report in the job summary names the console edit and a role binding made by hand, and the job fails with exit 3", async () => {
      const platform = (await snapshot(api(), emu.rootUid)).groups.find((g) => g.name === "platform")!;
      await editPlatformDescription();
      const owner = (await call(api(), "GET", "/iam/v2beta1/roles?name=owner")).roles[0];
      const handMade = (
        await call(api(), "POST", `/iam/v2beta1/roleBindings/${await platformGroupUid()}`, {
          identityUid,
          roleUid: owner.uid,
        })
      ).uid as string;
      // A scheduled run on main presents main's subject.
      event = "push";
      emu.clearRequests();
      const summary = path.join(stack.programDir, "step-summary.md");
      fs.rmSync(summary, { force: true });
      const { steps, mayRequestIdToken } = workflowJob(WORKFLOW, "drift", {
        github: { event_name: "schedule", ref: "refs/heads/main" },
        vars: {
          PLATFORM_API_URL: emu.url,
          PLATFORM_IDENTITY: identityUid,
          PLATFORM_DRIFT_UNDER: emu.rootUid,
          PULUMI_STACK: stack.stack,
          PULUMI_BACKEND_URL: `file://${path.join(stack.programDir, "state")}`,
        },
        secrets: { PULUMI_CONFIG_PASSPHRASE: passphrase, PULUMI_ACCESS_TOKEN: "" },
      });
      expect(mayRequestIdToken).toBe(true);
      const jobShell = new UserShell(stack);
      const runs: LineRun[] = [];
      for (const step of steps.filter((s) => s.run !== undefined))
        for (const line of step.run!.split("\n").map(withoutComment).filter(Boolean))
          runs.push(await jobShell.run(line, { ...step.env, ...endpoint.env, GITHUB_STEP_SUMMARY: summary }));
      // A failure's message says why.
      const outcome = (r: LineRun) =>
        `${r.how}: ${r.line} → ${r.code}${r.code === 0 || r.code === 3 ? "" : ` ${r.stderr}`}`;
      expect(runs.map(outcome)).toEqual([
        "staging: npm ci → 0",
        `bash, as written: pulumi login file://${path.join(stack.programDir, "state")} → 0`,
        `bash, as written: npx platform-pulumi drift --under "$PLATFORM_DRIFT_UNDER" --stack "$PULUMI_STACK" --format markdown >> "$GITHUB_STEP_SUMMARY" → 3`,
      ]);
      const report = fs.readFileSync(summary, "utf8");
      expect(report).toMatch(/^### ⚠️ Drift below `/);
      const changed = report.slice(report.indexOf("#### Changed"), report.indexOf("#### Unmanaged"));
      expect(changed).toContain(`\`${await platformGroupUid()}\``);
      expect(changed).toContain('description: "Platform engineering');
      expect(changed).toContain('"edited in the console"');
      expect(report.slice(report.indexOf("#### Unmanaged"))).toContain(`\`${handMade}\``);
      // Logged in as the identity: GitHub's token exchanged at the API, no static token.
      expect(emu.requests().some((r) => r.path.startsWith("/sts/exchange"))).toBe(true);
      for (const run of runs) expect(secretsIn(run.stdout + run.stderr)).toEqual([]);
      expect(secretsIn(report)).toEqual([]);
      // Back as the stack declares it, for the job's other test.
      await call(api(), "DELETE", `/iam/v2beta1/roleBindings/${handMade}`);
      await call(api(), "PATCH", `/iam/v2beta1/groups/${platform.uid}?updateMask=description`, {
        name: "platform",
        description: platform.description,
      });
    });

    test("passes actionlint", () => {
      expect(actionlint(WORKFLOW)).toEqual({ status: 0, findings: "", stderr: "" });
    });

    test("runs the walk-through's drift check and apply with --stack: a pull request passes clean, fails on a console edit with exit 7, a push to main repairs it, as an assumed identity", async () => {
      const lines = walkthroughLines();
      // The job's pulumi commands are the walk-through's, with --stack.
      for (const e of ["pull_request", "push"] as const) {
        event = e;
        for (const step of job(passphrase).steps.filter((s) => s.run?.includes("--stack")))
          expect(lines).toContain(withoutComment(step.run!).replace(' --stack "$PULUMI_STACK"', ""));
      }

      event = "pull_request";
      const minted = endpoint.minted.length;
      emu.clearRequests();
      const clean = await runJob(passphrase);
      expect(clean.failedStep).toBeUndefined();
      expect(clean.runs.map((r) => `${r.how}: ${r.line}`)).toEqual([
        "staging: npm ci",
        `bash, as written: pulumi login file://${path.join(stack.programDir, "state")}`,
        `Automation API, same flags: pulumi preview --stack "$PULUMI_STACK" --refresh --expect-no-changes --diff`,
      ]);
      // The job logged in as the identity: GitHub's token exchanged at the API, no static token.
      expect(endpoint.minted.length).toBeGreaterThan(minted);
      expect(emu.requests().some((r) => r.path.startsWith("/sts/exchange"))).toBe(true);

      await editPlatformDescription();
      const drift = await runJob(passphrase);
      expect(drift.failedStep).toBe("Drift check (pull requests)");
      expect(drift.runs.at(-1)!.code).toBe(7);
      expect(drift.runs.at(-1)!.stdout).toMatch(/~ description\s*: "edited in the console" => "Platform engineering/);

      event = "push";
      emu.clearRequests();
      const apply = await runJob(passphrase);
      expect(apply.failedStep).toBeUndefined();
      expect(apply.runs.at(-1)!.line).toBe(`pulumi up --stack "$PULUMI_STACK" --refresh --yes`);
      expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
        `PATCH /iam/v2beta1/groups/${await platformGroupUid()}`,
      ]);

      // Repaired: the API holds what the program declares. (That the drift check is then clean again
      // is the whole organization story's: tests/realCli/orgHierarchy.test.ts, its console edits test.)
      expect((await snapshot(api(), emu.rootUid)).groups.find((g) => g.name === "platform")!.description).toMatch(
        /^Platform engineering: CI\/CD/,
      );
      for (const run of [...clean.runs, ...drift.runs, ...apply.runs])
        expect(secretsIn(run.stdout + run.stderr)).toEqual([]);
    });
  });
});
