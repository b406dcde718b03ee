/**
 * The plugin's single executable prints the stack of a failed call in the package's .ts files
 * (through its bundle's source map, native/sourceMappedStacks.ts), not in its minified script.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { pluginArchive } from "./build";
import { nodeExecutableFile } from "./front";
import { withoutPlatformEnv } from "../orgProject";
import { Plugin, startPlugin, unary } from "../../tests/support/pluginClient";

jest.setTimeout(300_000);

let scratch: string;
let plugin: Plugin | undefined;

beforeAll(async () => {
  const archive = await pluginArchive();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-stacks-"));
  execFileSync("tar", ["-xzf", archive.file, "-C", scratch]);
});

afterAll(() => {
  plugin?.client.close();
  plugin?.process.kill("SIGKILL");
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The plugin's stderr once it matches `pattern` (a generous deadline: the pipe may lag the answer). */
async function printed(plugin: Plugin, pattern: RegExp, ms = 20_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (!pattern.test(plugin.stderr())) {
    if (Date.now() > deadline) throw new Error(`the plugin printed no ${pattern} in ${ms} ms: ${plugin.stderr()}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deadline - Date.now());
      plugin.process.stderr!.once("data", () => (clearTimeout(timer), resolve()));
    });
  }
  return plugin.stderr();
}

test("a failed call's stack on the plugin's stderr names the .ts files and lines it ran through", async () => {
  const executable = path.join(scratch, nodeExecutableFile());
  plugin = await startPlugin(executable, ["127.0.0.1:1"], withoutPlatformEnv());
  const request = new providerProto.DeleteRequest();
  request.setUrn("urn:pulumi:dev::stacks::platform:nowhere:Nothing::thing");
  request.setId("thing");
  const error = await unary<providerProto.DeleteRequest, unknown>(
    plugin.client.delete.bind(plugin.client),
    request,
  ).then(
    () => undefined,
    (failed: Grpc.ServiceError) => failed,
  );
  expect(error?.details).toMatch(/no resource type platform:nowhere:Nothing/);
  const stack = await printed(plugin, /no resource type platform:nowhere:Nothing[^]*\n$/);
  // kindOfUrn in native/provider.ts threw it; line and column are the source's, 1-based.
  expect(stack).toMatch(/^ {4}at .*\(native\/provider\.ts:\d+:\d+\)$/m);
  expect(stack).not.toContain(`${executable}:`);
});
