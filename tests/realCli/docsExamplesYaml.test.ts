/**
 * The YAML examples of the reference pages (docs/api/), as the pages hold them, under the REAL
 * Pulumi CLI on the emulator, by plain `pulumi` commands (pulumi-yaml's language host is built
 * beside the CLI), with the native provider found through Pulumi.yaml `plugins.providers`:
 * the Group page's program is deployed (one POST), previews clean with `--refresh
 * --expect-no-changes`, is found by the getGroup page's program, and is destroyed (one DELETE);
 * every other kind's page's program previews, pulumi-yaml checking it against the schema the
 * plugin answers, the provider checking every input, and the look-ups answered by the emulator,
 * with nothing written; so does every listing function's page's program, its function asked of the
 * emulator. Those programs preview together, in one `pulumi preview` of one program holding them
 * all (about 1 s a command, not 27): each page's names prefixed with its own (`p3-team`), each
 * page checked first to name nothing but its own config, variables and resources, so it stands
 * alone as the page holds it. Each kind page's test reads its own resources' lines.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse, stringify } from "yaml";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { pageExamples, PageExamples } from "../../tools/generate/docs/pages";
import { repoRoot } from "../../tools/host/stage";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { plainStack } from "../../tools/pulumi-cli/plainStack";
import { pluginFolder } from "../support/pluginFolder";

jest.setTimeout(600_000);

const pages = pageExamples(path.join(repoRoot, "docs"));
/** A kind's page, not a function's (`get…`). */
const kindPages = pages.filter((page) => !/\/get[A-Z]/.test(page.page));
/** The pages of the functions that list (their programs export the list): they need no record to exist. */
const listPages = pages.filter(
  (page) => /\/get[A-Z]/.test(page.page) && /\$\{all[A-Z]\w*\.\w+\}/.test(page.examples.yaml!),
);
const pageNamed = (page: string) => pages.find((candidate) => candidate.page === page)!;

describe("the reference pages' YAML examples under the real Pulumi CLI, on the emulator", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let cliDir: string;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-docs-yaml-"));
    cliDir = pulumiCliDir();
  });
  afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  type Program = { name: string; config?: Record<string, { secret?: boolean }> };
  const programOf = (page: PageExamples) => parse(page.examples.yaml!) as Program;

  /** Writes a page's program into `folder`'s Pulumi.yaml, the plugin found by path, under `name` if given. */
  function writeProgram(folder: string, page: PageExamples, name?: string) {
    const program = programOf(page);
    const project = {
      ...program,
      name: name ?? program.name,
      plugins: { providers: [{ name: "platform", path: pluginFolder() }] },
    };
    fs.writeFileSync(path.join(folder, "Pulumi.yaml"), stringify(project));
  }

  /** A stack in `folder` whose config holds the provider's settings and a value for each key the programs declare. */
  async function stackIn(folder: string, programs: Program[]) {
    // The stack's config is the only source of the provider's settings.
    const config: Record<string, string> = { "platform:apiUrl": emu.url };
    const secretConfig: Record<string, string> = { "platform:token": emu.token };
    const values: Record<string, string> = { rootUid: emu.rootUid };
    for (const program of programs)
      for (const [key, declared] of Object.entries(program.config ?? {}))
        (declared.secret ? secretConfig : config)[key] = values[key] ?? `${key}-value`;
    const { cli } = await plainStack({ dir: folder, scratch, cliDir, config, secretConfig });
    return cli;
  }

  /** The page's program in a folder and a stack of its own; runs `pulumi` there. */
  async function stackOf(page: PageExamples) {
    const folder = path.join(scratch, page.name);
    fs.mkdirSync(folder);
    writeProgram(folder, page);
    return stackIn(folder, [programOf(page)]);
  }

  const PREVIEWS = "docs-previews";
  let previewCli: Awaited<ReturnType<typeof stackIn>> | undefined;
  /** The stack the previews share, made on first use: its config covers every page's declared keys. */
  async function previewStack(page: PageExamples) {
    const folder = path.join(scratch, PREVIEWS);
    if (!previewCli) {
      fs.mkdirSync(folder);
      writeProgram(folder, page, PREVIEWS);
      previewCli = await stackIn(folder, pages.map(programOf));
    }
    writeProgram(folder, page, PREVIEWS);
    return previewCli;
  }

  const writes = () => emu.requests().filter((request) => request.method !== "GET");

  type Section = "variables" | "resources" | "outputs";
  type Full = Program & Partial<Record<Section, Record<string, unknown>>>;
  /** The roots of a page's `${…}` references: each a config key, variable or resource of the page's own. */
  const references = (page: PageExamples) =>
    [...page.examples.yaml!.matchAll(/\$\{([^}.[]+)/g)].map((match) => match[1]);
  const ownNames = (program: Full) => [
    ...Object.keys(program.config ?? {}),
    ...Object.keys(program.variables ?? {}),
    ...Object.keys(program.resources ?? {}),
  ];
  const prefix = (i: number) => `p${i}-`;
  /** The page's variables, resources and outputs under names prefixed with `p<i>-`, its references too. */
  function prefixed(program: Full, i: number): Record<Section, Record<string, unknown>> {
    const own = new Set([...Object.keys(program.variables ?? {}), ...Object.keys(program.resources ?? {})]);
    const rename = (value: unknown): unknown =>
      typeof value === "string"
        ? value.replace(/\$\{([^}.[]+)/g, (whole, root: string) => (own.has(root) ? `\${${prefix(i)}${root}` : whole))
        : Array.isArray(value)
          ? value.map(rename)
          : value !== null && typeof value === "object"
            ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, rename(v)]))
            : value;
    const section = (name: Section) =>
      Object.fromEntries(Object.entries(program[name] ?? {}).map(([key, v]) => [`${prefix(i)}${key}`, rename(v)]));
    return { variables: section("variables"), resources: section("resources"), outputs: section("outputs") };
  }

  /** Every previewed page's program, prefixed, in one program: previewed once, on first use. */
  const together = [...kindPages.filter((page) => page.page !== "api/iam/group.md"), ...listPages];
  let merged: Promise<{ stdout: string; gets: string[] }> | undefined;
  function mergedPreview() {
    merged ??= (async () => {
      const parts = together.map((page, i) => prefixed(programOf(page) as Full, i));
      const config = Object.assign({}, ...together.map((page) => programOf(page).config ?? {}));
      const program = { name: "docs-merged", runtime: "yaml", config, ...parts[0] };
      for (const section of ["variables", "resources", "outputs"] as const)
        program[section] = Object.assign({}, ...parts.map((part) => part[section]));
      const cli = await previewStack({
        page: "merged",
        name: "merged",
        examples: { yaml: stringify(program) },
      });
      emu.clearRequests();
      const preview = await cli(["preview"]);
      expect(preview.stderr).toBe("");
      expect(preview.code).toBe(0);
      expect(writes()).toEqual([]);
      return { stdout: preview.stdout, gets: emu.requests().map((request) => request.path) };
    })();
    return merged;
  }
  /** The page's program stands alone (it names only its own), and previews: its part of the one preview. */
  async function previewsTogether(page: PageExamples) {
    const program = programOf(page) as Full;
    for (const root of references(page)) expect(ownNames(program)).toContain(root);
    return { ...(await mergedPreview()), i: together.indexOf(page), program };
  }

  test("the Group page's program: up creates the team with one POST, preview --refresh --expect-no-changes is clean, the getGroup page's program finds it, destroy deletes it", async () => {
    const cli = await stackOf(pageNamed("api/iam/group.md"));
    emu.clearRequests();
    const up = await cli(["up", "--yes"]);
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/Resources:\s+\+ 2 created/);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /iam/v2beta1/groups/${emu.rootUid}`,
    ]);
    const outputs = await cli(["stack", "output", "--json"]);
    const { uid } = JSON.parse(outputs.stdout) as { uid: string };
    expect(uid.startsWith(`${emu.rootUid}/`)).toBe(true);

    emu.clearRequests();
    const clean = await cli(["preview", "--refresh", "--expect-no-changes"]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/Resources:\s+2 unchanged/);
    expect(writes()).toEqual([]);

    // The getGroup page's program looks the team up by name below the root and exports its uid.
    const lookup = await stackOf(pageNamed("api/iam/getGroup.md"));
    const found = await lookup(["up", "--yes"]);
    expect(found.code).toBe(0);
    expect(JSON.parse((await lookup(["stack", "output", "--json"])).stdout)).toEqual({ uid });
    expect(writes()).toEqual([]);

    const destroy = await cli(["destroy", "--yes"]);
    expect(destroy.code).toBe(0);
    expect(writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      `DELETE /iam/v2beta1/groups/${uid}`,
    ]);
  });

  test.each(kindPages.filter((page) => page.page !== "api/iam/group.md").map((page) => [page.page, page]))(
    "%s: its program previews, every input checked by the provider and every look-up answered, nothing written",
    async (_page, page) => {
      const { stdout, i, program } = await previewsTogether(page);
      const resources = Object.entries(program.resources ?? {});
      expect(resources.length).toBeGreaterThan(0);
      for (const [name, resource] of resources)
        expect(stdout).toMatch(new RegExp(`\\+ +${(resource as { type: string }).type} +${prefix(i)}${name} +create`));
    },
  );

  test.each(listPages.map((page) => [page.page, page]))(
    "%s: its program previews, the function invoked on the emulator, nothing written",
    async (_page, page) => {
      const { gets } = await previewsTogether(page);
      // The function's own collection asked for (getGroups: .../groups), not just any GET of the preview's.
      const [first, rest] = /\/get(\w)(\w+)\.md$/.exec(page.page)!.slice(1);
      expect(gets.some((path) => path.endsWith(`/${first.toLowerCase()}${rest}`))).toBe(true);
    },
  );

  test("a control: the Group page's program with a name the API refuses fails its preview, naming the property", async () => {
    const page = pageNamed("api/iam/group.md");
    const cli = await stackOf({
      ...page,
      name: "control",
      // A project of its own (the Group page's stack is another's), and a name the API refuses.
      examples: {
        ...page.examples,
        yaml: page.examples.yaml!.replace("name: group-example", "name: control").replace("name: team", "name: Team!"),
      },
    });
    const preview = await cli(["preview"]);
    expect(preview.code).not.toBe(0);
    expect(`${preview.stdout}${preview.stderr}`).toMatch(/name/);
    expect(`${preview.stdout}${preview.stderr}`).toMatch(/\^\[a-z0-9 \._-\]\{1,\}\$/);
  });
});
