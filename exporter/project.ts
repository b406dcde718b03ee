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
 * YAML and Python programs run on the native provider `platform`, whose plugin the user installs
 * once from its release archive (`pulumi plugin install resource platform <version> --file …`):
 * Pulumi.yaml names no path to it (the engine finds an installed plugin by name; for Python the
 * SDK names its version) and nothing asks for Node.js or npm. A comment in Pulumi.yaml and the
 * command's output say how to install it.
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

/**
 * How a YAML or Python project's plugin is installed: the release archive of this version, as
 * docs/guides/plugin-install.md says (`<os>-<arch>`: linux-amd64, darwin-arm64, windows-amd64…).
 */
export function pluginInstallCommand(version: string = ownPackage().version): string {
  return `pulumi plugin install resource platform ${version} --file pulumi-resource-platform-v${version}-<os>-<arch>.tar.gz`;
}

/** The comment above a YAML or Python project's `runtime`: which plugin it runs on and how to install it. */
function pluginComment(): string[] {
  const { version } = ownPackage();
  return [
    `Runs on the native provider \`platform\` ${version}, installed once from its release archive`,
    `(docs/guides/plugin-install.md):`,
    `  ${pluginInstallCommand(version)}`,
  ];
}

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
  if (language === "yaml") return { "Pulumi.yaml": writeYaml(model, { name, description, plugin: pluginComment() }) };
  const pulumiYaml = (runtime: string, comment: string[] = []) => {
    const doc = new YAML.Document({
      name,
      runtime,
      description,
      ...(secretKeys.length > 0 ? { config: secretConfig(name, secretKeys) } : {}),
    });
    if (comment.length > 0)
      ((doc.contents as YAML.YAMLMap).items[1].key as YAML.Scalar).commentBefore = comment
        .map((line) => ` ${line}`)
        .join("\n");
    return doc.toString();
  };
  if (language === "python")
    return {
      "Pulumi.yaml": pulumiYaml("python", pluginComment()),
      "__main__.py": writePython(model, packageSchema(ownPackage().version)),
      "requirements.txt": requirements(),
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

function requirements(): string {
  return [
    "pulumi>=3.269.0,<4.0.0",
    "# pulumi_platform, the native provider's Python SDK, is generated from its installed plugin (Pulumi.yaml):",
    `#   pulumi package gen-sdk platform@${ownPackage().version} --language python --out sdk`,
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
