/**
 * Maps holding a `__proto__` key, through a program under the REAL Pulumi CLI (its engine, the
 * dynamic-provider host it launches) and the emulator: an identity's claims, an account
 * association's client ids and GitHub installations, an overlay's annotations. The key reaches
 * the service and the program reads it back; nothing drifts; a console edit of its value, or one
 * that adds such a key, is drift that `preview --refresh --expect-no-changes` names and
 * `up --refresh` repairs; a program's change of its value is sent. (Pulumi's SDK drops the key on
 * each hop; the state spells it `__proto__~`.)
 */
import { RunningEmulator, startEmulator } from "../../emulator";
import { call } from "../support/emulatorClient";
import { ProgramProject, programProject } from "../support/programProject";

// Six runs under the real CLI: on a loaded machine each can take 30 s or more.
jest.setTimeout(420_000);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const root = config.require("rootUid");
// JSON.parse keeps "__proto__" as a key, as a program reading its maps from files or config would.
const map = (key: string) => JSON.parse(config.require(key)) as Record<string, string>;

const ci = new platform.iam.Identity("ci", {
  parentUid: root,
  name: "proto-ci",
  claimMatch: { issuer: "https://token.example.com", subject: "repo:acme/app", claims: map("claims") },
});
// A group has one account association (the seeded root has its own): this one's group is new.
const team = new platform.iam.Group("team", { parentUid: root, name: "proto-team" });
const association = new platform.iam.AccountAssociation("association", {
  groupUid: team.uid,
  name: "proto-association",
  azure: { tenantId: "tenant", clientIds: map("clientIds") },
  github: { appInstallations: JSON.parse('{"__proto__": {"installations": [{"installationId": "42"}]}}') },
});
const overlay = new platform.registry.Overlay("overlay", {
  parentUid: root,
  name: "proto-overlay",
  config: { annotations: map("annotations"), environment: { TZ: "UTC" } },
});
const repo = new platform.registry.Repo("repo", {
  parentUid: root,
  name: "proto-repo",
  customOverlay: { environment: map("environment") },
  allowDelete: true,
});
// Entries, not objects: a stack output object would meet the SDK's serializer again.
export const claims = ci.claimMatch.apply((match) => Object.entries(match?.claims ?? {}));
export const clientIds = association.azure.apply((azure) => Object.entries(azure?.clientIds ?? {}));
export const annotations = overlay.config.apply((c) => Object.entries(c.annotations ?? {}));
export const environment = repo.customOverlay.apply((c) => Object.entries(c?.environment ?? {}));
// A look-up reads the record itself: its maps keep every key too.
export const lookedUp = platform.iam
  .getIdentityOutput({ uid: ci.uid })
  .apply((record) => Object.entries(record.claimMatch?.claims ?? {}));
`;

let emu: RunningEmulator;
let project: ProgramProject;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  project = programProject({ name: "proto-keys", program: { source: PROGRAM }, api: emu });
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
});

const config = (claim: string) => ({
  rootUid: emu.rootUid,
  claims: `{"__proto__": ${JSON.stringify(claim)}, "team": "platform"}`,
  clientIds: '{"__proto__": "client-1", "other": "client-2"}',
  annotations: '{"__proto__": "annotated", "owner": "platform"}',
  environment: '{"__proto__": "1", "PATH": "/bin"}',
});

/** One call straight to the emulator, as the console would make it; the answer parsed as JSON (keys kept). */
async function api(method: string, path: string, rawBody?: string): Promise<any> {
  const reply = await call(emu, method, path, { rawBody });
  expect(`${reply.status} ${reply.text}`).toMatch(/^200 /);
  return reply.body;
}
/** The engine's update of a resource in a `--diff` display. */
const UPDATE = (type: string, name: string) =>
  new RegExp(`~ pulumi-nodejs:dynamic/${type}: \\(update\\)\\s+\\[id=[^\\]]+\\]\\s+\\[urn=[^\\]]+::${name}\\]`);
const own = (value: object, key: string) => Object.hasOwn(value, key) && (value as Record<string, unknown>)[key];

test("maps with a __proto__ key: created, read back, unchanged, console edits caught and repaired, changes sent", async () => {
  const run = (command: string, claim = "first") => project.run(command, config(claim));
  const up = await run("up");
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  const uidOf = (name: string) => String(project.resource(name)!.id);
  const outputs = (run: typeof up) => Object.fromEntries(Object.entries(run.outputs).map(([k, o]) => [k, o.value]));
  const [ci, association, overlay, repo] = ["ci", "association", "overlay", "repo"].map(uidOf);

  // The service holds the key with its value (JSON.parse keeps it an own key).
  const identity = await api("GET", `/iam/v2beta1/identities/${ci}`);
  expect(own(identity.claimMatch.claims, "__proto__")).toBe("first");
  expect(identity.claimMatch.claims.team).toBe("platform");
  const held = await api("GET", `/iam/v2beta1/accountAssociations/${association}`);
  expect(own(held.azure.clientIds, "__proto__")).toBe("client-1");
  expect(own(held.github.appInstallations, "__proto__")).toEqual({ installations: [{ installationId: "42" }] });
  const overlayRecord = await api("GET", `/registry/v2beta1/overlays/${overlay}`);
  expect(own(overlayRecord.config.annotations, "__proto__")).toBe("annotated");
  const repoRecord = await api("GET", `/registry/v2beta1/repos/${repo}`);
  expect(own(repoRecord.customOverlay.environment, "__proto__")).toBe("1");
  // The program reads the real key back; the state spells it escaped.
  expect(outputs(up).claims).toEqual([
    ["__proto__", "first"],
    ["team", "platform"],
  ]);
  expect(outputs(up).clientIds).toEqual([
    ["__proto__", "client-1"],
    ["other", "client-2"],
  ]);
  expect(outputs(up).annotations).toEqual([
    ["__proto__", "annotated"],
    ["owner", "platform"],
  ]);
  expect(outputs(up).environment).toEqual(
    expect.arrayContaining([
      ["__proto__", "1"],
      ["PATH", "/bin"],
    ]),
  );
  expect(outputs(up).environment).toHaveLength(2);
  expect(outputs(up).lookedUp).toEqual(outputs(up).claims);
  const stored = project.resource("ci")!;
  expect(stored.outputs!.claimMatch).toMatchObject({ claims: { "__proto__~": "first", team: "platform" } });

  // Nothing drifted: the stored key and the service's are the same key.
  const clean = await run("preview --refresh --expect-no-changes");
  expect(clean.stderr).toBe("");
  expect(clean.code).toBe(0);

  // Console edits: the identity's __proto__ claim changed, a __proto__ claim pattern added, a client id changed.
  await api(
    "PATCH",
    `/iam/v2beta1/identities/${ci}?update_mask=claimMatch.claims,claimMatch.claimPatterns`,
    '{"name": "proto-ci", "claimMatch": {"claims": {"__proto__": "edited", "team": "platform"}, "claimPatterns": {"__proto__": ".*"}}}',
  );
  await api(
    "PATCH",
    `/iam/v2beta1/accountAssociations/${association}?update_mask=azure.clientIds`,
    '{"name": "proto-association", "azure": {"tenantId": "tenant", "clientIds": {"__proto__": "edited", "other": "client-2"}}}',
  );
  const check = await run("preview --refresh --expect-no-changes --diff");
  expect(check.code).toBe(7);
  expect(check.stderr).toContain("no changes were expected");
  // Each edited resource is an update. The CLI's display hides every key that starts with `__`, so
  // it shows no `__proto__~` (the state's spelling); the program's look-up reads the edited value.
  expect(check.stdout).toMatch(UPDATE("iam:Identity", "ci"));
  expect(check.stdout).toMatch(UPDATE("iam:AccountAssociation", "association"));
  expect(check.stdout).toMatch(/Resources:\s+~ 2 to update\s+4 unchanged/);
  expect(check.stdout).toMatch(/~ lookedUp\s*: \[\s+~ \[0\]: \[\s+\[0\]: "__proto__"\s+~ \[1\]: "first" => "edited"/);

  emu.clearRequests();
  const repair = await run("up --refresh");
  expect(repair.code).toBe(0);
  const writes = emu.requests().filter((r) => r.method !== "GET");
  expect(writes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
    [`PATCH /iam/v2beta1/accountAssociations/${association}`, `PATCH /iam/v2beta1/identities/${ci}`].sort(),
  );
  const repaired = await api("GET", `/iam/v2beta1/identities/${ci}`);
  expect(own(repaired.claimMatch.claims, "__proto__")).toBe("first");
  expect(repaired.claimMatch.claimPatterns ?? {}).toEqual({});
  expect(own((await api("GET", `/iam/v2beta1/accountAssociations/${association}`)).azure.clientIds, "__proto__")).toBe(
    "client-1",
  );
  expect((await run("preview --refresh --expect-no-changes")).code).toBe(0);

  // The program changes the value: one PATCH carries it.
  emu.clearRequests();
  const changed = await run("up", "second");
  expect(changed.code).toBe(0);
  expect(
    emu
      .requests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path} ${String(r.query.updateMask)}`),
  ).toEqual([`PATCH /iam/v2beta1/identities/${ci} claimMatch.claims`]);
  expect(own((await api("GET", `/iam/v2beta1/identities/${ci}`)).claimMatch.claims, "__proto__")).toBe("second");
  expect(outputs(changed).claims).toEqual([
    ["__proto__", "second"],
    ["team", "platform"],
  ]);

  expect((await run("destroy", "second")).code).toBe(0);
});
