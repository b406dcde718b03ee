/**
 * Maps holding a `__proto__` key, through a program, the local engine, the REAL dynamic-provider
 * host and the emulator: an identity's claims, an account association's client ids and GitHub
 * installations, an overlay's annotations. The key reaches the service and the program reads it
 * back; nothing drifts; a console edit of its value, or one that adds such a key, is drift that
 * `preview --refresh --expect-no-changes` names and `up --refresh` repairs; a program's change of
 * its value is sent. (Pulumi's SDK drops the key on each hop; the state spells it `__proto__~`.)
 */
import { RunningEmulator, startEmulator } from "../../emulator";
import { call } from "../support/emulatorClient";
import { ProgramProject, programProject } from "../support/programProject";

// Six engine runs: on a loaded machine each can take 20 s or more.
jest.setTimeout(300_000);

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
  project = programProject({ name: "proto-keys", source: PROGRAM, api: emu });
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
const own = (value: object, key: string) => Object.hasOwn(value, key) && (value as Record<string, unknown>)[key];

test("maps with a __proto__ key: created, read back, unchanged, console edits caught and repaired, changes sent", async () => {
  const run = (operation: string[], claim = "first") => project.run(operation, config(claim));
  const up = await run(["up"]);
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  const uidOf = (name: string) => String(up.state!.resources.find((r) => r.urn.endsWith(`::${name}`))!.id);
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
  expect(up.state!.outputs.claims).toEqual([
    ["__proto__", "first"],
    ["team", "platform"],
  ]);
  expect(up.state!.outputs.clientIds).toEqual([
    ["__proto__", "client-1"],
    ["other", "client-2"],
  ]);
  expect(up.state!.outputs.annotations).toEqual([
    ["__proto__", "annotated"],
    ["owner", "platform"],
  ]);
  expect(up.state!.outputs.environment).toEqual(
    expect.arrayContaining([
      ["__proto__", "1"],
      ["PATH", "/bin"],
    ]),
  );
  expect(up.state!.outputs.environment).toHaveLength(2);
  expect(up.state!.outputs.lookedUp).toEqual(up.state!.outputs.claims);
  const stored = up.state!.resources.find((r) => r.urn.endsWith("::ci"))!;
  expect(stored.outputs.claimMatch).toMatchObject({ claims: { "__proto__~": "first", team: "platform" } });

  // Nothing drifted: the stored key and the service's are the same key.
  const clean = await run(["preview", "--refresh", "--expect-no-changes"]);
  expect(clean.stdout).not.toContain("error:");
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
  const check = await run(["preview", "--refresh", "--expect-no-changes"]);
  expect(check.code).not.toBe(0);
  expect(check.stdout).toContain("no changes were expected");
  expect(check.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:Identity "ci": [^\n]*claimMatch/);
  expect(check.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:AccountAssociation "association": [^\n]*azure/);
  expect(check.stdout).toMatch(/claimMatch\.claims\.__proto__~/);

  emu.clearRequests();
  const repair = await run(["up", "--refresh"]);
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
  expect((await run(["preview", "--refresh", "--expect-no-changes"])).code).toBe(0);

  // The program changes the value: one PATCH carries it.
  emu.clearRequests();
  const changed = await run(["up"], "second");
  expect(changed.code).toBe(0);
  expect(
    emu
      .requests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path} ${String(r.query.updateMask)}`),
  ).toEqual([`PATCH /iam/v2beta1/identities/${ci} claimMatch.claims`]);
  expect(own((await api("GET", `/iam/v2beta1/identities/${ci}`)).claimMatch.claims, "__proto__")).toBe("second");
  expect(changed.state!.outputs.claims).toEqual([
    ["__proto__", "second"],
    ["team", "platform"],
  ]);

  expect((await run(["destroy"], "second")).code).toBe(0);
});
