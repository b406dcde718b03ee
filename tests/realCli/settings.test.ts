/**
 * The dynamic resources' settings under the REAL Pulumi CLI (tests/programs/settings: one group,
 * no look-up, so the provider's own calls meet the settings first): a setting that breaks its rule
 * (core/transport/settings.ts) stops `preview`, `up`, `refresh` and `destroy` at the provider's
 * configure, before any request, naming the key or the variable and the rule. (What the engine
 * itself stores of the stack config for the dynamic provider is its own: see the last test.)
 */
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { repoRoot } from "../../tools/host/stage";
import { RealCliOperation, RealCliRun, realCliStack, RealCliStack } from "../support/realCli";

jest.setTimeout(300_000);

const PROJECT = "settings";

let emu: RunningEmulator;
let stack: RealCliStack;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  stack = realCliStack({
    programDir: path.join(repoRoot, "tests", "programs", "settings"),
    project: PROJECT,
    label: "settings",
    config: { "platform:apiUrl": emu.url, [`${PROJECT}:rootUid`]: emu.rootUid },
    secretConfig: { "platform:token": emu.token },
  });
  const up = await stack.run("up");
  if (up.code !== 0) throw new Error(`the first up failed: ${up.stdout}${up.stderr}`);
});
afterAll(async () => {
  await emu?.close();
  stack?.remove();
});
beforeEach(() => emu.clearRequests());

/** Everything a command printed. */
const printed = (run: RealCliRun) => run.stdout + run.stderr + run.runnerOutput;

async function refused(operation: RealCliOperation, message: string, env: Record<string, string> = {}) {
  const run = await stack.run(operation, { env });
  expect(run.code).not.toBe(0);
  expect(printed(run)).toContain(message);
  expect(emu.requests()).toEqual([]);
}

test("a stack config value breaking its rule fails preview and up at the provider's configure, before any request", async () => {
  const set = await stack.cli(["config", "set", "platform:timeout", "abc"]);
  expect(set.code).toBe(0);
  try {
    for (const operation of ["preview", "up"] as const)
      await refused(operation, "platform:timeout: must be a number of seconds from 0.1 to 3600");
  } finally {
    expect((await stack.cli(["config", "rm", "platform:timeout"])).code).toBe(0);
  }
});

test("an environment variable breaking its rule fails preview, up, refresh and destroy before any request", async () => {
  for (const operation of ["preview", "up", "refresh", "destroy"] as const)
    await refused(operation, "PLATFORM_API_VERSION: is not an API version; use v2beta1 (the default) or v2", {
      PLATFORM_API_VERSION: "v3",
    });
  const destroy = await stack.run("destroy");
  expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
});

test("a URL with a password fails up at configure, before any request; the engine keeps it in the state all the same", async () => {
  const password = "hunter2-secret";
  expect(
    (await stack.cli(["config", "set", "platform:apiUrl", emu.url.replace("http://", `http://admin:${password}@`)]))
      .code,
  ).toBe(0);
  try {
    await refused("up", "platform:apiUrl: must not carry credentials (user:password@ in the URL)");
    // The engine stores the whole stack config as the inputs of the dynamic resources' provider
    // (pulumi-nodejs), whose CheckConfig is the SDK's and checks nothing: docs/installation-configuration.md
    // says so, and the native provider refuses it before the state (native/settings.realCli.test.ts).
    expect(JSON.stringify(stack.checkpoint())).toContain(password);
  } finally {
    expect((await stack.cli(["config", "set", "platform:apiUrl", emu.url])).code).toBe(0);
  }
});
