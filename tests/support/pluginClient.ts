/**
 * A resource plugin started as the CLI starts one (its port read from its first line of output)
 * and called with the SDK's own gRPC client: for the tests that speak to the plugin on the wire.
 * No PLATFORM_* variable reaches it unless given: its settings come through Configure.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";

/** The native provider's plugin as the CLI runs it from this repository. */
export const LAUNCHER = path.join(repoRoot, "native", "pulumi-resource-platform");

// The grpc-js instance @pulumi/pulumi loads, whose classes the generated client expects.
const grpc = require(
  require.resolve("@grpc/grpc-js", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }),
) as typeof Grpc;

export interface Plugin {
  process: ChildProcess;
  client: providerGrpc.ResourceProviderClient;
  stderr: () => string;
}

/** Starts a plugin process, reads the port it prints, and connects to it. */
export function startPlugin(
  command: string = LAUNCHER,
  args: string[] = [],
  env: NodeJS.ProcessEnv = withoutPlatformEnv(),
): Promise<Plugin> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port: ${stderr}`)));
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const port = /^(\d+)\n/.exec(stdout)?.[1];
      if (!port) return;
      const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      resolve({ process: child, client, stderr: () => stderr });
    });
  });
}

export function unary<Req, Res>(
  method: (req: Req, cb: (error: Grpc.ServiceError | null, res: Res) => void) => unknown,
  req: Req,
) {
  return new Promise<Res>((resolve, reject) => method(req, (error, res) => (error ? reject(error) : resolve(res))));
}

/** GetMappings for `key`: the providers the plugin maps. */
export async function getMappings(client: providerGrpc.ResourceProviderClient, key: string): Promise<string[]> {
  const request = new providerProto.GetMappingsRequest();
  request.setKey(key);
  const response = await unary<providerProto.GetMappingsRequest, providerProto.GetMappingsResponse>(
    client.getMappings.bind(client),
    request,
  );
  return response.getProvidersList();
}

/** GetMapping for `key` and `provider`: the provider answered, and its mapping's data as text. */
export async function getMapping(
  client: providerGrpc.ResourceProviderClient,
  key: string,
  provider: string,
): Promise<{ provider: string; data: string }> {
  const request = new providerProto.GetMappingRequest();
  request.setKey(key);
  request.setProvider(provider);
  const response = await unary<providerProto.GetMappingRequest, providerProto.GetMappingResponse>(
    client.getMapping.bind(client),
    request,
  );
  return { provider: response.getProvider(), data: Buffer.from(response.getData_asU8()).toString("utf8") };
}
