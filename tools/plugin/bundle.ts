/**
 * The plugin's code and every dependency it runs, in one CommonJS file (esbuild), for Node's
 * single-executable applications, whose `require` loads built-in modules only:
 *
 * - the entry starts native/plugin.ts with the package's version and its schema written now
 *   (GetSchema answers that text: the API document it is written from stays out of the bundle's
 *   run-time reads);
 * - native/sdkModules.ts resolves grpc-js and google-protobuf from @pulumi/pulumi's folder at run
 *   time; here it becomes a module that requires each of them resolved from that folder now, so
 *   the bundle holds the SDK's own instances (the ones native/server.ts patches);
 * - what @pulumi/pulumi loads only to serialize a program's closures (TypeScript's compiler, npm's
 *   arborist for a program's dependency tree) is left out: a provider plugin never serializes a
 *   closure, and the two are four fifths of the bundle. Each is replaced by a module that throws,
 *   naming itself, if anything ever uses it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Metafile, Plugin } from "esbuild";
import { repoRoot } from "../host/stage";
import { packageSchema } from "../../native/schema";
import { SDK_MODULE_IDS } from "../../native/sdkModules";

/** Packages the plugin never runs (see above): each becomes a module that throws when used. */
export const LEFT_OUT = ["typescript", "@npmcli/arborist"] as const;

export interface PluginBundle {
  /** The bundle's JavaScript. */
  code: string;
  /** The package's version, which the plugin answers and the archive is named by. */
  version: string;
  /** The npm packages bundled, `name@version` → license, for the archive's notices. */
  packages: Map<string, string>;
}

const DIST_NATIVE = path.join(repoRoot, "dist", "native");

/** Bundles dist/native (the package must be built). */
export async function bundlePlugin(): Promise<PluginBundle> {
  const entry = path.join(DIST_NATIVE, "plugin.js");
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first`);
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  const schema = JSON.stringify(packageSchema(version));
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: {
      contents: `require("./plugin.js").startPlugin(${JSON.stringify(version)}, () => ${JSON.stringify(schema)});\n`,
      resolveDir: DIST_NATIVE,
      sourcefile: "pulumi-resource-platform.js",
      loader: "js",
    },
    absWorkingDir: repoRoot,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    keepNames: true,
    legalComments: "none",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [sdkModulesFromSdk(), leftOut()],
  });
  for (const warning of result.warnings) console.error(`plugin bundle: ${warning.text}`);
  return { code: result.outputFiles[0].text, version, packages: bundledPackages(result.metafile) };
}

/** native/sdkModules.js as requires of the SDK's own dependencies, resolved from the SDK's folder. */
function sdkModulesFromSdk(): Plugin {
  return {
    name: "sdk-modules",
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/]native[\\/]sdkModules\.js$/ }, () => {
        const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [repoRoot] }));
        const entries = SDK_MODULE_IDS.map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(id)}),`);
        return {
          contents: [
            "const modules = {",
            ...entries,
            "};",
            "exports.SDK_MODULE_IDS = Object.keys(modules);",
            "exports.sdkModule = (id) => modules[id]();",
            "",
          ].join("\n"),
          resolveDir: sdkDir,
          loader: "js",
        };
      });
    },
  };
}

function leftOut(): Plugin {
  const names = new RegExp(`^(${LEFT_OUT.map((name) => name.replace(/[/.]/g, "\\$&")).join("|")})(/.*)?$`);
  return {
    name: "left-out",
    setup(build) {
      build.onResolve({ filter: names }, (args) => ({ path: args.path, namespace: "left-out" }));
      build.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
        contents:
          `const why = ${JSON.stringify(`${args.path} is not in the platform plugin's executable (tools/plugin/bundle.ts): a provider never serializes closures`)};\n` +
          "module.exports = new Proxy({}, { get(_target, key) { if (key === '__esModule' || typeof key === 'symbol') return undefined; throw new Error(why); } });\n",
        loader: "js",
      }));
    },
  };
}

/** `name@version` → license of each npm package with a file in the bundle. */
function bundledPackages(metafile: Metafile): Map<string, string> {
  const found = new Map<string, string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(input);
    if (!match) continue;
    const manifest = path.join(repoRoot, match[1], "package.json");
    if (!fs.existsSync(manifest)) continue;
    const { name, version, license } = JSON.parse(fs.readFileSync(manifest, "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    found.set(`${name}@${version}`, license ?? "see the package");
  }
  return new Map([...found].sort(([a], [b]) => a.localeCompare(b)));
}
