/**
 * The native provider's package schema (native/schema.ts): valid against Pulumi's package
 * metaschema (codegen/schema/pulumi.json of pkg/v3, the CLI's module, from Go's module cache), what
 * `pulumi package get-schema` answers from the plugin, and generated from every described kind
 * with its secrets and replace-on-change inputs.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { withoutPlatformEnv } from "../tools/engine/orgProject";
import { repoRoot } from "../tools/host/stage";
import { pulumiCliDir } from "../tools/pulumi-cli/find";
import { runProcess } from "../tools/runProcess";
import { KINDS } from "../resources/kinds";
import { packageSchema } from "./schema";

jest.setTimeout(120_000);

const CLI_MODULE_DIR = path.join(repoRoot, "tools", "pulumi-cli");
const { version } = require("../../package.json") as { version: string };

/** Pulumi's package metaschema, from the CLI module that tools/pulumi-cli/go.mod pins. */
function metaschema(): object {
  const goMod = fs.readFileSync(path.join(CLI_MODULE_DIR, "go.mod"), "utf8");
  const pinned = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(goMod)![1];
  const answer = spawnSync("go", ["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@${pinned}`], {
    cwd: CLI_MODULE_DIR,
    encoding: "utf8",
    env: { ...process.env, GOWORK: "off" },
  });
  if (answer.status !== 0) throw new Error(`go mod download failed: ${answer.stderr || answer.error?.message}`);
  const { Dir } = JSON.parse(answer.stdout) as { Dir: string };
  return JSON.parse(fs.readFileSync(path.join(Dir, "codegen", "schema", "pulumi.json"), "utf8")) as object;
}

describe("the native provider's package schema", () => {
  test("validates against Pulumi's package metaschema", () => {
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(metaschema());
    expect(validate(packageSchema(version))).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
  });

  test("is what `pulumi package get-schema` answers from the plugin", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-schema-"));
    try {
      const cliDir = pulumiCliDir();
      const answer = await runProcess(
        path.join(cliDir, "pulumi"),
        ["package", "get-schema", path.join(repoRoot, "native", "pulumi-resource-platform")],
        {
          cwd: home,
          env: {
            ...withoutPlatformEnv(),
            PULUMI_HOME: home,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PATH: [cliDir, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
          },
        },
      );
      expect(answer.stderr).toBe("");
      expect(answer.code).toBe(0);
      expect(JSON.parse(answer.stdout)).toEqual(packageSchema(version));
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test("has every described kind, its secrets and its replace-on-change inputs", () => {
    const schema = packageSchema(version);
    const described = KINDS.flatMap((entry) => (entry.provider.kind ? [entry.provider.kind] : []));
    expect(Object.keys(schema.resources).sort()).toEqual(
      described.map((kind) => `platform:${kind.domain}:${kind.typeName}`).sort(),
    );
    const group = schema.resources["platform:iam:Group"];
    expect(group.requiredInputs).toEqual(["parentUid", "name"]);
    expect(group.inputProperties.parentUid).toEqual({ type: "string", replaceOnChanges: true });
    expect(group.properties.uid).toEqual({ type: "string" });
    expect(schema.resources["platform:iam:GroupInvite"].properties.code.secret).toBe(true);
    expect(schema.resources["platform:iam:IdentityProvider"].inputProperties.oidc.secret).toBe(true);
    expect(schema.config.variables.token).toMatchObject({ type: "string", secret: true });
    expect(schema.config.variables.apiUrl.description).toContain("PLATFORM_API_URL");
  });
});
