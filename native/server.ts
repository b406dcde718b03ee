/**
 * Serves the native provider with `@pulumi/pulumi/provider`'s `main`, with two gaps of its
 * gRPC server (v3.270.0, provider/server.js) closed around it:
 *
 * - `configure` answers the engine without passing the configuration on (the Provider interface
 *   has no configure), so the provider resource's `platform:*` settings would never reach the
 *   kinds. Here the request's variables (`platform:config:apiUrl`, …) are handed to
 *   provider/settings.ts first, as the dynamic host hands its config to each kind's configure,
 *   and a setting that breaks its rule (there or in the environment) fails the configure.
 * - `checkConfig` is unimplemented (the engine then keeps whatever the stack config says in the
 *   state): here each setting is checked against its rule, so a URL with credentials in it is
 *   refused before the engine stores the provider's inputs.
 * - `read` calls `req.getProperties().toJavaScript()` unguarded: a Read whose request has no
 *   properties message (an import by an engine that sends none) throws a TypeError before the
 *   provider is called. Here such a request gets an empty one, so read sees `{}`.
 * - The Provider interface has no preview: `configure` leaves supportsPreview unset, so the
 *   engine (CLI v3.274.1, sdk/go/common/resource/plugin/provider_plugin.go) previews an update
 *   itself with the new inputs as the outputs: the updated record's uid reads as unknown, and
 *   every record that takes it (a child's parentUid) previews as replaced though `up` replaces
 *   none. Here configure answers supportsPreview, so the engine calls Update and Create with
 *   `preview: true`; `update` then answers the provider's previewUpdate (the uid kept, no
 *   request) and `create` the inputs as they are, what the engine answered itself before. The
 *   SDK's own handlers would write: they never look at `preview`.
 *
 * - `diff` answers the changes and the replacements but not which properties changed: the engine
 *   then names what differs between the old and new inputs, and an update that writes only a
 *   client secret previews as `[diff: +adopt]`. Here the diff also answers the properties the
 *   provider found changed.
 *
 * The server class is not exported, so the guard wraps the service implementation `main` hands
 * to grpc-js (the instance @pulumi/pulumi itself loads): everything else is the SDK's own, but for
 * the mapping requests of Pulumi's converters, which it leaves unanswered (native/terraformMapping.ts).
 */
import type * as Grpc from "@grpc/grpc-js";
import { main } from "@pulumi/pulumi/provider";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import type * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import type * as Settings from "../provider/settings";
import { PACKAGE_NAME } from "./kinds";
import type { NativeProvider } from "./provider";
import { sdkModule } from "./sdkModules";
import type * as TerraformMapping from "./terraformMapping";

// The settings' rules (with @pulumi/pulumi's index) and the Terraform mapping (with every kind) are
// loaded by the first call that needs them: the handshake waits for neither.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
const settingRules = () => require("../provider/settings") as typeof Settings;

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

/**
 * The SDK's implementation with configure passing the settings on and answering supportsPreview,
 * read guarded, and the previews of update and create answered without writing.
 */
export function guardedImplementation(
  implementation: Implementation,
  previewUpdate: NativeProvider["previewUpdate"],
  diff?: NativeProvider["diff"],
): Implementation {
  // The provider's settings: what Configure gives, then the environment (provider/settings.ts).
  let held: Settings.ProviderSettings | undefined;
  const settings = () => (held ??= settingRules().providerSettings());
  const guarded = Object.create(implementation) as Implementation;
  guarded.checkConfig = function (call, callback) {
    // Each setting's rule, before the engine keeps the provider's inputs in the state: a URL with
    // credentials never reaches it. The inputs go back as they came (the engine restores secrets).
    const request = call.request as providerProto.CheckRequest;
    const news = request.getNews();
    const response = new providerProto.CheckResponse();
    if (news) response.setInputs(news);
    response.setFailuresList(
      settingRules()
        .providerInputIssues(news?.toJavaScript() ?? {})
        .map((reason) => {
          // No property: the engine would print the property's value beside the failure.
          const failure = new providerProto.CheckFailure();
          failure.setReason(reason);
          return failure;
        }),
    );
    callback(undefined, response);
  };
  guarded.configure = function (call, callback) {
    const request = call.request as { getVariablesMap(): { entries(): Iterable<[string, string]> } };
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
    return implementation.configure.call(this, call, (error, response) => {
      (response as providerProto.ConfigureResponse | undefined)?.setSupportspreview(true);
      callback(error, response);
    });
  };
  if (diff)
    guarded.diff = function (call, callback) {
      const request = call.request as providerProto.DiffRequest;
      const { DiffChanges } = providerProto.DiffResponse;
      diff(
        request.getId(),
        request.getUrn(),
        request.getOlds()?.toJavaScript() ?? {},
        request.getNews()?.toJavaScript() ?? {},
      )
        .then((result) => {
          // The SDK's handler, with the changed properties added.
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
          callback(undefined, response);
        })
        .catch((error: unknown) => callback(error, undefined));
    };
  guarded.update = function (call, callback) {
    const request = call.request as providerProto.UpdateRequest;
    if (!request.getPreview()) return implementation.update.call(this, call, callback);
    try {
      const { outs } = previewUpdate(
        request.getId(),
        request.getUrn(),
        request.getOlds()?.toJavaScript() ?? {},
        request.getNews()?.toJavaScript() ?? {},
      );
      const response = new providerProto.UpdateResponse();
      response.setProperties(structOf(outs));
      callback(undefined, response);
    } catch (error) {
      callback(error, undefined);
    }
  };
  guarded.create = function (call, callback) {
    const request = call.request as providerProto.CreateRequest;
    if (!request.getPreview()) return implementation.create.call(this, call, callback);
    // No id yet; the outputs the record will have besides its inputs are unknown to the program.
    const response = new providerProto.CreateResponse();
    const properties = request.getProperties();
    if (properties) response.setProperties(properties);
    callback(undefined, response);
  };
  guarded.read = function (call, callback) {
    const request = call.request as { hasProperties(): boolean; setProperties(value: StructProto.Struct): void };
    if (!request.hasProperties()) request.setProperties(new (sdkModule<typeof StructProto>(STRUCT).Struct)());
    return implementation.read.call(this, call, callback);
  };
  // Every call that reaches the kinds runs on the provider's settings.
  const onSettings = Object.create(guarded) as Implementation;
  for (const name of ["check", "diff", "create", "read", "update", "delete", "invoke"])
    onSettings[name] = function (call, callback) {
      return settingRules().withSettings(settings(), () => guarded[name].call(this, call, callback));
    };
  return onSettings;
}

const STRUCT = "google-protobuf/google/protobuf/struct_pb";

const { Kind: DiffKind } = providerProto.PropertyDiff;
/** A property's change as the engine's kind: [in place, replacing]. */
const PROPERTY_DIFF = {
  add: [DiffKind.ADD, DiffKind.ADD_REPLACE],
  update: [DiffKind.UPDATE, DiffKind.UPDATE_REPLACE],
  delete: [DiffKind.DELETE, DiffKind.DELETE_REPLACE],
} as const;

const structOf = (value: Record<string, unknown>): StructProto.Struct =>
  sdkModule<typeof StructProto>(STRUCT).Struct.fromJavaScript(value as Record<string, StructProto.JavaScriptValue>);

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

/** Starts the gRPC server, prints its port (what the engine reads) and serves until the engine ends it. */
export function serve(impl: NativeProvider, args: string[]): Promise<void> {
  const grpc = sdkModule<typeof Grpc>("@grpc/grpc-js");
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the server as `this`
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, implementation) {
    const wrapped =
      service === providerGrpc.ResourceProviderService
        ? guardedImplementation(
            withLazyMapping(implementation as unknown as Implementation, impl.version ?? ""),
            impl.previewUpdate.bind(impl),
            impl.diff.bind(impl),
          )
        : implementation;
    return addService.call(this, service, wrapped as typeof implementation);
  };
  return main(impl, args);
}
