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
import { ProgramModel, secretKeysOf } from "./model";
import { writeTypeScript } from "./program";

export const LANGUAGES = ["typescript", "javascript"] as const;
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
  const pulumiYaml = (runtime: string) =>
    YAML.stringify({
      name,
      runtime,
      description,
      ...(secretKeys.length > 0 ? { config: secretConfig(name, secretKeys) } : {}),
    });
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
