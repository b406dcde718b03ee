/**
 * What `pulumi import` of the native provider accepts, under the REAL Pulumi CLI, from a YAML
 * project on the emulator (issue 28, cases 3 and 5): a record is accepted only where its import id
 * places it, and a record that is not there fails saying which one of which kind.
 *
 * - a role's id `<group>/<role>` names that group's own custom role: another group's role, a
 *   built-in role (pointing to getRole) and an id with a segment too many are refused;
 * - a uid that names no record, or a record of another kind, fails naming the kind and the uid,
 *   not with the CLI's "provider does not support importing resources";
 * - and how many times an import reads the record (the README says it).
 *
 * Nothing is written, and nothing refused reaches the state.
 */
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { builtinRole } from "../emulator/capabilities";
import { createdRecord } from "../tests/support/emulatorClient";
import { yamlStack, YamlStack } from "../tests/support/nativeYamlStack";

jest.setTimeout(600_000);

describe("pulumi import checks the record's place before accepting it (native provider, YAML, real CLI)", () => {
  let emu: RunningEmulator;
  let stack: YamlStack;
  let org: { team: string; other: string; role: string; otherRole: string; identity: string };
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  const made = async (path: string, body: unknown) => (await createdRecord(emu, path, body)).uid;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    const team = await made(`/iam/v2beta1/groups/${emu.rootUid}`, { name: "team" });
    const other = await made(`/iam/v2beta1/groups/${emu.rootUid}`, { name: "other" });
    org = {
      team,
      other,
      role: await made(`/iam/v2beta1/roles/${team}`, { name: "auditor", capabilities: ["CAP_REPO_LIST"] }),
      otherRole: await made(`/iam/v2beta1/roles/${other}`, { name: "auditor", capabilities: ["CAP_REPO_LIST"] }),
      identity: await made(`/iam/v2beta1/identities/${team}`, {
        name: "ci",
        claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app" },
      }),
    };
    stack = await yamlStack({
      name: "import-checks",
      config: { "platform:apiUrl": emu.url },
      secretConfig: { "platform:token": emu.token },
    });
  });
  afterAll(async () => {
    stack?.remove();
    await emu?.close();
  });
  beforeEach(() => emu.clearRequests());

  /** `pulumi import`, expected to fail: its output (the engine's error is on stdout), and nothing in the state. */
  async function refusedImport(type: string, id: string): Promise<string> {
    const answer = await stack.cli(["import", type, "refused", id, "--yes", "--protect=false"]);
    expect(answer.code).not.toBe(0);
    const output = answer.stdout + answer.stderr;
    expect(output).not.toContain("does not support importing");
    expect(await stack.resources("platform:")).toEqual([]);
    expect(writes()).toEqual([]);
    return output;
  }

  test("a role of another group is refused as this group's", async () => {
    const output = await refusedImport("platform:iam:Role", `${org.team}/${org.otherRole}`);
    expect(output).toContain(`importing role "${org.otherRole}" as one of parentUid "${org.team}"'s refused`);
    expect(output).toContain(`it is not one of the roles of parentUid "${org.team}"`);
  });

  test("a built-in role is refused, pointing to getRole", async () => {
    const viewer = builtinRole("viewer").uid;
    const output = await refusedImport("platform:iam:Role", `${org.team}/${viewer}`);
    expect(output).toContain("it sits at the root, shared by every organization (a built-in role)");
    expect(output).toContain("the look-up platform:iam:getRole");
  });

  test("a role id with a segment too many is refused", async () => {
    const output = await refusedImport("platform:iam:Role", `${org.team}/extra/${org.role}`);
    expect(output).toContain(`it is not one of the roles of parentUid "${org.team}/extra"`);
  });

  test.each([
    ["a group that does not exist", "platform:iam:Group", () => `${emu.rootUid}/0123456789abcdef`, "group"],
    ["a role that does not exist", "platform:iam:Role", () => `${org.team}/${"0".repeat(40)}`, "role"],
    ["a group's uid imported as an identity", "platform:iam:Identity", () => org.team, "identity"],
    ["an identity's uid imported as a repo", "platform:registry:Repo", () => org.identity, "repo"],
  ])("%s fails saying which record of which kind was not found", async (_what, type, id, noun) => {
    const uid = id()
      .split("/")
      .slice(type === "platform:iam:Role" ? -1 : 0)
      .join("/");
    const output = await refusedImport(type, id());
    expect(output).toContain(
      `importing ${noun} "${uid}" failed: no ${noun} "${uid}" exists (the API answered NOT_FOUND`,
    );
  });

  test("the group's own role imports; the CLI reads the record twice (its preview, then the import), once with --skip-preview", async () => {
    const rolePath = `/iam/v2beta1/roles/${org.role}`;
    const reads = () => emu.requests().filter((r) => r.method === "GET" && r.path === rolePath).length;
    const imported = await stack.cli(["import", "platform:iam:Role", "auditor", `${org.team}/${org.role}`, "--yes"]);
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    expect((await stack.resources("platform:iam:Role")).map((r) => r.id)).toEqual([org.role]);
    expect(reads()).toBe(2);
    expect(writes()).toEqual([]);

    const state = await stack.cli([
      "state",
      "delete",
      "--yes",
      "--force",
      (await stack.resources("platform:iam:Role"))[0].urn,
    ]);
    expect(state.code).toBe(0);
    emu.clearRequests();
    const once = await stack.cli([
      "import",
      "platform:iam:Role",
      "auditor",
      `${org.team}/${org.role}`,
      "--yes",
      "--skip-preview",
    ]);
    expect([once.code, once.stderr]).toEqual([0, ""]);
    expect(reads()).toBe(1);
    expect(writes()).toEqual([]);
  });
});
