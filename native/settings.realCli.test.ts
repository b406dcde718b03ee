/**
 * The native provider's settings are checked when the engine configures it, under the REAL Pulumi
 * CLI, from a YAML project on the emulator (issue 28, case 4): a stack config value that breaks
 * its setting's rule (core/transport/settings.ts) fails `preview` and `up` at CheckConfig, before any
 * request, naming the key and the rule, and never reaches the state (a URL's password included);
 * a broken environment variable fails `preview`, `up`, `refresh` and `destroy` at Configure; once
 * the config is mended, refresh works at once (nothing broken was stored). A state that holds a
 * broken setting (written by an earlier version) fails its refresh saying how to mend it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { yamlStack, YamlStack } from "../tests/support/nativeYamlStack";

jest.setTimeout(600_000);

describe("provider settings are refused when the engine configures the provider (native provider, YAML, real CLI)", () => {
  let emu: RunningEmulator;
  let stack: YamlStack;
  let scratch: string;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-settings-"));
    stack = await yamlStack({
      name: "settings-checks",
      config: { "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token },
    });
    stack.declare({
      resources: {
        team: { type: "platform:iam:Group", properties: { parentUid: emu.rootUid, name: "settings team" } },
      },
    });
    const up = await stack.cli(["up", "--yes"]);
    if (up.code !== 0) throw new Error(`the first up failed: ${up.stdout}${up.stderr}`);
  });
  afterAll(async () => {
    stack?.remove();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    await emu?.close();
  });
  beforeEach(() => emu.clearRequests());

  /** The types of the state's groups, read from the backend's file (no CLI start). */
  const managedGroups = () =>
    (
      JSON.parse(stack.stateText()) as { checkpoint: { latest?: { resources?: Array<{ type: string }> } } }
    ).checkpoint.latest?.resources
      ?.map((r) => r.type)
      .filter((type) => type === "platform:iam:Group");

  /** Runs the command, expecting it to fail with `message` before any request, the group still managed. */
  async function refused(args: string[], message: string, env: Record<string, string> = {}) {
    const run = await stack.cli(args, env);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(message);
    expect(emu.requests()).toEqual([]);
    expect(managedGroups()).toEqual(["platform:iam:Group"]);
    return run.stdout + run.stderr;
  }

  test.each([
    [
      "a URL with a user and password",
      "platform:apiUrl",
      () => emu.url.replace("http://", "http://admin:hunter2-secret@"),
      "platform:apiUrl: must not carry credentials (user:password@ in the URL); give the token with platform:token instead",
    ],
    [
      "a URL with a query",
      "platform:apiUrl",
      () => `${emu.url}/?key=hunter2-secret`,
      "platform:apiUrl: the base URL must not carry a query or fragment",
    ],
    [
      "a URL with a fragment",
      "platform:apiUrl",
      () => `${emu.url}/#hunter2-secret`,
      "platform:apiUrl: the base URL must not carry a query or fragment",
    ],
    [
      "apiVersion v3",
      "platform:apiVersion",
      () => "v3",
      "platform:apiVersion: is not an API version; use v2beta1 (the default) or v2",
    ],
    ["timeout abc", "platform:timeout", () => "abc", "platform:timeout: must be a number of seconds from 0.1 to 3600"],
  ])(
    "%s in the stack config fails preview and up before any request, and never reaches the state",
    async (_what, key, value, message) => {
      // The stack's config file as it was, to put back after (the same as a `config set` or `rm` of the old value).
      const configFile = path.join(stack.dir, "Pulumi.dev.yaml");
      const good = fs.readFileSync(configFile, "utf8");
      const set = await stack.cli(["config", "set", key, value()]);
      expect(set.code).toBe(0);
      try {
        for (const args of [["preview"], ["up", "--yes"]]) {
          const output = await refused(args, message);
          // The value is described, never shown (a password or a pasted token may be in it).
          expect(output).not.toContain(value());
        }
        expect(stack.stateText()).not.toContain(JSON.stringify(value()));
        expect(stack.stateText()).not.toContain("hunter2");
      } finally {
        fs.writeFileSync(configFile, good);
      }
      // Nothing broken was stored: a refresh with the mended config works at once.
      const refresh = await stack.cli(["refresh", "--yes"]);
      expect([refresh.code, refresh.stderr]).toEqual([0, ""]);
    },
  );

  test("a broken environment variable fails preview, up, refresh and destroy at configure, before any request", async () => {
    for (const args of [["preview"], ["up", "--yes"], ["refresh", "--yes"], ["destroy", "--yes"]])
      await refused(args, "PLATFORM_TIMEOUT: must be a number of seconds from 0.1 to 3600", {
        PLATFORM_TIMEOUT: "abc",
      });
  });

  test("a state holding a broken setting (an earlier version's) fails its refresh saying how to mend it; up mends it", async () => {
    const exported = await stack.cli(["stack", "export"]);
    const deployment = JSON.parse(exported.stdout) as {
      deployment: {
        resources: Array<{ type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }>;
      };
    };
    for (const resource of deployment.deployment.resources)
      if (resource.type === "pulumi:providers:platform") {
        resource.inputs.apiVersion = "v3";
        resource.outputs.apiVersion = "v3";
      }
    const file = path.join(scratch, "broken.json");
    fs.writeFileSync(file, JSON.stringify(deployment));
    expect((await stack.cli(["stack", "import", "--file", file])).code).toBe(0);

    const output = await refused(["refresh", "--yes"], "platform:apiVersion: is not an API version");
    expect(output).toContain("A refresh or destroy uses the settings the last `pulumi up` stored");
    const up = await stack.cli(["up", "--yes"]);
    expect([up.code, up.stderr]).toEqual([0, ""]);
    expect(stack.stateText()).not.toContain('"v3"');
    const refresh = await stack.cli(["refresh", "--yes"]);
    expect([refresh.code, refresh.stderr]).toEqual([0, ""]);
  });
});
