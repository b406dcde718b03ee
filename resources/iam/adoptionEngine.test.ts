/**
 * Adoption end to end through the local engine (a real Pulumi program, the real host): an
 * organization that already holds the declared group and identity is brought under the stack
 * with platform:adopt, without a create; the next preview shows no change; destroy removes them
 * (they are managed now). Records no key tells apart (identical invites, identical
 * subscriptions) are taken over one by one with `adoptUid`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BUILTIN_ROLES, RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tests/support/providerEmulator";
import { programProject } from "../../tests/support/programProject";
import { call, snapshot } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { runEngine } from "../../tools/engine/run";
import { repoRoot } from "../../tools/host/stage";

jest.setTimeout(180_000);

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const team = new platform.iam.Group("team", {
  parentUid: config.require("parentUid"),
  name: "existing-team",
  description: "declared in code",
});
const ci = new platform.iam.Identity("ci", {
  parentUid: team.uid,
  name: "ci",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" },
});
export const teamAdopted = team.adopted;
export const ciAdopted = ci.adopted;
`;

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = path.join(repoRoot, ".work", `adoption-engine-${process.pid}`);
  fs.mkdirSync(path.join(dir, "program"), { recursive: true });
  fs.writeFileSync(path.join(dir, "program", "Pulumi.yaml"), "name: adoption\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "program", "index.ts"), PROGRAM);
});
afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("platform:adopt brings existing records under the stack: nothing created, one PATCH where they differ", async () => {
  const api = { url: emu.url, token: emu.token };
  const before = await snapshot(api, emu.rootUid);
  const team = await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, {
    name: "existing-team",
    description: "made in the console",
  });
  const ci = await call(api, "POST", `/iam/v2beta1/identities/${team.uid}`, {
    name: "ci",
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" },
  });
  const run = (operation: string, ...extra: string[]) =>
    runEngine(
      [
        ...operation.split(" "),
        "--config",
        `platform:apiUrl=${emu.url}`,
        "--secret-config",
        `platform:token=${emu.token}`,
        "--config",
        `parentUid=${emu.rootUid}`,
        ...extra,
      ],
      { cwd: path.join(dir, "program"), state: path.join(dir, "state.json"), env: withoutPlatformEnv() },
    );

  // Without adoption the existing group stops the run, and the message says how to adopt.
  const refused = await run("up");
  expect(refused.code).not.toBe(0);
  expect(`${refused.stdout}${refused.stderr}`).toMatch(/already exists.*platform:adopt/s);

  emu.clearRequests();
  const up = await run("up", "--config", "platform:adopt=true");
  expect(up.code).toBe(0);
  const writes = emu
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path} ${String(r.query.updateMask ?? "")}`.trim());
  expect(writes).toEqual([
    `POST /iam/v2beta1/groups/${emu.rootUid}`,
    `PATCH /iam/v2beta1/groups/${team.uid} description`,
    `POST /iam/v2beta1/identities/${team.uid}`,
  ]);
  const resources = up.state?.resources ?? [];
  expect(resources.find((r) => r.urn.endsWith("::team"))).toMatchObject({ id: team.uid, outputs: { adopted: true } });
  expect(resources.find((r) => r.urn.endsWith("::ci"))).toMatchObject({ id: ci.uid, outputs: { adopted: true } });
  expect(JSON.stringify(up.state?.outputs)).toContain("true");

  const preview = await run("preview --refresh --expect-no-changes");
  expect(preview.code).toBe(0);

  const destroy = await run("destroy");
  expect(destroy.code).toBe(0);
  expect(await snapshot(api, emu.rootUid)).toEqual(before);
});

const TWINS = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const groupUid = config.require("groupUid");
const roleUid = config.require("roleUid");
for (const n of [1, 2]) {
  new platform.iam.GroupInvite(\`invite\${n}\`, { groupUid, roleUid, ttl: "86400s", adoptUid: config.require(\`invite\${n}\`) });
  new platform.events.Subscription(\`subscription\${n}\`, {
    parentUid: groupUid,
    sink: "https://hooks.example.com/twins",
    adoptUid: config.require(\`subscription\${n}\`),
  });
}
`;

test("identical invites and subscriptions are each taken over by adoptUid: no write, then no change", async () => {
  const api = { url: emu.url, token: emu.token };
  const group = await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "twins" });
  const roleUid = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
  const config: Record<string, string> = { groupUid: group.uid, roleUid };
  for (const n of [1, 2]) {
    config[`invite${n}`] = (
      await call(api, "POST", `/iam/v2beta1/groupInvites/${group.uid}`, { roleUid, ttl: "86400s" })
    ).uid;
    config[`subscription${n}`] = (
      await call(api, "POST", `/events/v2beta1/subscriptions/${group.uid}`, { sink: "https://hooks.example.com/twins" })
    ).uid;
  }
  const project = programProject({ name: "twins", source: TWINS, api });
  try {
    emu.clearRequests();
    const up = await project.run("up", config);
    expect(up.code).toBe(0);
    expect(emu.requests().filter((r) => r.method !== "GET")).toEqual([]);
    for (const name of ["invite1", "invite2", "subscription1", "subscription2"])
      expect(up.state!.resources.find((r) => r.urn.endsWith(`::${name}`))).toMatchObject({
        id: config[name],
        outputs: { adopted: true },
      });
    const preview = await project.run("preview --refresh --expect-no-changes", config);
    expect(preview.code).toBe(0);
  } finally {
    project.remove();
  }
});
