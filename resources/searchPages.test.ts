/**
 * Every search for a record walks every page of its List, for every kind that has one: adoption
 * (`adopt: true`) and the search after a lost create, through the REAL dynamic-provider host.
 * Each kind gets 260 siblings under one parent; a proxy in front of the emulator plays a service
 * that filters loosely (only by place) and orders by creation, so the record looked for is the
 * newest of more than 200 and always on the second page of 200.
 */
import { ManagedKind, managedKinds } from "../bench/kinds";
import { BUILTIN_ROLES } from "../emulator";
import { FaultProxy, faultProxy } from "../tests/support/faultProxy";
import { Harness, startHarness } from "../tests/support/resourceHarness";

jest.setTimeout(120_000);

let h: Harness;
let proxy: FaultProxy;
let kinds: Record<string, ManagedKind>;
/** The first POST of a test is answered by the service, then its answer is cut. */
let loseNextPost = false;
const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const GITHUB = "https://token.actions.githubusercontent.com";
const DIGEST = `sha256:${"c".repeat(64)}`;
const SIBLINGS = 260;
/** The filters a loose service ignores: all but the place (a parent, an identity provider). */
const KEY_FILTERS = ["name", "identity", "role", "overlay"];

beforeAll(async () => {
  h = await startHarness();
  kinds = Object.fromEntries((await managedKinds(h)).map((kind) => [kind.typeName, kind]));
  proxy = await faultProxy(h.emu.url, {
    decide: (req) => {
      if (req.method !== "POST" || !loseNextPost) return "pass";
      loseNextPost = false;
      return "dropAfter";
    },
    rewrite: ({ method, path, query }) => {
      const listed = new URLSearchParams(query);
      if (method !== "GET" || path.split("/").length !== 4) return listed;
      for (const filter of KEY_FILTERS) listed.delete(filter);
      listed.set("order_by", "created_at");
      return listed;
    },
  });
  await h.host.configure({ "platform:apiUrl": proxy.url, "platform:token": h.emu.token });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/** One direct API call (out of band), failing the test on an error answer. */
async function made(path: string, body: unknown): Promise<{ uid: string }> {
  const answer = await h.api("POST", path, body);
  if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `count` records made in small parallel batches, in index order batch by batch. */
async function many(count: number, make: (i: number) => Promise<{ uid: string }>): Promise<string[]> {
  const uids: string[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - start) }, (_, k) => make(start + k)));
    uids.push(...batch.map((r) => r.uid));
  }
  return uids;
}

interface Place {
  /** Where the kind's records are created: `POST {collection}/{parent}`. */
  parent: string;
  /** The create body of record `i`. */
  body(i: number): Record<string, unknown>;
  /** The resource inputs that declare record `i`. */
  inputs(i: number): Record<string, unknown>;
}

/** Per kind: its collection's path and how records `0…` are made under a fresh group. */
const CASES: Record<string, { collection: string; place(group: string): Promise<Place> }> = {
  Group: {
    collection: "/iam/v2beta1/groups",
    place: async (group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ parentUid: group, name: `n${i}` }),
    }),
  },
  Identity: {
    collection: "/iam/v2beta1/identities",
    place: async (group) => {
      const body = (i: number) => ({ name: `n${i}`, claimMatch: { issuer: GITHUB, subject: `s${i}` } });
      return { parent: group, body, inputs: (i) => ({ parentUid: group, ...body(i) }) };
    },
  },
  Role: {
    collection: "/iam/v2beta1/roles",
    place: async (group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ parentUid: group, name: `n${i}` }),
    }),
  },
  RoleBinding: {
    collection: "/iam/v2beta1/roleBindings",
    place: async (group) => {
      const identities = await many(SIBLINGS + 2, (i) =>
        made(`/iam/v2beta1/identities/${group}`, { name: `n${i}`, claimMatch: { issuer: GITHUB, subject: `s${i}` } }),
      );
      return {
        parent: group,
        body: (i) => ({ identityUid: identities[i], roleUid: viewer }),
        inputs: (i) => ({ groupUid: group, identityUid: identities[i], roleUid: viewer }),
      };
    },
  },
  Repo: {
    collection: "/registry/v2beta1/repos",
    place: async (group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ parentUid: group, name: `n${i}` }),
    }),
  },
  Tag: {
    collection: "/registry/v2beta1/tags",
    place: async (group) => {
      const repo = (await made(`/registry/v2beta1/repos/${group}`, { name: "tagged" })).uid;
      return {
        parent: repo,
        body: (i) => ({ name: `t${i}`, digest: DIGEST }),
        inputs: (i) => ({ repoUid: repo, name: `t${i}`, digest: DIGEST }),
      };
    },
  },
  IdentityProvider: {
    collection: "/iam/v2beta1/identityProviders",
    place: async (group) => {
      const body = (i: number) => ({
        name: `n${i}`,
        defaultRole: viewer,
        oidc: { issuer: "https://login.example.com", clientId: `c${i}` },
      });
      return { parent: group, body, inputs: (i) => ({ parentUid: group, ...body(i) }) };
    },
  },
  AccountAssociation: {
    collection: "/iam/v2beta1/accountAssociations",
    place: async (group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ groupUid: group, name: `n${i}` }),
    }),
  },
  GroupInvite: {
    collection: "/iam/v2beta1/groupInvites",
    place: async (group) => ({
      parent: group,
      body: (i) => ({ roleUid: viewer, ttl: `${1000 + i}s` }),
      inputs: (i) => ({ groupUid: group, roleUid: viewer, ttl: `${1000 + i}s` }),
    }),
  },
  ExternalGroupRoleMapping: {
    collection: "/iam/v2beta1/externalGroupRoleMappings",
    place: async (group) => {
      const idp = (
        await made(`/iam/v2beta1/identityProviders/${group}`, {
          name: "directory",
          defaultRole: viewer,
          oidc: { issuer: "https://login.example.com", clientId: "directory" },
        })
      ).uid;
      return {
        parent: idp,
        body: (i) => ({ externalGroupId: `e${i}`, roleUid: viewer }),
        inputs: (i) => ({ identityProviderUid: idp, externalGroupId: `e${i}`, roleUid: viewer }),
      };
    },
  },
  Subscription: {
    collection: "/events/v2beta1/subscriptions",
    place: async (group) => ({
      parent: group,
      body: (i) => ({ sink: `https://hooks.example.com/${i}` }),
      inputs: (i) => ({ parentUid: group, sink: `https://hooks.example.com/${i}` }),
    }),
  },
  Overlay: {
    collection: "/registry/v2beta1/overlays",
    place: async (group) => {
      const body = (i: number) => ({ name: `n${i}`, config: { environment: { N: `${i}` } } });
      return { parent: group, body, inputs: (i) => ({ parentUid: group, ...body(i) }) };
    },
  },
  OverlayBinding: {
    collection: "/registry/v2beta1/overlayBindings",
    place: async (group) => {
      const repo = (await made(`/registry/v2beta1/repos/${group}`, { name: "overlaid" })).uid;
      const overlays = await many(SIBLINGS + 2, (i) =>
        made(`/registry/v2beta1/overlays/${group}`, { name: `o${i}`, config: { environment: { N: `${i}` } } }),
      );
      return {
        parent: repo,
        body: (i) => ({ overlay: overlays[i], tags: ["latest"] }),
        inputs: (i) => ({ repoUid: repo, overlayUid: overlays[i], tags: ["latest"] }),
      };
    },
  },
};

let groups = 0;
/** A fresh group with `SIBLINGS` records of the kind under its place, made in creation order. */
async function crowded(type: string): Promise<Place> {
  const group = (
    await made(`/iam/v2beta1/groups/${h.emu.rootUid}`, { name: `crowd-${type.toLowerCase()}-${groups++}` })
  ).uid;
  const place = await CASES[type].place(group);
  await many(SIBLINGS, (i) => made(`${CASES[type].collection}/${place.parent}`, place.body(i)));
  return place;
}

/** The List requests the emulator saw for the kind's collection, by page: the second carries a page token. */
const listed = (type: string) =>
  h.emu.requests().filter((r) => r.method === "GET" && r.path === CASES[type].collection);

const create = (type: string, inputs: Record<string, unknown>) =>
  h.host.create(kinds[type].urn(`paged-${type}`), { ...inputs, __provider: kinds[type].providerText });

test("every kind with a search has a case here", () => {
  expect(Object.keys(CASES).sort()).toEqual(
    Object.keys(kinds)
      .filter((type) => type !== "ScimToken")
      .sort(),
  );
});

test.each(Object.keys(CASES))("%s: adoption finds the record past the first page of 200", async (type) => {
  const place = await crowded(type);
  const target = await made(`${CASES[type].collection}/${place.parent}`, place.body(SIBLINGS));
  h.emu.clearRequests();
  const adopted = await create(type, { ...place.inputs(SIBLINGS), adopt: true });
  expect(adopted).toMatchObject({ id: target.uid, props: { adopted: true } });
  const pages = listed(type);
  expect(pages.length).toBeGreaterThanOrEqual(2);
  expect(pages[1].query.page_token).toEqual(expect.any(String));
  // Nothing was created: no POST succeeded.
  expect(h.emu.requests().filter((r) => r.method === "POST" && r.status === 200)).toEqual([]);
});

test.each(Object.keys(CASES))("%s: the search after a lost create finds it past the first page", async (type) => {
  const place = await crowded(type);
  h.emu.clearRequests();
  loseNextPost = true;
  const created = await create(type, place.inputs(SIBLINGS + 1));
  expect(proxy.lost.at(-1)).toMatchObject({ method: "POST", status: 200 });
  const made = proxy.lost.at(-1)!.body.uid as string;
  const kept = h.emu
    .requests()
    .filter((r) => r.method === "GET" && r.path === CASES[type].collection && r.query.page_token !== undefined);
  expect(kept.length).toBeGreaterThanOrEqual(1);
  if (type === "GroupInvite") {
    // Its code is answered only to the create: the invite the lost create made is deleted, one more is made.
    expect(created.id).not.toBe(made);
    expect(created.props.code).toEqual(expect.any(String));
    expect((await h.api("GET", `${CASES[type].collection}/${made}`)).status).toBe(404);
  } else {
    expect(created.id).toBe(made);
  }
  const posts = h.emu.requests().filter((r) => r.method === "POST");
  expect(posts).toHaveLength(type === "GroupInvite" ? 2 : 1);
});
