/**
 * The plugin's code (and the CLI's: bundleCli) and every dependency it runs, in one CommonJS file
 * (esbuild), for Node's single-executable applications, whose `require` loads built-in modules only:
 *
 * - the entry maps stack traces through the bundle's source map (native/sourceMappedStacks.ts; the
 *   map is an asset of the executable, SOURCE_MAP_ASSET), then starts native/plugin.ts with the
 *   package's version and its schema written at build time (GetSchema answers that text: the API
 *   document it is written from stays out of the bundle's run-time reads);
 * - native/sdkModules.ts resolves grpc-js and google-protobuf from @pulumi/pulumi's folder at run
 *   time; here it becomes a module that requires each of them resolved from that folder at build
 *   time, so the bundle holds the SDK's own instances (the ones native/server.ts patches);
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

export interface Bundle {
  /** The bundle's JavaScript. */
  code: string;
  /** The package's version, which the plugin answers and the archive is named by. */
  version: string;
  /** The npm packages bundled, `name@version` → license, for the archive's notices. */
  packages: Map<string, string>;
  /** The GetSchema answer written into the plugin's bundle (not the CLI's). */
  schema?: string;
  /** The plugin bundle's source map, to the package's .ts files (no sources' text): SOURCE_MAP_ASSET. */
  sourceMap?: string;
}

/** The name of the plugin bundle's source map among its executable's assets. */
export const SOURCE_MAP_ASSET = "pulumi-resource-platform.js.map";

const DIST_NATIVE = path.join(repoRoot, "dist", "native");
const DIST_EMULATOR = path.join(repoRoot, "dist", "emulator");

/** The name of the API document among the CLI executable's assets (emulator/apiDocumentFile.ts). */
export const API_DOCUMENT_ASSET = "api-v2-schema.json";

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
}

function built(file: string): string {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  return file;
}

async function bundle(entry: string, resolveDir: string, sourcefile: string, plugins: Plugin[], sourceMap = false) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir, sourcefile, loader: "js" },
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
    plugins,
    // Chained through tsc's maps of dist/ to the .ts files, named relative to the repository's root.
    ...(sourceMap && { sourcemap: "external", sourcesContent: false, outfile: path.join(repoRoot, sourcefile) }),
  });
  for (const warning of result.warnings) console.error(`${sourcefile}: ${warning.text}`);
  const map = result.outputFiles.find((file) => file.path.endsWith(".map"));
  const code = result.outputFiles.find((file) => file !== map)!;
  return { code: code.text, map: map?.text, metafile: result.metafile };
}

/** Bundles dist/native (the package must be built). */
export async function bundlePlugin(): Promise<Bundle> {
  built(path.join(DIST_NATIVE, "plugin.js"));
  const version = packageVersion();
  const schema = JSON.stringify(packageSchema(version));
  const { code, map, metafile } = await bundle(
    `require("./sourceMappedStacks.js").mapStackTraces(() => require("node:sea").getAsset(${JSON.stringify(SOURCE_MAP_ASSET)}, "utf8"));\n` +
      `require("./plugin.js").startPlugin(${JSON.stringify(version)}, () => ${JSON.stringify(schema)});\n`,
    DIST_NATIVE,
    "pulumi-resource-platform.js",
    [sdkModulesFromSdk(), leftOut()],
    true,
  );
  return { code, version, packages: bundledPackages(metafile), schema, sourceMap: map };
}

/**
 * Bundles dist/cli.js, every subcommand, as the `platform-pulumi` executable. What the emulator
 * reads from files beside it comes in otherwise: the API document is an asset of the executable
 * (API_DOCUMENT_ASSET), and the OIDC worker thread starts from its own bundle, held as a string.
 */
export async function bundleCli(): Promise<Bundle> {
  const cli = built(path.join(repoRoot, "dist", "cli.js"));
  built(path.join(DIST_EMULATOR, "oidcWorker.js"));
  const worker = await bundle('require("./oidcWorker.js");\n', DIST_EMULATOR, "oidc-worker-entry.js", []);
  const { code, metafile } = await bundle(`require(${JSON.stringify(cli)});\n`, repoRoot, "platform-pulumi.js", [
    sdkModulesFromSdk(),
    leftOut(),
    replaced(/[\\/]dist[\\/]emulator[\\/]apiDocumentFile\.js$/, [
      `exports.DEFAULT_DOCUMENT_PATH = ${JSON.stringify(`the executable's asset ${API_DOCUMENT_ASSET}`)};`,
      `exports.readDefaultDocument = () => require("node:sea").getAsset(${JSON.stringify(API_DOCUMENT_ASSET)}, "utf8");`,
    ]),
    replaced(/[\\/]dist[\\/]emulator[\\/]oidcWorkerStart\.js$/, [
      'const { Worker } = require("node:worker_threads");',
      `exports.startOidcWorker = () => new Worker(${JSON.stringify(worker.code)}, { eval: true });`,
    ]),
  ]);
  const packages = bundledPackages(metafile);
  for (const [name, license] of bundledPackages(worker.metafile)) packages.set(name, license);
  return { code, version: packageVersion(), packages: new Map([...packages].sort(([a], [b]) => a.localeCompare(b))) };
}

/** The compiled module at `filter` as `lines` instead. */
function replaced(filter: RegExp, lines: string[]): Plugin {
  return {
    name: `replaced ${filter.source}`,
    setup(build) {
      build.onLoad({ filter }, () => ({ contents: lines.join("\n") + "\n", loader: "js" }));
    },
  };
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
          `const why = ${JSON.stringify(`${args.path} is not in this single executable (tools/plugin/bundle.ts): neither the plugin nor the CLI serializes closures`)};\n` +
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
