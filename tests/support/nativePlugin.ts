/**
 * The native provider's plugin as the CLI runs it (native/pulumi-resource-platform, or another
 * command), its port read from the first line it prints, called with the SDK's own gRPC client.
 * No PLATFORM_* variable reaches it: its settings come through Configure.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { repoRoot } from "../../tools/host/stage";
import { withoutPlatformEnv } from "../../tools/orgProject";

export const LAUNCHER = path.join(repoRoot, "native", "pulumi-resource-platform");

/** The SDK's own copy of grpc-js: its client classes are the ones provider_grpc_pb was built with. */
const grpc = require(
  require.resolve("@grpc/grpc-js", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }),
) as typeof Grpc;

export interface Plugin {
  process: ChildProcess;
  client: providerGrpc.ResourceProviderClient;
  stderr: () => string;
}

/** Starts a plugin process, reads the port it prints, and connects to it. */
export function startPlugin(command: string = LAUNCHER, args: string[] = []): Promise<Plugin> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: withoutPlatformEnv(), stdio: ["ignore", "pipe", "pipe"] });
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

/** One unary call of the plugin's client, as a promise. */
export function unary<Req, Res>(
  method: (req: Req, cb: (error: Grpc.ServiceError | null, res: Res) => void) => unknown,
  req: Req,
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => method(req, (error, res) => (error ? reject(error) : resolve(res))));
}
