/**
 * A replacement never leaves a dependent broken, under the REAL Pulumi CLI (its engine, the
 * dynamic-provider host it launches): an identity replaced under the same name is deleted first, and
 * the service deletes its role bindings with it; an overlay whose config changes is deleted
 * first, and its bindings go with it. Each dependent is replaced with what it depends on, in the
 * same `up`, rather than PATCHed after the service deleted it; the next preview is clean.
 */
import { BUILTIN_ROLES, RunningEmulator, startEmulator } from "../emulator";
import { call } from "../tools/orgApi";
import { ProgramProject, programProject } from "../tests/support/programProject";

jest.setTimeout(240_000);

const JWKS = (kid: string) =>
  JSON.stringify({
    keys: [
      {
        kty: "EC",
        crv: "P-256",
        kid,
        x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
      },
    ],
  });

/** How the identity is assumed, by the `mode` config key: switching kinds or rotating keys replaces it. */
const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const mode = config.require("mode");
const ways: Record<string, object> = {
  claim: { claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app" } },
  keys1: { staticKeys: { issuer: "https://issuer.example.com", subject: "robot", issuerKeys: ${JSON.stringify(JWKS("one"))} } },
  keys2: { staticKeys: { issuer: "https://issuer.example.com", subject: "robot", issuerKeys: ${JSON.stringify(JWKS("two"))} } },
};
const team = new platform.iam.Group("team", { parentUid: config.require("rootUid"), name: "cascades" });
const ci = new platform.iam.Identity("ci", { parentUid: team.uid, name: "ci", ...ways[mode] });
new platform.iam.RoleBinding("ci-viewer", { groupUid: team.uid, identityUid: ci.uid, roleUid: config.require("viewer") });
const overlay = new platform.registry.Overlay("overlay", {
  parentUid: team.uid,
  name: "tz",
  config: { environment: { MODE: mode } },
});
const repo = new platform.registry.Repo("repo", { parentUid: team.uid, name: "app", allowDelete: true });
new platform.registry.OverlayBinding("binding", { repoUid: repo.uid, overlayUid: overlay.uid, tags: ["latest"] });
export const teamUid = team.uid;
export const identityUid = ci.uid;
export const overlayUid = overlay.uid;
export const repoUid = repo.uid;
`;

let emu: RunningEmulator;
let project: ProgramProject;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  project = programProject({ name: "cascades", program: { source: PROGRAM }, api: emu });
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
});

test("an identity replaced under its name and an overlay replaced take their bindings along, in the same up", async () => {
  const api = { url: emu.url, token: emu.token };
  const config = (mode: string) => ({
    mode,
    rootUid: emu.rootUid,
    viewer: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
  });
  let previous: Record<string, unknown> | undefined;
  // A switch of kinds (claim to static keys), then a rotation of keys.
  for (const mode of ["claim", "keys1", "keys2"]) {
    const up = await project.run("up", config(mode));
    expect({ mode, code: up.code, stderr: up.stderr }).toEqual({ mode, code: 0, stderr: "" });
    const outputs = Object.fromEntries(
      Object.entries(up.outputs).map(([name, output]) => [name, String(output.value)]),
    );
    if (previous) {
      // Each step replaced the identity and the overlay (new uids), under the same names.
      expect(outputs.identityUid).not.toBe(previous.identityUid);
      expect(outputs.overlayUid).not.toBe(previous.overlayUid);
    }
    previous = outputs;
    // Exactly one binding each, of the identity and the overlay as they are now.
    const bindings = await call(api, "GET", `/iam/v2beta1/roleBindings?uidp.children_of=${outputs.teamUid}`);
    expect(bindings.roleBindings.map((b: { identity: { uid: string } }) => b.identity.uid)).toEqual([
      outputs.identityUid,
    ]);
    const overlaid = await call(api, "GET", `/registry/v2beta1/overlayBindings?uidp.children_of=${outputs.repoUid}`);
    expect(overlaid.overlayBindings.map((b: { overlay: { uid: string } }) => b.overlay.uid)).toEqual([
      outputs.overlayUid,
    ]);
    // The next preview is clean after each replacement (the first up only creates: nothing to check).
    if (mode !== "claim") {
      const preview = await project.run("preview --refresh --expect-no-changes", config(mode));
      expect({ mode, code: preview.code }).toEqual({ mode, code: 0 });
    }
  }
  const destroyed = await project.run("destroy", config("keys2"));
  expect(destroyed.code).toBe(0);
});
