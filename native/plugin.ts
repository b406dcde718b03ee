/**
 * Runs the native provider plugin `platform` as the engine starts it: with the engine's address
 * as the argument, printing the port it serves on. The launcher (native/main.ts) and the plugin's
 * single executable (tools/plugin) both start here.
 *
 * The engine waits for the port before anything else, and `pulumi package get-schema` for no more
 * than the schema: the provider (every kind, its models and the client) is loaded by the first
 * call that needs it.
 */
import type * as Native from "./provider";
import { serve } from "./server";

/** The operations the SDK's server asks the provider for, besides the schema. */
const OPERATIONS = ["check", "diff", "create", "read", "update", "previewUpdate", "delete", "invoke"] as const;

/** The native provider, loaded on its first operation (or on GetSchema when `schema` is not given). */
export function lazyProvider(version: string, schema?: () => string): Native.NativeProvider {
  let loaded: Native.NativeProvider | undefined;
  const real = (): Native.NativeProvider => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
    loaded ??= (require("./provider") as typeof Native).nativeProvider(version, schema);
    return loaded;
  };
  const provider: Record<string, unknown> = {
    version,
    getSchema: schema ? () => Promise.resolve(schema()) : () => real().getSchema!(),
  };
  for (const name of OPERATIONS)
    provider[name] = (...args: unknown[]) => (real()[name] as (...args: unknown[]) => unknown)(...args);
  return provider as unknown as Native.NativeProvider;
}

/** Set by the plugin archive's front (native/front), which holds this process's stdin open while it runs. */
export const FRONT_ENV = "PLATFORM_PULUMI_PLUGIN_FRONT";

/**
 * Serves until the engine ends the process; `schema` is the GetSchema answer when known in advance.
 * Started by the front, it ends when its stdin closes: the front ended, however it ended.
 */
export function startPlugin(version: string, schema?: () => string): void {
  serve(lazyProvider(version, schema), process.argv.slice(2))
    // Watched once the port is out: a front gone sooner is seen then, at once.
    .then(() => process.env[FRONT_ENV] === "1" && endWithStdin())
    .catch((error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    });
}

function endWithStdin(): void {
  process.stdin.on("end", () => process.exit(0));
  process.stdin.on("error", () => process.exit(0));
  process.stdin.resume();
}
