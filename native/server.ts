/**
 * Serves the native provider over gRPC: one grpc-js server, the engine's ResourceProviderService
 * answered by the handlers below from the NativeProvider. They answer as @pulumi/pulumi/provider's
 * server (provider/server.js, the same in v3.270.0 and v3.276.0) does, but for what it leaves out:
 *
 * - Configure passes the request's variables (`platform:config:apiUrl`, …) to the provider's
 *   settings (core/transport/settings.ts), which every later call runs on, and fails when a setting
 *   breaks its rule (there or in the environment). It answers supportsPreview.
 * - CheckConfig checks each setting against its rule, so a URL with credentials in it is refused
 *   before the engine stores the provider's inputs.
 * - A Read whose request has no properties message (an import by an engine that sends none) reads
 *   with `{}` instead of failing before the provider is called.
 * - With supportsPreview the engine calls Update and Create with `preview: true`; update answers
 *   the provider's previewUpdate (the uid kept, no request) and create the inputs as they are.
 *   Otherwise the engine previews an update itself with the new inputs as the outputs, the updated
 *   record's uid reads as unknown, and every child taking it previews as replaced.
 * - Diff answers the properties that changed, so a preview names them (not `[diff: +adopt]`).
 * - GetMapping and GetMappings answer the Terraform mapping (native/terraformMapping.ts).
 *
 * Construct, Call and Parameterize are left unimplemented: the provider has none.
 */
import type * as Grpc from "@grpc/grpc-js";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import * as statusProto from "@pulumi/pulumi/proto/status_pb";
import type * as AnyProto from "google-protobuf/google/protobuf/any_pb";
import type * as EmptyProto from "google-protobuf/google/protobuf/empty_pb";
import type * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import type * as Settings from "../core/transport/settings";
import { PACKAGE_NAME } from "./kinds";
import type { NativeProvider } from "./provider";
import { sdkModule } from "./sdkModules";
import type * as TerraformMapping from "./terraformMapping";

// The settings' rules (with @pulumi/pulumi's index) and the Terraform mapping (with every kind) are
// loaded by the first call that needs them: the handshake waits for neither.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
const settingRules = () => require("../core/transport/settings") as typeof Settings;

type Callback = (error: unknown, value?: unknown, trailer?: Grpc.Metadata) => void;
type Handler = (call: { request: unknown }, callback: Callback) => unknown;
type Implementation = Record<string, Handler>;

/** The largest message the engine may send (a schema, a large state): the SDK's servers take as much. */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;

const STRUCT = "google-protobuf/google/protobuf/struct_pb";
const struct = () => sdkModule<typeof StructProto>(STRUCT).Struct;
const empty = () => new (sdkModule<typeof EmptyProto>("google-protobuf/google/protobuf/empty_pb").Empty)();
const structOf = (value: unknown): StructProto.Struct =>
  struct().fromJavaScript(value as Record<string, StructProto.JavaScriptValue>);

/** The configuration variables of a ConfigureRequest, by the keys the kinds read (`platform:apiUrl`). */
export function settingsOf(variables: Iterable<[string, string]>): Map<string, string> {
  const prefix = `${PACKAGE_NAME}:config:`;
  const settings = new Map<string, string>();
  for (const [key, value] of variables)
    if (key.startsWith(prefix)) settings.set(`${PACKAGE_NAME}:${key.slice(prefix.length)}`, value);
  return settings;
}

const { Kind: DiffKind } = providerProto.PropertyDiff;
/** A property's change as the engine's kind: [in place, replacing]. */
const PROPERTY_DIFF = {
  add: [DiffKind.ADD, DiffKind.ADD_REPLACE],
  update: [DiffKind.UPDATE, DiffKind.UPDATE_REPLACE],
  delete: [DiffKind.DELETE, DiffKind.DELETE_REPLACE],
} as const;

/** The check failures of a Check or Invoke answer. */
function failuresOf(failures: ReadonlyArray<{ property?: string; reason: string }> | undefined) {
  return (failures ?? []).map(({ property, reason }) => {
    const failure = new providerProto.CheckFailure();
    if (property !== undefined) failure.setProperty(property);
    failure.setReason(reason);
    return failure;
  });
}

/**
 * A failed create or update as the engine reads it: a record written but not all of it (an `id`,
 * core/runtime/resourceError.ts) goes as an initialization failure, so the engine keeps it in the state.
 */
function writeFailure(error: unknown): { code: number; details: string; metadata: Grpc.Metadata } {
  const grpc = sdkModule<typeof Grpc>("@grpc/grpc-js");
  const { message, id, properties, reasons } = error as {
    message?: string;
    id?: string;
    properties?: unknown;
    reasons?: string[];
  };
  const status = new statusProto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(String(message));
  const metadata = new grpc.Metadata();
  if (id) {
    const detail = new providerProto.ErrorResourceInitFailed();
    detail.setId(id);
    detail.setProperties(structOf(properties ?? {}));
    detail.setReasonsList(reasons ?? []);
    const any = new (sdkModule<typeof AnyProto>("google-protobuf/google/protobuf/any_pb").Any)();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: String(message), metadata };
}

/** Answers `callback` with what `answer` resolves to; an error is printed for the engine's log and passed on. */
function reply(callback: Callback, answer: () => Promise<unknown>, failure?: (error: unknown) => unknown): void {
  answer().then(
    (response) => callback(undefined, response),
    (error: unknown) => {
      if (failure) {
        const status = failure(error) as { metadata: Grpc.Metadata };
        callback(status, null, status.metadata);
        return;
      }
      console.error(error instanceof Error ? `${String(error)}: ${error.stack}` : String(error));
      callback(error, undefined);
    },
  );
}

/** What a handler answers from: the provider, its settings, and a way to run a call on them. */
interface Calls {
  provider: NativeProvider;
  settings: () => Settings.ProviderSettings;
  /** Runs a call that reaches the kinds on the provider's settings. */
  onSettings: <T>(fn: () => Promise<T>) => () => Promise<T>;
}

/** The ResourceProviderService's handlers, answered by `provider`. */
export function providerService(provider: NativeProvider): Implementation {
  // The provider's settings: what Configure gives, then the environment (core/transport/settings.ts).
  let held: Settings.ProviderSettings | undefined;
  const settings = () => (held ??= settingRules().providerSettings());
  const calls: Calls = {
    provider,
    settings,
    onSettings: (fn) => () => settingRules().withSettings(settings(), fn),
  };
  const service: Implementation = {};
  for (const [name, handler] of Object.entries(HANDLERS)) service[name] = handler(calls);
  return withLazyMapping(service, provider.version ?? "");
}

const getPluginInfoHandler =
  ({ provider }: Calls): Handler =>
  (_call, callback) => {
    const response = new pluginProto.PluginInfo();
    response.setVersion(provider.version ?? "");
    callback(undefined, response);
  };

const getSchemaHandler =
  ({ provider }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.GetSchemaRequest;
    if (request.getVersion() !== 0) {
      callback(new Error(`unsupported schema version ${request.getVersion()}`), undefined);
      return;
    }
    reply(callback, async () => {
      const response = new providerProto.GetSchemaResponse();
      response.setSchema(provider.getSchema ? await provider.getSchema() : "{}");
      return response;
    });
  };

const checkConfigHandler = (): Handler => (call, callback) => {
  // Each setting's rule, before the engine keeps the provider's inputs in the state: a URL with
  // credentials never reaches it. The inputs go back as they came (the engine restores secrets).
  const request = call.request as providerProto.CheckRequest;
  const news = request.getNews();
  const response = new providerProto.CheckResponse();
  if (news) response.setInputs(news);
  response.setFailuresList(
    settingRules()
      .providerInputIssues(news?.toJavaScript() ?? {})
      // No property: the engine would print the property's value beside the failure.
      .map((reason) => failuresOf([{ reason }])[0]),
  );
  callback(undefined, response);
};

const configureHandler =
  ({ settings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.ConfigureRequest;
    const variables = settingsOf(request.getVariablesMap().entries());
    settings().configure({ get: (key) => variables.get(key) });
    try {
      // The stack's settings with the environment's where the stack sets none: a broken one stops
      // preview, up, refresh and destroy here, before any resource operation. A configured one
      // that passed no CheckConfig is one the state kept (refresh and destroy configure the
      // provider with the inputs the last update stored): an earlier version let it through.
      settings().refuseBroken(
        "A refresh or destroy uses the settings the last `pulumi up` stored: set it right in the stack's " +
          "config, then run `pulumi up` (or `pulumi refresh --run-program`, which reads the config)",
      );
    } catch (error) {
      callback(error, undefined);
      return;
    }
    const response = new providerProto.ConfigureResponse();
    response.setAcceptsecrets(true);
    response.setAcceptresources(true);
    response.setAcceptoutputs(true);
    response.setSupportspreview(true);
    callback(undefined, response);
  };

const cancelHandler =
  ({ provider }: Calls): Handler =>
  (_call, callback) => {
    reply(callback, async () => {
      await provider.cancel?.();
      return empty();
    });
  };

const attachHandler = (): Handler => (_call, callback) => {
  // The engine's address serves Construct and Call, which this provider has not.
  callback(undefined, empty());
};

const checkHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.CheckRequest;
    reply(
      callback,
      onSettings(async () => {
        const news = request.getNews()?.toJavaScript() ?? {};
        const result = provider.check
          ? await provider.check(request.getUrn(), request.getOlds()?.toJavaScript() ?? {}, news)
          : { inputs: news };
        const response = new providerProto.CheckResponse();
        response.setInputs(structOf(result.inputs ?? news));
        const failures = failuresOf(result.failures);
        if (failures.length) response.setFailuresList(failures);
        return response;
      }),
    );
  };

const diffHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.DiffRequest;
    const { DiffChanges } = providerProto.DiffResponse;
    reply(
      callback,
      onSettings(async () => {
        const result = await provider.diff(
          request.getId(),
          request.getUrn(),
          request.getOlds()?.toJavaScript() ?? {},
          request.getNews()?.toJavaScript() ?? {},
        );
        const response = new providerProto.DiffResponse();
        response.setChanges(
          result.changes === true
            ? DiffChanges.DIFF_SOME
            : result.changes === false
              ? DiffChanges.DIFF_NONE
              : DiffChanges.DIFF_UNKNOWN,
        );
        if (result.replaces?.length) response.setReplacesList([...result.replaces]);
        if (result.deleteBeforeReplace) response.setDeletebeforereplace(true);
        response.setDiffsList([...result.diffs]);
        const details = Object.entries(result.detailedDiff);
        // Detailed, the engine shows each path's old and new value; without, it compares old and
        // new inputs itself, and two secrets compare equal on screen (`[diff: ]`).
        if (details.length > 0) {
          response.setHasdetaileddiff(true);
          const map = response.getDetaileddiffMap();
          for (const [path, change] of details) {
            const property = new providerProto.PropertyDiff();
            property.setKind(PROPERTY_DIFF[change.kind][change.replace ? 1 : 0]);
            // Against the old outputs, which a diff compares the new inputs to.
            property.setInputdiff(false);
            map.set(path, property);
          }
        }
        return response;
      }),
    );
  };

const createHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.CreateRequest;
    const response = new providerProto.CreateResponse();
    if (request.getPreview()) {
      // No id yet; the outputs the record will have besides its inputs are unknown to the program.
      const properties = request.getProperties();
      if (properties) response.setProperties(properties);
      callback(undefined, response);
      return;
    }
    reply(
      callback,
      onSettings(async () => {
        const result = await provider.create!(request.getUrn(), request.getProperties()?.toJavaScript() ?? {});
        response.setId(result.id);
        response.setProperties(structOf(result.outs));
        return response;
      }),
      writeFailure,
    );
  };

const readHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.ReadRequest;
    reply(
      callback,
      onSettings(async () => {
        const response = new providerProto.ReadResponse();
        // No properties message: an import by an engine that sends none, read as `{}`.
        const result = await provider.read!(
          request.getId(),
          request.getUrn(),
          request.getProperties()?.toJavaScript() ?? {},
        );
        response.setId(result.id ?? "");
        response.setProperties(structOf(result.props));
        if (result.inputs !== undefined) response.setInputs(structOf(result.inputs));
        return response;
      }),
    );
  };

const updateHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.UpdateRequest;
    const args = [
      request.getId(),
      request.getUrn(),
      request.getOlds()?.toJavaScript() ?? {},
      request.getNews()?.toJavaScript() ?? {},
    ] as const;
    const response = new providerProto.UpdateResponse();
    if (request.getPreview()) {
      try {
        response.setProperties(structOf(provider.previewUpdate(...args).outs));
        callback(undefined, response);
      } catch (error) {
        callback(error, undefined);
      }
      return;
    }
    reply(
      callback,
      onSettings(async () => {
        const result = (await provider.update!(...args)) ?? {};
        response.setProperties(structOf(result.outs));
        return response;
      }),
      writeFailure,
    );
  };

const deleteHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.DeleteRequest;
    reply(
      callback,
      onSettings(async () => {
        await provider.delete!(request.getId(), request.getUrn(), request.getProperties()?.toJavaScript() ?? {});
        return empty();
      }),
    );
  };

const invokeHandler =
  ({ provider, onSettings }: Calls): Handler =>
  (call, callback) => {
    const request = call.request as providerProto.InvokeRequest;
    reply(
      callback,
      onSettings(async () => {
        const result = await provider.invoke!(request.getTok(), request.getArgs()?.toJavaScript() ?? {});
        const response = new providerProto.InvokeResponse();
        response.setReturn(structOf(result.outputs));
        const failures = failuresOf(result.failures);
        if (failures.length) response.setFailuresList(failures);
        return response;
      }),
    );
  };

/** Each handler of the service by its method, made for one provider. */
const HANDLERS: Record<string, (calls: Calls) => Handler> = {
  getPluginInfo: getPluginInfoHandler,
  getSchema: getSchemaHandler,
  checkConfig: checkConfigHandler,
  configure: configureHandler,
  cancel: cancelHandler,
  attach: attachHandler,
  check: checkHandler,
  diff: diffHandler,
  create: createHandler,
  read: readHandler,
  update: updateHandler,
  delete: deleteHandler,
  invoke: invokeHandler,
};

/** `implementation` with GetMapping and GetMappings answered by native/terraformMapping.ts, loaded by the first. */
function withLazyMapping(implementation: Implementation, version: string): Implementation {
  let mapped: Implementation | undefined;
  const answered = Object.create(implementation) as Implementation;
  for (const name of ["getMappings", "getMapping"])
    answered[name] = function (call, callback) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
      const { withTerraformMapping } = require("./terraformMapping") as typeof TerraformMapping;
      mapped ??= withTerraformMapping(implementation, version);
      return mapped[name].call(this, call, callback);
    };
  return answered;
}

/**
 * Starts the gRPC server, prints its port (what the engine reads) and serves until the engine
 * ends it. An error nothing caught is printed and ends the process with a failure when it exits.
 */
export async function serve(provider: NativeProvider, _args: string[]): Promise<void> {
  let failed = false;
  const uncaught = (error: unknown) => {
    failed = true;
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  };
  process.on("uncaughtException", uncaught);
  process.on("unhandledRejection", uncaught);
  process.on("exit", (code) => {
    if (code === 0 && failed) process.exitCode = 1;
  });
  const grpc = sdkModule<typeof Grpc>("@grpc/grpc-js");
  const server = new grpc.Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES });
  server.addService(
    providerGrpc.ResourceProviderService,
    providerService(provider) as unknown as Grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  // A string: a number would be coloured on a terminal.
  console.log(String(port));
}
