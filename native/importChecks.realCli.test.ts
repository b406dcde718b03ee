/**
 * What `pulumi import` of the native provider accepts, under the REAL Pulumi CLI, from a YAML
 * project on the emulator (issue 28, cases 3 and 5): a record is accepted only where its import id
 * places it, and a record that is not there fails saying which one of which kind.
 *
 * - a role's id `<group>/<role>` names that group's own custom role: another group's role, a
 *   built-in role (pointing to getRole) and an id with a segment too many are refused;
 * - a uid that names no record, or a record of another kind, fails naming the kind and the uid,
 *   not with the CLI's "provider does not support importing resources";
 * - and how many times an import reads the record (docs/guides/existing-organization.md says it).
 *
 * Nothing is written, and nothing refused reaches the state. The refused ids go in one `pulumi
 * import --file` (the engine reads each and reports each one's error); one the engine did not reach
 * (cancelled after another's failure) is imported alone.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { builtinRole } from "../emulator/capabilities";
import { createdRecord } from "../tests/support/emulatorClient";
import { yamlStack, YamlStack } from "../tests/support/nativeYamlStack";
import type { ProcessResult } from "../tools/runProcess";

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
    emu.clearRequests();
    const file = path.join(stack.dir, "refused.json");
    const resources = Object.entries(refusals()).map(([name, [type, id]]) => ({ type, name, id }));
    fs.writeFileSync(file, JSON.stringify({ resources }));
    const answer = await stack.cli(["import", "--file", file, "--yes", "--protect=false", "--generate-code=false"]);
    batch = { answer, resources: await stack.resources("platform:"), writes: writes() };
  });
  afterAll(async () => {
    stack?.remove();
    await emu?.close();
  });
  beforeEach(() => emu.clearRequests());

  /** Each refused import's resource name in the import file: its type and its id. */
  const refusals = (): Record<string, [string, string]> => ({
    otherGroupsRole: ["platform:iam:Role", `${org.team}/${org.otherRole}`],
    builtinRole: ["platform:iam:Role", `${org.team}/${builtinRole("viewer").uid}`],
    segmentTooMany: ["platform:iam:Role", `${org.team}/extra/${org.role}`],
    missingGroup: ["platform:iam:Group", `${emu.rootUid}/0123456789abcdef`],
    missingRole: ["platform:iam:Role", `${org.team}/${"0".repeat(40)}`],
    groupAsIdentity: ["platform:iam:Identity", org.team],
    identityAsRepo: ["platform:registry:Repo", org.identity],
  });
  /** The one `pulumi import --file` of every refusal: its answer, the state after it, what it wrote. */
  let batch: { answer: ProcessResult; resources: unknown[]; writes: unknown[] };

  /**
   * The refused import of `name` (of refusals()), expected to fail: its output (the engine's error
   * is on stdout), and nothing in the state. Its diagnostic from the batch when the engine reached
   * it, otherwise from `pulumi import <type> <name> <id>` alone.
   */
  async function refusedImport(name: string): Promise<string> {
    const [type, id] = refusals()[name];
    let answer = batch.answer;
    let after = { resources: batch.resources, writes: batch.writes };
    const diagnostic = new RegExp(`^  ${type} \\(${name}\\):\n((?: {4}.*\n?)+)`, "m").exec(answer.stdout)?.[1];
    if (!diagnostic) {
      answer = await stack.cli(["import", type, name, id, "--yes", "--protect=false"]);
      after = { resources: await stack.resources("platform:"), writes: writes() };
    }
    expect(answer.code).not.toBe(0);
    const output = diagnostic ?? answer.stdout + answer.stderr;
    expect(answer.stdout + answer.stderr).not.toContain("does not support importing");
    expect(after).toEqual({ resources: [], writes: [] });
    return output;
  }

  test("a role of another group is refused as this group's", async () => {
    const output = await refusedImport("otherGroupsRole");
    expect(output).toContain(`importing role "${org.otherRole}" as one of parentUid "${org.team}"'s refused`);
    expect(output).toContain(`it is not one of the roles of parentUid "${org.team}"`);
  });

  test("a built-in role is refused, pointing to getRole", async () => {
    const output = await refusedImport("builtinRole");
    expect(output).toContain("it sits at the root, shared by every organization (a built-in role)");
    expect(output).toContain("the look-up platform:iam:getRole");
  });

  test("a role id with a segment too many is refused", async () => {
    const output = await refusedImport("segmentTooMany");
    expect(output).toContain(`it is not one of the roles of parentUid "${org.team}/extra"`);
  });

  test.each([
    ["a group that does not exist", "missingGroup", "group"],
    ["a role that does not exist", "missingRole", "role"],
    ["a group's uid imported as an identity", "groupAsIdentity", "identity"],
    ["an identity's uid imported as a repo", "identityAsRepo", "repo"],
  ])("%s fails saying which record of which kind was not found", async (_what, name, noun) => {
    const [type, id] = refusals()[name];
    const uid = id
      .split("/")
      .slice(type === "platform:iam:Role" ? -1 : 0)
      .join("/");
    const output = await refusedImport(name);
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
