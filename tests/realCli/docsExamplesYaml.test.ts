/**
 * The YAML examples of the reference pages (docs/api/), as the pages hold them, under the REAL
 * Pulumi CLI on the emulator, by plain `pulumi` commands (pulumi-yaml's language host is built
 * beside the CLI), with the native provider found through Pulumi.yaml `plugins.providers`:
 * the Group page's program is deployed (one POST), previews clean with `--refresh
 * --expect-no-changes`, is found by the getGroup page's program, and is destroyed (one DELETE);
 * every other kind's page's program previews, pulumi-yaml checking it against the schema the
 * plugin answers, the provider checking every input, and the look-ups answered by the emulator,
 * with nothing written; so does every listing function's page's program. Those previews write no
 * state, so they share one stack: each writes its page's program, renamed to that stack's project,
 * into the stack's Pulumi.yaml before its preview (a stack and its config a page cost two commands).
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

  /** The page's program previews cleanly on the emulator, writing nothing; its output, for more checks. */
  async function previews(page: PageExamples): Promise<string> {
    const cli = await previewStack(page);
    emu.clearRequests();
    const preview = await cli(["preview"]);
    expect(preview.stderr).toBe("");
    expect(preview.code).toBe(0);
    expect(writes()).toEqual([]);
    return preview.stdout;
  }

  test.each(kindPages.filter((page) => page.page !== "api/iam/group.md").map((page) => [page.page, page]))(
    "%s: its program previews, every input checked by the provider and every look-up answered, nothing written",
    async (_page, page) => {
      expect(await previews(page)).toMatch(/Resources:\s+\+ \d+ to create/);
    },
  );

  test.each(listPages.map((page) => [page.page, page]))(
    "%s: its program previews, the function invoked on the emulator, nothing written",
    async (_page, page) => {
      await previews(page);
      expect(emu.requests().some((request) => request.method === "GET")).toBe(true);
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
