/**
 * The plugin's ResourceProviderService (native/server.ts) served in the test's own process, on a
 * loopback port of one grpc-js server, and called with the SDK's own gRPC client: the handlers
 * run where jest's coverage sees them. What it serves is what the plugin serves (native/plugin.ts's
 * lazyProvider); how the plugin process starts is proven by the tests that spawn it (pluginClient.ts).
 */
import type * as Grpc from "@grpc/grpc-js";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { lazyProvider } from "../../native/plugin";
import { sdkModule } from "../../native/sdkModules";
import { providerService } from "../../native/server";

export interface InProcessPlugin {
  client: providerGrpc.ResourceProviderClient;
  /** Closes the client and ends the server at once. */
  close(): void;
}

/** Serves a fresh provider of `version` (its own settings) and connects a client to it. */
export async function serveInProcess(version = "0.0.0", schema?: () => string): Promise<InProcessPlugin> {
  const grpc = sdkModule<typeof Grpc>("@grpc/grpc-js");
  const server = new grpc.Server();
  server.addService(
    providerGrpc.ResourceProviderService,
    providerService(lazyProvider(version, schema)) as unknown as Grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    client,
    close() {
      client.close();
      server.forceShutdown();
    },
  };
}
