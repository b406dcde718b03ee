/**
 * The native provider's package schema (native/schema.ts): valid against Pulumi's package
 * metaschema (codegen/schema/pulumi.json of pkg/v3, the CLI's module, from Go's module cache), what
 * `pulumi package get-schema` answers from the plugin, generated from every kind with its docs,
 * secrets, replace-on-change inputs, enums and maps, and declaring exactly the functions the
 * provider answers.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { withoutPlatformEnv } from "../tools/orgProject";
import { repoRoot } from "../tools/host/stage";
import { pulumiCliDir } from "../tools/pulumi-cli/find";
import { runProcess } from "../tools/runProcess";
import { KINDS } from "../resources/kinds";
import { startEmulator } from "../emulator";
import groupKind from "../resources/iam/group/description";
import { nativeProvider } from "./provider";
import { importDocOf, importSection } from "./importDocs";
import { EnumTypeSpec, ObjectTypeSpec, packageSchema } from "./schema";
import { describedKinds } from "./kinds";

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

  test("carries what a published package carries, from package.json", () => {
    const manifest = require("../../package.json") as { homepage: string; license: string };
    const schema = packageSchema(version);
    expect(schema).toMatchObject({
      name: "platform",
      version,
      publisher: "platform-pulumi",
      displayName: expect.any(String),
      description: expect.any(String),
      homepage: manifest.homepage.replace(/#.*$/, ""),
      repository: "https://github.com/platform-pulumi/platform-pulumi",
      license: manifest.license,
      // The releases the workflow attaches the archives to: the scheme's own default repository
      // would be pulumi-platform, so the repository is named.
      pluginDownloadURL: "github://api.github.com/platform-pulumi/platform-pulumi",
    });
    expect(schema.keywords).toEqual(expect.arrayContaining(["pulumi", "kind/native"]));
    expect(schema.keywords.filter((keyword) => keyword.startsWith("category/"))).toHaveLength(1);
  });

  test("ends each resource's description with its Import section: the id form and a pulumi import line", () => {
    const schema = packageSchema(version);
    for (const kind of describedKinds()) {
      const doc = importDocOf(kind);
      const description = schema.resources[doc.token].description!;
      expect([doc.token, description.endsWith(importSection(kind))]).toEqual([doc.token, true]);
      expect(description).toMatch(/\n\n## Import\n\n/);
      if (doc.importable) expect(description).toContain(`$ pulumi import ${doc.token} `);
    }
    expect(schema.resources["platform:iam:Role"].description).toContain(
      "$ pulumi import platform:iam:Role role <parentUid>/<uid>",
    );
    expect(schema.resources["platform:iam:Group"].description).toContain(
      "$ pulumi import platform:iam:Group group <uid>",
    );
    expect(schema.resources["platform:iam:GroupInvite"].description).toMatch(
      /## Import\n\nA group invite cannot be imported: its code is answered only when it is created/,
    );
  });

  test("passes `pulumi schema check` under the real CLI", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-schema-check-"));
    try {
      const file = path.join(home, "schema.json");
      fs.writeFileSync(file, JSON.stringify(packageSchema(version)));
      const answer = await runProcess(path.join(pulumiCliDir(), "pulumi"), ["schema", "check", file], {
        cwd: home,
        env: { ...withoutPlatformEnv(), PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
      });
      expect(answer).toEqual({ code: 0, stdout: "", stderr: "" });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
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

  test("has every kind of the kind list, its docs, secrets, replace-on-change inputs, enums and maps", () => {
    const schema = packageSchema(version);
    expect(Object.keys(schema.resources).sort()).toEqual(
      KINDS.map(({ provider }) => `platform:${provider.kind!.domain}:${provider.kind!.typeName}`).sort(),
    );
    const group = schema.resources["platform:iam:Group"];
    const groupDescribed = describedKinds().find((kind) => kind.typeName === "Group")!;
    expect(group.description).toBe(
      `${groupKind.docs!.summary.replace(/\n/g, " ")}\n\n${importSection(groupDescribed)}`,
    );
    expect(group.requiredInputs).toEqual(["parentUid", "name"]);
    expect(group.inputProperties.parentUid).toMatchObject({ type: "string", replaceOnChanges: true });
    expect(group.inputProperties.parentUid.description).toBe(groupKind.docs!.fields!.parentUid);
    expect(group.properties.uid).toMatchObject({ type: "string" });
    expect(group.properties.parentUid).not.toHaveProperty("replaceOnChanges");
    expect(schema.resources["platform:iam:GroupInvite"].properties.code.secret).toBe(true);
    expect(schema.resources["platform:iam:IdentityProvider"].inputProperties.oidc.secret).toBe(true);
    expect(schema.resources["platform:iam:ScimToken"].inputProperties.identityProviderUid.replaceOnChanges).toBe(true);
    // Enums are enum types with the values check takes.
    const capabilities = schema.resources["platform:iam:Role"].inputProperties.capabilities;
    const capability = schema.types[capabilities.items!.$ref!.replace("#/types/", "")];
    expect(capability).toMatchObject({ type: "string" });
    expect((capability as EnumTypeSpec).enum.map((e) => e.value)).toContain("CAP_IAM_GROUPS_LIST");
    // Maps are maps of their values, never Any.
    const claimMatch = schema.types[
      schema.resources["platform:iam:Identity"].inputProperties.claimMatch.$ref!.replace("#/types/", "")
    ] as ObjectTypeSpec;
    expect(claimMatch.properties.claims).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
    expect(schema.config.variables.token).toMatchObject({ type: "string", secret: true });
    expect(schema.config.variables.apiUrl.description).toContain("PLATFORM_API_URL");
  });

  test("declares exactly the functions the provider answers, each answering as declared", async () => {
    const schema = packageSchema(version);
    const provider = nativeProvider(version);
    const unknown = await provider.invoke!("platform:iam:getNothing", {});
    const answered = /it has (.*)$/.exec(unknown.failures![0].reason)![1].split(", ");
    expect(answered.sort()).toEqual(Object.keys(schema.functions).sort());
    for (const token of ["platform:iam:getRole", "platform:iam:getRoles", "platform:registry:getTags"])
      expect(schema.functions).toHaveProperty([token]);
    // The package's own look-ups keep their own arguments (getTags' repoUid, getRole without uid).
    expect(schema.functions["platform:registry:getTags"].inputs.properties).toHaveProperty("repoUid");
    expect(schema.functions["platform:iam:getRole"].inputs.required).toEqual(["name"]);

    const emu = await startEmulator({ quiet: true });
    const saved = { url: process.env.PLATFORM_API_URL, token: process.env.PLATFORM_TOKEN };
    try {
      process.env.PLATFORM_API_URL = emu.url;
      process.env.PLATFORM_TOKEN = emu.token;
      // Every list form answers its declared key.
      for (const [token, spec] of Object.entries(schema.functions)) {
        if (spec.inputs.required?.length || spec.outputs.properties.uid) continue;
        const answer = await provider.invoke!(token, {});
        expect([token, answer.failures ?? []]).toEqual([token, []]);
        expect(Object.keys(answer.outputs)).toEqual(spec.outputs.required);
      }
      const [listed] = (await provider.invoke!("platform:iam:getGroups", {})).outputs!.groups as Array<{ uid: string }>;
      const one = await provider.invoke!("platform:iam:getGroup", { uid: listed.uid });
      expect(one.outputs).toMatchObject({ uid: listed.uid });
      for (const key of Object.keys(one.outputs))
        expect([key, schema.functions["platform:iam:getGroup"].outputs.properties]).toEqual([
          key,
          expect.objectContaining({ [key]: expect.anything() }),
        ]);
    } finally {
      for (const [key, value] of [
        ["PLATFORM_API_URL", saved.url],
        ["PLATFORM_TOKEN", saved.token],
      ] as const)
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      await emu.close();
    }
  });
});
