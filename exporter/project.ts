/**
 * The project an export writes around its program, complete for its language: Pulumi.yaml (with
 * the secrets the program reads declared as secret config), and for
 *
 * - TypeScript / JavaScript: index.ts (and tsconfig.json) or index.js, and package.json with the
 *   package and the SDK;
 * - YAML: Pulumi.yaml is the program (runtime yaml), on the native provider's plugin;
 * - Python: `__main__.py` (runtime python) on the native provider's Python SDK, and
 *   requirements.txt.
 *
 * YAML and Python programs run on the native provider `platform`, whose plugin ships in this
 * package: their package.json installs it, and Pulumi.yaml points the CLI at it
 * (`plugins.providers`, as README's "The native provider" says).
 */
import * as YAML from "yaml";
import { packageSchema } from "../native/schema";
import { ProgramModel, secretKeysOf } from "./model";
import { writeTypeScript } from "./program";
import { writePython } from "./pythonProgram";
import { writeYaml } from "./yamlProgram";

export const LANGUAGES = ["typescript", "javascript", "yaml", "python"] as const;
export type Language = (typeof LANGUAGES)[number];

/** Every file an export of any language may write: a folder holding one is not written into. */
export const PROJECT_FILES = [
  "Pulumi.yaml",
  "package.json",
  "tsconfig.json",
  "index.ts",
  "index.js",
  "__main__.py",
  "requirements.txt",
];

/** Where a YAML or Python project finds the native provider's plugin once `npm install` has run. */
export const PLUGIN_PATH = "node_modules/platform-pulumi/native";

export interface ProjectOptions {
  language: Language;
  /** The Pulumi project's name. */
  name: string;
  description: string;
}

interface OwnPackage {
  version: string;
  dependencies: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside the compiled tree
const ownPackage = (): OwnPackage => require("../../package.json") as OwnPackage;

/** The project's files by name. */
export function projectFiles(model: ProgramModel, options: ProjectOptions): Record<string, string> {
  const { language, name, description } = options;
  const secretKeys = secretKeysOf(model);
  if (language === "yaml")
    return {
      "Pulumi.yaml": writeYaml(model, { name, description, pluginPath: PLUGIN_PATH }),
      "package.json": pluginPackageJson(name),
    };
  const pulumiYaml = (runtime: string, extra: Record<string, unknown> = {}) =>
    YAML.stringify({
      name,
      runtime,
      description,
      ...extra,
      ...(secretKeys.length > 0 ? { config: secretConfig(name, secretKeys) } : {}),
    });
  if (language === "python")
    return {
      "Pulumi.yaml": pulumiYaml("python", { plugins: { providers: [{ name: "platform", path: PLUGIN_PATH }] } }),
      "__main__.py": writePython(model, packageSchema(ownPackage().version)),
      "requirements.txt": requirements(),
      "package.json": pluginPackageJson(name),
    };
  const js = language === "javascript";
  return {
    "Pulumi.yaml": pulumiYaml("nodejs"),
    "package.json": JSON.stringify(packageJson(name, js), null, 2) + "\n",
    [js ? "index.js" : "index.ts"]: writeTypeScript(model, { js }),
    ...(js ? {} : { "tsconfig.json": JSON.stringify(TSCONFIG, null, 2) + "\n" }),
  };
}

/** Declared in Pulumi.yaml so `pulumi up` asks for them: set each with `pulumi config set --secret`. */
function secretConfig(project: string, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [`${project}:${key}`, { type: "string", secret: true }]));
}

function packageJson(name: string, js: boolean): Record<string, unknown> {
  const own = ownPackage();
  return {
    name,
    private: true,
    main: js ? "index.js" : "index.ts",
    dependencies: {
      "@pulumi/pulumi": own.dependencies["@pulumi/pulumi"],
      "platform-pulumi": `^${own.version}`,
    },
    ...(js ? {} : { devDependencies: { "@types/node": "^20.0.0", typescript: "^5.0.0" } }),
  };
}

/** A YAML or Python project's package.json: `npm install` brings the plugin (PLUGIN_PATH). */
function pluginPackageJson(name: string): string {
  const manifest = {
    name,
    private: true,
    description: "Installs the native provider's plugin, which Pulumi.yaml points at (plugins.providers)",
    dependencies: { "platform-pulumi": `^${ownPackage().version}` },
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

function requirements(): string {
  return [
    "pulumi>=3.269.0,<4.0.0",
    "# pulumi_platform, the native provider's Python SDK, is generated from its plugin (after npm install):",
    `#   pulumi package gen-sdk ${PLUGIN_PATH}/pulumi-resource-platform --language python --out sdk`,
    "# then installed with this file:",
    "./sdk/python",
    "",
  ].join("\n");
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2020",
    module: "commonjs",
    moduleResolution: "node",
    esModuleInterop: true,
    skipLibCheck: true,
    outDir: "bin",
  },
  files: ["index.ts"],
};
