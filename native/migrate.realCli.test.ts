/**
 * A stack moves from the dynamic resources (`platform.iam.Group`, type
 * `pulumi-nodejs:dynamic/iam:Group`) to the native provider (`platform:iam:Group`) under the REAL
 * Pulumi CLI, on the emulator, with nothing created or deleted in the organization.
 *
 * The way: each resource declared by its native type token with `aliases: [{ type: <its dynamic
 * type> }]`. The alias makes the engine take the old state as the new resource's; the provider
 * changes (pulumi-nodejs's default provider → platform's), and the engine replaces a resource on a
 * provider change only when the new provider's DiffConfig says so: platform's does not implement
 * it, which the engine takes as "no replace" (pkg/resource/deploy step_generator.go,
 * providerChanged). Then platform's Diff, the same lifecycle's diff, sees nothing changed
 * (`__provider` ignored): `up` is all "unchanged" and sends no request. The outputs keep the old
 * `__provider` until the next read: `refresh` drops it (reading each record).
 *
 * The control: the same program without the aliases previews as creates and deletes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { snapshot } from "../tools/orgApi";
import { realCliStack } from "../tools/pulumi-cli/stack";
import type { RealCliStack } from "../tools/pulumi-cli/stack";

jest.setTimeout(600_000);

const PROJECT = "migrate-native";

// The plugin is found in the installed package, as a user's program finds it.
const PULUMI_YAML = `name: ${PROJECT}
runtime: nodejs
plugins:
  providers:
    - name: platform
      path: node_modules/platform-pulumi/native
`;

// One program, three ways (config `${PROJECT}:provider`): the dynamic resources it started with;
// the native ones with the aliases that carry each over; the native ones without (the control).
const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const mode = config.get("provider") ?? "dynamic";

interface GroupArgs { parentUid: pulumi.Input<string>; name: string; description?: string }
interface IdentityArgs { parentUid: pulumi.Input<string>; name: string; claimMatch: { issuer: string; subject: string } }

const native = (type: string, name: string, args: object) =>
  new pulumi.CustomResource(\`platform:iam:\${type}\`, name, args, {
    aliases: mode === "native" ? [{ type: \`pulumi-nodejs:dynamic/iam:\${type}\` }] : [],
  });
const group = (name: string, args: GroupArgs) =>
  mode === "dynamic" ? new platform.iam.Group(name, args) : native("Group", name, args);
const identity = (name: string, args: IdentityArgs) =>
  mode === "dynamic" ? new platform.iam.Identity(name, args) : native("Identity", name, args);

const team = group("team", { parentUid: rootUid, name: "team", description: "moved to the native provider" });
const squad = group("squad", { parentUid: team.id, name: "squad" });
const deployer = identity("deployer", {
  parentUid: team.id,
  name: "deployer",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" },
});
export const uids = [team.id, squad.id, deployer.id];
`;

describe("a stack moves from the dynamic resources to the native provider under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let programDir: string;
  let stack: RealCliStack | undefined;
  const writes = () => emu.requests().filter((r) => r.method !== "GET");
  const api = () => ({ url: emu.url, token: emu.token });

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    programDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-migrate-"));
    fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), PULUMI_YAML);
    fs.writeFileSync(path.join(programDir, "index.ts"), PROGRAM);
  });
  afterAll(async () => {
    stack?.remove();
    await emu?.close();
    if (programDir) fs.rmSync(programDir, { recursive: true, force: true });
  });

  test("aliases with the dynamic type: up changes nothing and sends nothing, refresh drops __provider, no changes after", async () => {
    stack = realCliStack({
      programDir,
      project: PROJECT,
      label: "migrate",
      // The same stack config serves both: the dynamic resources read platform:* at call time,
      // and the native default provider is configured from it.
      config: { "platform:apiUrl": emu.url, [`${PROJECT}:rootUid`]: emu.rootUid },
      secretConfig: { "platform:token": emu.token },
    });
    const resources = () => stack!.checkpoint()!.checkpoint.latest!.resources!;

    const created = await stack.run("up");
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(writes().map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    const dynamic = resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/iam:"));
    expect(dynamic.map((r) => r.type).sort()).toEqual([
      "pulumi-nodejs:dynamic/iam:Group",
      "pulumi-nodejs:dynamic/iam:Group",
      "pulumi-nodejs:dynamic/iam:Identity",
    ]);
    const uids = dynamic.map((r) => r.id).sort();
    const before = await snapshot(api(), emu.rootUid);
    emu.clearRequests();

    // The control: without the aliases the engine sees new resources and old ones to delete.
    const unaliased = await stack.run("preview", { config: { [`${PROJECT}:provider`]: "native-unaliased" } });
    expect(unaliased.code).toBe(0);
    expect(unaliased.stdout).toMatch(/\+ 3 to create/);
    expect(unaliased.stdout).toMatch(/- 3 to delete/);

    const moved = await stack.run("up", { config: { [`${PROJECT}:provider`]: "native" } });
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/Resources:\s+4 unchanged/);
    expect(emu.requests()).toEqual([]);
    const native = resources().filter((r) => r.type.startsWith("platform:iam:"));
    expect(native.map((r) => r.id).sort()).toEqual(uids);
    expect(native.map((r) => r.type).sort()).toEqual([
      "platform:iam:Group",
      "platform:iam:Group",
      "platform:iam:Identity",
    ]);
    // Nothing of the dynamic provider is left but the old outputs' __provider, until a read.
    expect(resources().filter((r) => r.type.includes("pulumi-nodejs"))).toEqual([]);
    expect(native.every((r) => r.inputs!.__provider === undefined)).toBe(true);
    expect(native.every((r) => typeof r.outputs!.__provider === "string")).toBe(true);
    expect(fs.readFileSync(stack.checkpointFile, "utf8")).not.toContain(emu.token);

    const refreshed = await stack.run("refresh");
    expect(refreshed.code).toBe(0);
    expect(fs.readFileSync(stack.checkpointFile, "utf8")).not.toContain("__provider");
    const clean = await stack.run("preview", { refresh: true, expectNoChanges: true });
    expect(clean.stderr).toBe("");
    expect(clean.code).toBe(0);

    // Reads only: no record created, deleted or changed.
    expect(writes()).toEqual([]);
    expect(emu.requests().every((r) => r.method === "GET")).toBe(true);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
  });
});
