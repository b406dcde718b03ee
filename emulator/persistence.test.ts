import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "./index";
import { call, G } from "../tests/support/emulatorClient";
import { readState, writeStateAtomically } from "./persistence";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "emu-state-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on now (the kernel's pick for a server of our own, closed again). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((closed) => probe.close(closed));
  return port;
}

/** What connecting to the port answers: "connected", or the error's code. */
function connectTo(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("state file", () => {
  test("data, the dev token, the root and the OIDC key survive a restart", async () => {
    const statePath = path.join(dir, "state.json");
    const first = await startEmulator({ quiet: true, statePath });
    const group = await call(first, "POST", `${G}/${first.rootUid}`, {
      body: { name: "kept", description: "across restarts" },
    });
    const firstKid = (
      (await (await fetch(`${first.issuer}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }
    ).keys[0].kid;
    const token = first.token;
    await first.close();

    const second = await startEmulator({ quiet: true, statePath });
    try {
      expect(second.token).toBe(token);
      expect(second.rootUid).toBe(first.rootUid);
      expect((await call(second, "GET", `${G}/${group.body.uid}`)).body).toEqual(group.body);
      const repos = await call(second, "GET", "/registry/v2beta1/repos");
      expect(repos.body.repos.length).toBe(3);
      // Lists and indexes are rebuilt from the file.
      expect((await call(second, "GET", G, { query: { name: "kept" } })).body.groups).toHaveLength(1);
      // The signing key is kept, so tokens minted before the restart keep verifying.
      const jwks = async (issuer: string) =>
        ((await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys[0]
          .kid;
      expect(await jwks(second.issuer)).toBe(firstKid);
      // The dev owner keeps working with the restarted emulator's issuer, whatever its port.
      const devOwner = (await call(second, "GET", "/iam/v2beta1/identities", { query: { name: "dev-owner" } })).body
        .identities[0];
      const jwt = await second.mintOidcToken({ subject: "dev-owner" });
      const exchanged = await call(second, "GET", "/sts/exchange", {
        token: jwt,
        query: { aud: second.url, identity: devOwner.uid },
      });
      expect(exchanged.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  test("an account association a file holds under a child uid of its own (as earlier versions wrote it) moves to its group's uid", async () => {
    const statePath = path.join(dir, "state.json");
    const AA = "/iam/v2beta1/accountAssociations";
    const first = await startEmulator({ quiet: true, statePath, seed: false });
    const groups = [];
    for (const name of ["one", "two"]) {
      const group = (await call(first, "POST", `${G}/${first.rootUid}`, { body: { name } })).body;
      await call(first, "POST", `${AA}/${group.uid}`, {
        body: { name: `${name}-aws`, amazon: { account: "123456789012" } },
      });
      groups.push(group.uid as string);
    }
    await first.close();
    // What an earlier version wrote: the association at `<group uid>/<segment>`.
    const rewrite = (associations: (state: any) => void) => {
      const state = readState(statePath)!;
      associations(state);
      writeStateAtomically(statePath, state);
    };
    rewrite((state) => {
      for (const rec of state.records.accountAssociations) rec.uid = `${rec.parentUid}/0123456789abcdef`;
    });

    const second = await startEmulator({ quiet: true, statePath });
    try {
      for (const [i, uid] of groups.entries())
        expect((await call(second, "GET", `${AA}/${uid}`)).body).toMatchObject({
          uid,
          name: `${["one", "two"][i]}-aws`,
        });
    } finally {
      await second.close();
    }
    // Kept at the group's uid from then on.
    expect(
      readState(statePath)!
        .records.accountAssociations!.map((rec) => rec.uid)
        .sort(),
    ).toEqual([...groups].sort());

    rewrite((state) => {
      const [a, b] = state.records.accountAssociations;
      b.parentUid = a.parentUid;
      b.uid = `${a.parentUid}/fedcba9876543210`;
    });
    const port = await freePort();
    await expect(startEmulator({ quiet: true, statePath, port })).rejects.toThrow(
      /holds two accountAssociations of "[0-9a-f/]+" \(.*\), and there is one per group: delete one of them from the file/,
    );
    // The refused start listened first (the store is loaded once the port is known), then closed its server.
    expect(await connectTo(port)).toBe("ECONNREFUSED");
  });

  test("deletes are persisted too, and close() flushes pending writes", async () => {
    const statePath = path.join(dir, "state.json");
    const first = await startEmulator({ quiet: true, statePath, seed: false });
    const group = await call(first, "POST", `${G}/${first.rootUid}`, { body: { name: "gone" } });
    await call(first, "DELETE", `${G}/${group.body.uid}`);
    const late = await call(first, "POST", `${G}/${first.rootUid}`, { body: { name: "last-write" } });
    await first.close();
    const state = readState(statePath);
    const names = state?.records.groups?.map((g) => g.name);
    expect(names).toContain("last-write");
    expect(names).not.toContain("gone");
    const second = await startEmulator({ quiet: true, statePath });
    try {
      expect((await call(second, "GET", `${G}/${late.body.uid}`)).status).toBe(200);
      expect((await call(second, "GET", `${G}/${group.body.uid}`)).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  test("writes go through a temporary file and a rename: no temporary file is left and the file is always whole JSON", async () => {
    const statePath = path.join(dir, "nested", "state.json");
    const emu = await startEmulator({ quiet: true, statePath, seed: false });
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: `g${i}` } })),
      );
      // Whatever moment we read it, the file parses.
      expect(() => JSON.parse(fs.readFileSync(statePath, "utf8"))).not.toThrow();
    } finally {
      await emu.close();
    }
    expect(fs.readdirSync(path.dirname(statePath))).toEqual(["state.json"]);
    expect(readState(statePath)?.records.groups).toHaveLength(21);
  });

  test("writeStateAtomically replaces the old file in one step", () => {
    const file = path.join(dir, "s.json");
    fs.writeFileSync(file, "old");
    writeStateAtomically(file, {
      version: 1,
      rootUid: "r",
      devToken: "t",
      devIdentityUid: "r/i",
      oidcPrivateJwk: {},
      records: {},
    });
    expect(readState(file)?.rootUid).toBe("r");
    expect(fs.readdirSync(dir)).toEqual(["s.json"]);
  });

  test("a corrupt state file is refused with a message saying what to do", async () => {
    const statePath = path.join(dir, "state.json");
    fs.writeFileSync(statePath, "{half");
    await expect(startEmulator({ quiet: true, statePath })).rejects.toThrow(/not valid JSON.*move it away/);
  });
});
