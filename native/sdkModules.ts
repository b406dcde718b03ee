/**
 * The dependencies of @pulumi/pulumi that native/server.ts reaches into, as the SDK itself loads
 * them: grpc-js (the Server class the SDK's `main` creates) and google-protobuf's Struct. They are
 * resolved from the SDK's own folder, since this package does not depend on them directly and an
 * install may nest a copy of its own under the SDK.
 *
 * The plugin's single executable (tools/plugin) has no module resolution at run time: its bundler
 * puts this module's place in the hands of one that `require`s each of SDK_MODULE_IDS resolved
 * from the SDK's folder at build time, the same files as below.
 */
import * as path from "node:path";

export const SDK_MODULE_IDS = [
  "@grpc/grpc-js",
  "google-protobuf/google/protobuf/struct_pb",
  "google-protobuf/google/protobuf/empty_pb",
  "google-protobuf/google/protobuf/any_pb",
] as const;
export type SdkModuleId = (typeof SDK_MODULE_IDS)[number];

/** One of SDK_MODULE_IDS, the instance @pulumi/pulumi loads. */
export function sdkModule<T>(id: SdkModuleId): T {
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's instance, resolved from its folder
  return require(require.resolve(id, { paths: [sdkDir] })) as T;
}
