/**
 * Adoption end to end under the REAL Pulumi CLI (its engine, the dynamic-provider host it
 * launches, a program run by the Automation API): an organization that already holds the
 * declared group and identity is brought under the stack with platform:adopt, without a create;
 * the next preview shows no change; destroy removes them (they are managed now). The same program
 * reads a group made in the console with `Group.get` and declares a child under it: the engine
 * tracks the read group as external, and destroy leaves it alone. Records no key tells apart
 * (identical invites, identical subscriptions) are taken over one by one with `adoptUid`.
 */
import { BUILTIN_ROLES, RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { programProject } from "../../tests/support/programProject";
import { call, snapshot } from "../../tools/orgApi";

jest.setTimeout(300_000);

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
// Read, not managed: the program only builds under it (once the team is settled, so that a
// refused adoption stops the run before the child is made).
const existing = platform.iam.Group.get("existing", config.require("existingUid"));
const child = new platform.iam.Group(
  "child",
  { parentUid: existing.uid, name: "child-of-existing" },
  { dependsOn: [team] },
);
export const teamAdopted = team.adopted;
export const ciAdopted = ci.adopted;
export const existingName = existing.name;
export const childUid = child.uid;
`;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startProviderEmulator();
});
afterAll(async () => {
  await emu?.close();
});

test("platform:adopt brings existing records under the stack: nothing created, one PATCH where they differ; a group read with Group.get is external and left alone by destroy", async () => {
  const api = { url: emu.url, token: emu.token };
  const existing = await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, {
    name: "made-in-console",
    description: "not ours",
  });
  const before = await snapshot(api, emu.rootUid);
  const team = await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, {
    name: "existing-team",
    description: "made in the console",
  });
  const ci = await call(api, "POST", `/iam/v2beta1/identities/${team.uid}`, {
    name: "ci",
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" },
  });
  const project = programProject({ name: "adoption", program: { source: PROGRAM }, api });
  try {
    const config = { parentUid: emu.rootUid, existingUid: existing.uid };

    // Without adoption the existing group stops the run, and the message says how to adopt.
    const refused = await project.run("up", config);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/already exists.*platform:adopt/s);

    emu.clearRequests();
    const up = await project.run("up", { "platform:adopt": "true" });
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    const writes = emu
      .requests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path} ${String(r.query.updateMask ?? "")}`.trim());
    const child = project.resource("child")!;
    expect(child.id!.startsWith(`${existing.uid}/`)).toBe(true);
    // The refused create of the team, its adoption's PATCH, the identity's refused create; and the child's create.
    // (The identity and the child are created side by side, in either order.)
    expect([...writes.slice(0, 2), ...writes.slice(2).sort()]).toEqual([
      `POST /iam/v2beta1/groups/${emu.rootUid}`,
      `PATCH /iam/v2beta1/groups/${team.uid} description`,
      ...[`POST /iam/v2beta1/identities/${team.uid}`, `POST /iam/v2beta1/groups/${existing.uid}`].sort(),
    ]);
    expect(project.resource("team")).toMatchObject({ id: team.uid, outputs: { adopted: true } });
    expect(project.resource("ci")).toMatchObject({ id: ci.uid, outputs: { adopted: true } });
    expect(up.outputs.teamAdopted.value).toBe(true);
    expect(up.outputs.ciAdopted.value).toBe(true);
    // The read group: in the state as external, with what the service holds.
    expect(project.resource("existing")).toMatchObject({
      id: existing.uid,
      external: true,
      outputs: { name: "made-in-console", description: "not ours" },
    });
    expect(up.outputs.existingName.value).toBe("made-in-console");
    expect(up.outputs.childUid.value).toBe(child.id);

    const preview = await project.run("preview --refresh --expect-no-changes");
    expect(preview.code).toBe(0);

    // Adopted records are managed: destroy deletes them and the child, never the group it only read.
    emu.clearRequests();
    const destroy = await project.run("destroy");
    expect(destroy.code).toBe(0);
    expect(
      emu
        .requests()
        .filter((r) => r.method === "DELETE")
        .map((r) => r.path)
        .sort(),
    ).toEqual(
      [
        `/iam/v2beta1/groups/${team.uid}`,
        `/iam/v2beta1/identities/${ci.uid}`,
        `/iam/v2beta1/groups/${child.id}`,
      ].sort(),
    );
    expect(await snapshot(api, emu.rootUid)).toEqual(before);
  } finally {
    project.remove();
  }
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
  const project = programProject({ name: "twins", program: { source: TWINS }, api });
  try {
    emu.clearRequests();
    const up = await project.run("up", config);
    expect(up.code).toBe(0);
    expect(emu.requests().filter((r) => r.method !== "GET")).toEqual([]);
    for (const name of ["invite1", "invite2", "subscription1", "subscription2"])
      expect(project.resource(name)).toMatchObject({ id: config[name], outputs: { adopted: true } });
    const preview = await project.run("preview --refresh --expect-no-changes");
    expect(preview.code).toBe(0);
  } finally {
    project.remove();
  }
});
