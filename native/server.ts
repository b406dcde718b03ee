/**
 * Serves the native provider with `@pulumi/pulumi/provider`'s `main`, with two gaps of its
 * gRPC server (v3.270.0, provider/server.js) closed around it:
 *
 * - `configure` answers the engine without passing the configuration on (the Provider interface
 *   has no configure), so the provider resource's `platform:*` settings would never reach the
 *   kinds. Here the request's variables (`platform:config:apiUrl`, …) are handed to
 *   provider/settings.ts first, as the dynamic host hands its config to each kind's configure.
 * - `read` calls `req.getProperties().toJavaScript()` unguarded: a Read whose request has no
 *   properties message (an import by an engine that sends none) throws a TypeError before the
 *   provider is called. Here such a request gets an empty one, so read sees `{}`.
 *
 * The server class is not exported, so the guard wraps the service implementation `main` hands
 * to grpc-js (the instance @pulumi/pulumi itself loads): everything else is the SDK's own.
 */
import * as path from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import { main } from "@pulumi/pulumi/provider";
import type * as provider from "@pulumi/pulumi/provider";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import { configureFromPulumi } from "../provider/settings";
import { PACKAGE_NAME } from "./schema";

type Handler = (call: { request: unknown }, callback: (...args: unknown[]) => void) => unknown;
type Implementation = Record<string, Handler>;

/** The configuration variables of a ConfigureRequest, by the keys the kinds read (`platform:apiUrl`). */
export function settingsOf(variables: Iterable<[string, string]>): Map<string, string> {
  const prefix = `${PACKAGE_NAME}:config:`;
  const settings = new Map<string, string>();
  for (const [key, value] of variables)
    if (key.startsWith(prefix)) settings.set(`${PACKAGE_NAME}:${key.slice(prefix.length)}`, value);
  return settings;
}

/** The SDK's implementation with configure passing the settings on and read guarded. */
export function guardedImplementation(implementation: Implementation): Implementation {
  const guarded = Object.create(implementation) as Implementation;
  guarded.configure = function (call, callback) {
    const request = call.request as { getVariablesMap(): { entries(): Iterable<[string, string]> } };
    const settings = settingsOf(request.getVariablesMap().entries());
    configureFromPulumi({ get: (key) => settings.get(key) });
    return implementation.configure.call(this, call, callback);
  };
  guarded.read = function (call, callback) {
    const request = call.request as { hasProperties(): boolean; setProperties(value: StructProto.Struct): void };
    if (!request.hasProperties()) request.setProperties(new (sdkModule<typeof StructProto>(STRUCT).Struct)());
    return implementation.read.call(this, call, callback);
  };
  return guarded;
}

const STRUCT = "google-protobuf/google/protobuf/struct_pb";

/**
 * A dependency of @pulumi/pulumi, the instance it loads itself (grpc-js: the Server class `main`
 * creates): resolved from the SDK's folder, since this package does not depend on it directly.
 */
function sdkModule<T>(id: string): T {
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's instance, resolved from its folder
  return require(require.resolve(id, { paths: [sdkDir] })) as T;
}

/** Starts the gRPC server, prints its port (what the engine reads) and serves until the engine ends it. */
export function serve(impl: provider.Provider, args: string[]): Promise<void> {
  const grpc = sdkModule<typeof Grpc>("@grpc/grpc-js");
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the server as `this`
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, implementation) {
    const wrapped =
      service === providerGrpc.ResourceProviderService
        ? guardedImplementation(implementation as unknown as Implementation)
        : implementation;
    return addService.call(this, service, wrapped as typeof implementation);
  };
  return main(impl, args);
}
