/**
 * A lost create never takes over or deletes a record it cannot prove it made, for every kind,
 * through the REAL dynamic-provider host: someone else's record with the very values the
 * program declares already exists, and the create's POST is lost (cut before the service sees
 * it, or after the service applied it). A record counts as the create's only when it is the one
 * match made since the request was sent (by its creation time) or, for a kind whose records tell
 * no time, the one match that was not listed before the create. Otherwise the create fails,
 * naming the records and how to settle it; the look-alike is left exactly as it was. The issue's
 * own case (an invite and a subscription) also runs as a program under the real Pulumi CLI.
 */
import { ManagedKind, managedKinds } from "../bench/kinds";
import { FaultProxy, ProxyAction, faultProxy } from "../tests/support/faultProxy";
import { KIND_CASES as CASES, Place, freshGroup, made } from "../tests/support/kindCases";
import { Harness, startHarness } from "../tools/host/resourceHarness";
import { programProject } from "../tests/support/programProject";

jest.setTimeout(120_000);

let h: Harness;
let proxy: FaultProxy;
let kinds: Record<string, ManagedKind>;
/** What happens to the next POST through the proxy; every later one passes. */
let nextPost: ProxyAction = "pass";

/** Kinds whose records tell no time: their create lists first. */
const TIMELESS = ["Subscription", "Overlay", "OverlayBinding"];
/** Kinds the service takes twice (no ALREADY_EXISTS). */
const DUPLICATES = ["GroupInvite", "ExternalGroupRoleMapping", "Subscription", "OverlayBinding"];
const MINUTE = 60_000;

beforeAll(async () => {
  h = await startHarness();
  kinds = Object.fromEntries((await managedKinds(h)).map((kind) => [kind.typeName, kind]));
  proxy = await faultProxy(h.emu.url, {
    decide: (req) => {
      if (req.method !== "POST") return "pass";
      const action = nextPost;
      nextPost = "pass";
      return action;
    },
  });
  await h.host.configure({ "platform:apiUrl": proxy.url, "platform:token": h.emu.token });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/**
 * Someone else's record `i` of the kind, made `ago` ms before now by the service's clock (the
 * emulator's clock is moved back for it, then forward again).
 */
async function theirs(type: string, place: Place, ago: number) {
  h.emu.advanceClock(-ago);
  try {
    return await made(h, `${CASES[type].collection}/${place.parent}`, place.body(0));
  } finally {
    h.emu.advanceClock(ago);
  }
}

const create = (type: string, inputs: Record<string, unknown>) =>
  h.host.create(kinds[type].urn(`owned-${type}`), { ...inputs, __provider: kinds[type].providerText });

/** A create's result or its error, whichever it came to. */
const settled = (creating: Promise<{ id: string; props: Record<string, any> }>) =>
  creating.then(
    (created) => ({ created, error: undefined }),
    (error: Error) => ({ created: undefined, error }),
  );

/** What the emulator saw besides reads. */
const writes = () => h.emu.requests().filter((r) => r.method !== "GET");

/** The record as the service holds it now (404 when gone). */
const current = async (type: string, uid: string) => h.api("GET", `${CASES[type].collection}/${uid}`);

async function setUp(type: string, ago: number) {
  const place = await CASES[type].place(h, await freshGroup(h, `owned-${type}`), 1);
  const record = await theirs(type, place, ago);
  const before = await current(type, record.uid);
  h.emu.clearRequests();
  return { place, record, before };
}

describe.each(Object.keys(CASES))("%s", (type) => {
  test("someone else's identical record made a second ago, the POST lost before the service saw it", async () => {
    const { place, record, before } = await setUp(type, 1_000);
    nextPost = "drop";
    const outcome = await settled(create(type, place.inputs(0)));
    if (TIMELESS.includes(type)) {
      // Listed before the create, so not the create's: the create is sent again.
      if (DUPLICATES.includes(type)) {
        expect(outcome.created?.id).toEqual(expect.any(String));
        expect(outcome.created?.id).not.toBe(record.uid);
        expect(outcome.created?.props).not.toHaveProperty("adopted");
      } else expect(outcome.error?.message).toMatch(/failed: it already exists .*set `adopt: true`/);
    } else {
      expect(outcome.error?.message).toMatch(
        new RegExp(
          `failed: the answer to the create was lost \\(.*\\), and a .* with the same values exists that this program ` +
            `cannot prove it made: ${record.uid} \\(\\w+Time [^)]+\\)\\. .*nothing was taken over or deleted\\. ` +
            "To settle it: if one of them is this resource's, set `adoptUid` to its uid",
        ),
      );
      expect(writes()).toEqual([]);
    }
    expect(writes().filter((r) => r.method === "DELETE" || r.method === "PATCH")).toEqual([]);
    expect(await current(type, record.uid)).toEqual(before);
  });

  test("someone else's identical record made five minutes ago, the POST lost before the service saw it", async () => {
    const { place, record, before } = await setUp(type, 5 * MINUTE);
    nextPost = "drop";
    const outcome = await settled(create(type, place.inputs(0)));
    if (DUPLICATES.includes(type)) {
      // Made well before the request (or listed before it): another's. The create is sent again.
      expect(outcome.created?.id).not.toBe(record.uid);
      expect(outcome.created?.props).not.toHaveProperty("adopted");
      if (type === "GroupInvite") expect(outcome.created?.props.code).toEqual(expect.any(String));
    } else {
      // The key is taken by a record that is not the create's: refused as it would be without the lost answer.
      expect(outcome.error?.message).toMatch(/failed: it already exists .*set `adopt: true`/);
    }
    expect(writes().filter((r) => r.method === "DELETE" || r.method === "PATCH")).toEqual([]);
    expect(await current(type, record.uid)).toEqual(before);
  });
});

describe.each(DUPLICATES)("%s, a kind the service takes twice", (type) => {
  test("beside someone else's from five minutes ago, a POST applied but its answer lost: its own is found", async () => {
    const { place, record, before } = await setUp(type, 5 * MINUTE);
    nextPost = "dropAfter";
    const created = await create(type, place.inputs(0));
    const lostUid = proxy.lost.at(-1)!.body.uid as string;
    if (type === "GroupInvite") {
      // Its own (proven) is deleted so that the create answers a code; someone else's is not touched.
      expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
        `POST ${CASES[type].collection}/${place.parent}`,
        `DELETE ${CASES[type].collection}/${lostUid}`,
        `POST ${CASES[type].collection}/${place.parent}`,
      ]);
    } else {
      expect(created.id).toBe(lostUid);
      expect(writes().filter((r) => r.method !== "POST")).toEqual([]);
    }
    expect(created.props).not.toHaveProperty("adopted");
    expect(await current(type, record.uid)).toEqual(before);
  });

  test("beside someone else's from a second ago, a POST applied but its answer lost", async () => {
    const { place, record, before } = await setUp(type, 1_000);
    nextPost = "dropAfter";
    const outcome = await settled(create(type, place.inputs(0)));
    const lostUid = proxy.lost.at(-1)!.body.uid as string;
    if (TIMELESS.includes(type)) {
      // Not listed before the create: its own, proven.
      expect(outcome.created?.id).toBe(lostUid);
    } else {
      // Two candidates, one made around the send: neither is taken; the message names both.
      expect(outcome.error?.message).toMatch(
        /and 2 \w+ with the same values exist that this program cannot prove it made/,
      );
      expect(outcome.error?.message).toContain(record.uid);
      expect(outcome.error?.message).toContain(lostUid);
    }
    expect(writes().filter((r) => r.method === "DELETE" || r.method === "PATCH")).toEqual([]);
    expect(await current(type, record.uid)).toEqual(before);
  });
});

test("with adoption on, the one unproven look-alike is taken over, as adopted", async () => {
  const { place, record } = await setUp("Group", 1_000);
  nextPost = "drop";
  const created = await create("Group", { ...place.inputs(0), adopt: true });
  expect(created).toMatchObject({ id: record.uid, props: { adopted: true } });
});

const ISSUE_CASE = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
export const invite = new platform.iam.GroupInvite("invite", {
  groupUid: config.require("groupUid"),
  roleUid: config.require("roleUid"),
  ttl: "86400s",
}).uid;
export const subscription = new platform.events.Subscription("subscription", {
  parentUid: config.require("groupUid"),
  sink: "https://hooks.example.com/theirs",
}).uid;
`;

test("the issue's case under the real Pulumi CLI: look-alikes of an invite and a subscription are never deleted or taken", async () => {
  const group = await freshGroup(h, "issue-case");
  const invites = CASES.GroupInvite;
  const roleUid = (await invites.place(h, group, 1)).inputs(0).roleUid as string;
  h.emu.advanceClock(-1_000);
  const theirInvite = await made(h, `${invites.collection}/${group}`, { roleUid, ttl: "86400s" });
  const theirSubscription = await made(h, `${CASES.Subscription.collection}/${group}`, {
    sink: "https://hooks.example.com/theirs",
  });
  h.emu.advanceClock(1_000);
  // The first POST of each create (one per collection) is cut before the service sees it.
  const cut = new Set<string>();
  const lossy = await faultProxy(h.emu.url, {
    decide: (req) => {
      const collection = req.path.split("/")[3];
      if (req.method !== "POST" || !req.path.endsWith(`/${group}`) || cut.has(collection)) return "pass";
      cut.add(collection);
      return "drop";
    },
  });
  const project = programProject({
    name: "issue-case",
    program: { source: ISSUE_CASE },
    api: { url: lossy.url, token: h.emu.token },
  });
  try {
    h.emu.clearRequests();
    const up = await project.run("up", { groupUid: group, roleUid });
    expect(up.code).not.toBe(0);
    expect(`${up.stdout}${up.stderr}`).toContain(theirInvite.uid);
    expect(`${up.stdout}${up.stderr}`).toMatch(/cannot prove it made/);
    const subscription = project.resource("subscription")!;
    expect(subscription.id).not.toBe(theirSubscription.uid);
    expect(subscription.outputs).not.toHaveProperty("adopted");
    expect(project.resource("invite")).toBeUndefined();
    expect(h.emu.requests().filter((r) => r.method === "DELETE")).toEqual([]);
    const destroyed = await project.run("destroy");
    expect(destroyed.code).toBe(0);
    expect((await current("GroupInvite", theirInvite.uid)).status).toBe(200);
    expect((await current("Subscription", theirSubscription.uid)).status).toBe(200);
    expect((await current("Subscription", subscription.id!)).status).toBe(404);
  } finally {
    project.remove();
    await lossy.close();
  }
  // Two runs under the real CLI: on a loaded machine each can take 30 s or more.
}, 300_000);
