/**
 * Figure 1: requests per operation, read from the emulator's request log, against the floor:
 * check 0, diff 0, create 1, read 1, update 1, delete 1 for every managed resource, plus one
 * at create for a kind whose records tell no creation time (its create lists the records holding
 * the key first, so that a lost answer can be settled), plus one
 * for each companion document it sets (a repo's readme) at create, read and its update (through the
 * REAL dynamic-provider host, with the `__provider` text a program writes), ceil(N/200) for a
 * look-up of N results, and one token exchange per token lifetime (an hour) of work.
 * Anything above a floor is a bug, not a number.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Harness } from "../tools/host/resourceHarness";
import { startHost } from "../tools/host/host";
import { startEmulator, RunningEmulator } from "../emulator";
import { ManagedKind, managedKinds } from "./kinds";
import { pool } from "./stats";
import { withClient } from "../core/program/lookup";

export interface CountedOperation {
  /** "Group", "getGroups limit 201", "token exchange". */
  subject: string;
  operation: string;
  floor: number;
  measured: number;
  /** What the emulator logged, "METHOD path", for the evidence when above the floor. */
  calls: string[];
  /** How far above the floor still counts as at it (the token renewal's safety margin). */
  slack?: number;
}

export const isAboveFloor = (op: CountedOperation) => op.measured > op.floor + (op.slack ?? 0) + 1e-9;
export const aboveFloor = (ops: CountedOperation[]) => ops.filter(isAboveFloor);

type Props = Record<string, any>;
/** Requests per operation where a kind's floor is not one. */
type Floors = Partial<Record<"create" | "read" | "update" | "delete", number>>;

async function counted<T>(
  h: Harness,
  into: CountedOperation[],
  subject: string,
  operation: string,
  floor: number,
  work: () => Promise<T>,
): Promise<T> {
  h.emu.clearRequests();
  const result = await work();
  const calls = h.calls();
  into.push({ subject, operation, floor, measured: calls.length, calls });
  h.emu.clearRequests();
  return result;
}

/** check → create → read → diff (unchanged and changed) → check → update → delete, each counted. */
async function lifecycle(
  h: Harness,
  into: CountedOperation[],
  kind: ManagedKind,
  inputs: Props,
  changed: Props | undefined,
  replaced: Props | undefined,
  subject: string = kind.typeName,
  floors: Floors = {},
): Promise<void> {
  const type = subject;
  // A companion document the program sets is one more request where it is written or read.
  const documents = kind.companionInputs.filter((input) => inputs[input] !== undefined).length;
  const changedKeys = Object.keys(changed ?? {});
  const updateFloor =
    changedKeys.filter((key) => kind.companionInputs.includes(key)).length +
    (changedKeys.some((key) => !kind.companionInputs.includes(key)) ? (floors.update ?? 1) : 0);
  const urn = kind.urn(`bench-${type.toLowerCase()}`);
  const news = { ...inputs, __provider: kind.providerText };
  const checked = await counted(h, into, type, "check", 0, () => h.host.check(urn, {}, news));
  if (checked.failures.length) throw new Error(`${type} check failed: ${JSON.stringify(checked.failures)}`);
  const createFloor = floors.create ?? (kind.listsBeforeCreate ? 2 : 1);
  const created = await counted(h, into, type, "create", createFloor + documents, () =>
    h.host.create(urn, checked.inputs),
  );
  const read = await counted(h, into, type, "read", (floors.read ?? 1) + documents, () =>
    h.host.read(created.id, urn, created.props, checked.inputs),
  );
  const same = await counted(h, into, type, "diff (unchanged)", 0, () =>
    h.host.diff(created.id, urn, read.props, checked.inputs),
  );
  if (same.changes !== "none") throw new Error(`${type} diff of unchanged inputs reported ${same.changes}`);
  const next = { ...news, ...(changed ?? replaced) };
  const rechecked = await counted(h, into, type, "check (changed)", 0, () =>
    h.host.check(urn, read.inputs ?? {}, next),
  );
  const diff = await counted(h, into, type, "diff (changed)", 0, () =>
    h.host.diff(created.id, urn, read.props, rechecked.inputs),
  );
  // A kind the API cannot update in place: its change is a replacement (a create and a delete,
  // each counted above), so there is no update to count.
  const inPlace = changed !== undefined;
  if (diff.changes !== "some" || diff.replaces.length > 0 === inPlace)
    throw new Error(
      `${type} diff of ${inPlace ? "an in-place" : "a replacing"} change reported ${JSON.stringify(diff)}`,
    );
  const updated = inPlace
    ? await counted(h, into, type, "update", updateFloor, () =>
        h.host.update(created.id, urn, read.props, rechecked.inputs),
      )
    : read.props;
  await counted(h, into, type, "delete", floors.delete ?? 1, () => h.host.delete(created.id, urn, updated));
}

const GITHUB = "https://token.actions.githubusercontent.com";

/**
 * What each managed kind is measured with: inputs to create, an in-place change (no replacement)
 * or, for a kind the API cannot update, a change that replaces it, and what to remove afterwards.
 * Made directly through the API, not counted. A kind found in the package without a sample here
 * fails the figure (and tests/bench.test.ts), naming it.
 */
type Sample = (h: Harness) => Promise<
  {
    inputs: Props;
    cleanup?: () => Promise<void>;
    /**
     * A hand-written kind's own floors where they are not one request (a SCIM token's create is
     * a generate and an enable; its update reads the etag first).
     */
    floors?: Floors;
  } & ({ changed: Props } | { replaced: Props })
>;

/** A repo made directly through the API, for the kinds that live in one. */
async function benchRepo(h: Harness, name: string): Promise<{ uid: string; cleanup: () => Promise<void> }> {
  const repo = await h.api<{ uid: string }>("POST", `/registry/v2beta1/repos/${h.emu.rootUid}`, { name });
  return {
    uid: repo.body.uid,
    cleanup: async () => void (await h.api("DELETE", `/registry/v2beta1/repos/${repo.body.uid}`)),
  };
}

const DIGEST = `sha256:${"ab".repeat(32)}`;

export const SAMPLES: Record<string, Sample> = {
  Role: async (h) => ({
    inputs: { parentUid: h.emu.rootUid, name: "bench-role", capabilities: ["CAP_REPO_LIST"] },
    changed: { description: "measured" },
  }),
  Group: async (h) => ({
    inputs: { parentUid: h.emu.rootUid, name: "bench-group", description: "measured" },
    changed: { name: "bench-group-renamed" },
  }),
  Identity: async (h) => ({
    inputs: {
      parentUid: h.emu.rootUid,
      name: "bench-identity",
      claimMatch: { issuer: GITHUB, subject: "repo:acme/app:ref:refs/heads/main" },
    },
    changed: { description: "measured" },
  }),
  IdentityProvider: async (h) => {
    const roles = (await h.api<{ roles: { uid: string }[] }>("GET", "/iam/v2beta1/roles?name=viewer")).body.roles;
    return {
      inputs: {
        parentUid: h.emu.rootUid,
        name: "bench-idp",
        defaultRole: roles[0].uid,
        oidc: { issuer: "https://login.example.com", clientId: "bench", clientSecret: "bench-client-secret" },
      },
      changed: { oidc: { issuer: "https://login.example.com", clientId: "bench", clientSecret: "rotated-secret" } },
    };
  },
  RoleBinding: async (h) => {
    const root = h.emu.rootUid;
    const group = await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "bench-binding-group" });
    const identity = await h.api("POST", `/iam/v2beta1/identities/${root}`, {
      name: "bench-binding-identity",
      claimMatch: { issuer: GITHUB, subject: "repo:acme/binding" },
    });
    const role = async (name: string) =>
      (await h.api<{ roles: { uid: string }[] }>("GET", `/iam/v2beta1/roles?name=${name}`)).body.roles[0].uid;
    return {
      inputs: { groupUid: group.body.uid, identityUid: identity.body.uid, roleUid: await role("viewer") },
      changed: { roleUid: await role("editor") },
      cleanup: async () => {
        await h.api("DELETE", `/iam/v2beta1/groups/${group.body.uid}`);
        await h.api("DELETE", `/iam/v2beta1/identities/${identity.body.uid}`);
      },
    };
  },
  Repo: async (h) => ({
    inputs: { parentUid: h.emu.rootUid, name: "bench-repo", description: "measured", allowDelete: true },
    changed: { description: "measured again" },
  }),
  Tag: async (h) => {
    const repo = await benchRepo(h, "bench-tag-repo");
    return {
      inputs: { repoUid: repo.uid, name: "bench-tag", digest: DIGEST },
      replaced: { name: "bench-tag-renamed" },
      cleanup: repo.cleanup,
    };
  },
  Overlay: async (h) => ({
    inputs: { parentUid: h.emu.rootUid, name: "bench-overlay", config: { environment: { TZ: "UTC" } } },
    replaced: { name: "bench-overlay-renamed" },
  }),
  OverlayBinding: async (h) => {
    const repo = await benchRepo(h, "bench-binding-repo");
    const overlay = await h.api<{ uid: string }>("POST", `/registry/v2beta1/overlays/${h.emu.rootUid}`, {
      name: "bench-binding-overlay",
      config: {},
    });
    return {
      inputs: { repoUid: repo.uid, overlayUid: overlay.body.uid, tags: ["latest"] },
      replaced: { tags: ["latest", "v1"] },
      cleanup: async () => {
        await repo.cleanup();
        await h.api("DELETE", `/registry/v2beta1/overlays/${overlay.body.uid}`);
      },
    };
  },
  // One association per group (its uid is the group's): a group of its own, not the root, which may hold one.
  AccountAssociation: async (h) => {
    const group = await h.api<{ uid: string }>("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, {
      name: "bench-association-group",
    });
    return {
      inputs: { groupUid: group.body.uid, name: "bench-association", amazon: { account: "123456789012" } },
      changed: { amazon: { account: "210987654321" } },
      cleanup: async () => void (await h.api("DELETE", `/iam/v2beta1/groups/${group.body.uid}`)),
    };
  },
  ExternalGroupRoleMapping: async (h) => {
    const roles = await h.api<{ roles: { uid: string }[] }>("GET", "/iam/v2beta1/roles?name=viewer");
    const sso = await h.api<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${h.emu.rootUid}`, {
      name: "bench-sso",
      defaultRole: roles.body.roles[0].uid,
      oidc: { issuer: "https://sso.example.com", clientId: "bench" },
    });
    return {
      inputs: { identityProviderUid: sso.body.uid, externalGroupId: "bench-admins", roleUid: roles.body.roles[0].uid },
      replaced: { externalGroupId: "bench-readers" },
      cleanup: async () => void (await h.api("DELETE", `/iam/v2beta1/identityProviders/${sso.body.uid}`)),
    };
  },
  GroupInvite: async (h) => {
    const roles = await h.api<{ roles: { uid: string }[] }>("GET", "/iam/v2beta1/roles?name=viewer");
    return {
      inputs: { groupUid: h.emu.rootUid, roleUid: roles.body.roles[0].uid, ttl: "86400s" },
      replaced: { ttl: "3600s" },
    };
  },
  ScimToken: async (h) => {
    const roles = await h.api<{ roles: { uid: string }[] }>("GET", "/iam/v2beta1/roles?name=viewer");
    const sso = await h.api<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${h.emu.rootUid}`, {
      name: "bench-scim",
      defaultRole: roles.body.roles[0].uid,
    });
    return {
      inputs: { identityProviderUid: sso.body.uid },
      changed: { enabled: false },
      // create: generate, then setScimEnabled; update: the etag's GET, then setScimEnabled.
      floors: { create: 2, update: 2 },
      cleanup: async () => void (await h.api("DELETE", `/iam/v2beta1/identityProviders/${sso.body.uid}`)),
    };
  },
  Subscription: async (h) => ({
    inputs: { parentUid: h.emu.rootUid, sink: "https://hooks.example.com/bench" },
    replaced: { sink: "https://hooks.example.com/bench-2" },
  }),
};

/**
 * Further samples of a kind, each measured under its own subject: a repo with a readme (a
 * companion document: one more request at create, read and the update of the readme).
 */
export const VARIANT_SAMPLES: Array<{ typeName: string; subject: string; sample: Sample }> = [
  {
    typeName: "Repo",
    subject: "Repo (readme)",
    sample: async (h) => ({
      inputs: { parentUid: h.emu.rootUid, name: "bench-repo-readme", readme: "# bench\n", allowDelete: true },
      changed: { readme: "# bench, measured\n" },
    }),
  },
];

/** Every managed kind the package ships (bench/kinds.ts), its operations through the host. */
export async function countResourceRequests(h: Harness): Promise<CountedOperation[]> {
  const kinds = await managedKinds(h);
  const missing = kinds.filter((k) => !SAMPLES[k.typeName]).map((k) => `${k.typeName} (${k.module})`);
  if (missing.length)
    throw new Error(`no request-floor sample for ${missing.join(", ")}: add one to SAMPLES in bench/requests.ts`);
  const ops: CountedOperation[] = [];
  for (const kind of kinds) {
    const sample = await SAMPLES[kind.typeName](h);
    h.emu.clearRequests();
    const changed = "changed" in sample ? sample.changed : undefined;
    if ((changed !== undefined) !== kind.updatable)
      throw new Error(`the ${kind.typeName} sample's change must ${kind.updatable ? "update in place" : "replace"}`);
    const replaced = "replaced" in sample ? sample.replaced : undefined;
    await lifecycle(h, ops, kind, sample.inputs, changed, replaced, kind.typeName, sample.floors);
    await sample.cleanup?.();
  }
  for (const variant of VARIANT_SAMPLES) {
    const kind = kinds.find((k) => k.typeName === variant.typeName);
    if (!kind) throw new Error(`no managed kind ${variant.typeName} for the sample ${variant.subject}`);
    const sample = await variant.sample(h);
    h.emu.clearRequests();
    const changed = "changed" in sample ? sample.changed : undefined;
    const replaced = "replaced" in sample ? sample.replaced : undefined;
    await lifecycle(h, ops, kind, sample.inputs, changed, replaced, variant.subject, sample.floors);
    await sample.cleanup?.();
  }
  h.emu.clearRequests();
  return ops;
}

/**
 * Look-ups of N results, through the staged package's own look-up functions and client:
 * getGroups with limits around the page size and without, getRepos in full.
 */
export async function countLookupRequests(h: Harness, groupLimits: number[]): Promise<CountedOperation[]> {
  const { createClient } = h.staged.require("platform-pulumi/dist/core/transport/client");
  const client = createClient({ apiUrl: h.emu.url, authUrl: h.emu.url, apiVersion: "v2beta1", token: h.emu.token });
  const ops: CountedOperation[] = [];
  const lookup = async (subject: string, run: () => Promise<unknown[]>) => {
    h.emu.clearRequests();
    const results = await run();
    const calls = h.calls();
    ops.push({
      subject: `${subject}: ${results.length} results`,
      operation: "look-up",
      floor: Math.max(1, Math.ceil(results.length / 200)),
      measured: calls.length,
      calls,
    });
  };
  try {
    const { iam, registry } = h.platform;
    const descendantsOf = h.emu.rootUid;
    for (const limit of groupLimits) {
      await lookup(
        `getGroups limit ${limit}`,
        async () => (await iam.getGroups({ descendantsOf, limit }, withClient(client))).groups,
      );
    }
    await lookup("getGroups (all)", async () => (await iam.getGroups({ descendantsOf }, withClient(client))).groups);
    await lookup("getRepos (all)", async () => (await registry.getRepos({ descendantsOf }, withClient(client))).repos);
    await lookup("getRoles (all)", async () => (await iam.getRoles({}, withClient(client))).roles);
  } finally {
    await client.close();
    h.emu.clearRequests();
  }
  return ops;
}

/** An identity of `emu` that OIDC tokens for `subject` from the emulator's issuer exchange into, as owner. */
export async function assumedIdentity(
  emu: RunningEmulator,
  subject: string,
  dir: string,
  expiresInSeconds: number,
): Promise<{ uid: string; file: string }> {
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${emu.url}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${emu.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const identity = await call("POST", `/iam/v2beta1/identities/${emu.rootUid}`, {
    name: subject,
    claimMatch: { issuer: emu.issuer, subject },
  });
  const owner = (await call("GET", "/iam/v2beta1/roles?name=owner")).roles[0].uid;
  await call("POST", `/iam/v2beta1/roleBindings/${emu.rootUid}`, { identityUid: identity.uid, roleUid: owner });
  const file = path.join(dir, `${subject}.jwt`);
  fs.writeFileSync(file, await emu.mintOidcToken({ subject, audience: emu.url, expiresInSeconds }));
  return { uid: identity.uid, file };
}

const exchangesIn = (emu: RunningEmulator) => emu.requests().filter((r) => r.path === "/sts/exchange").length;

/**
 * A whole workload inside one token lifetime, through a second host that assumes an identity
 * (configured as a user would: platform:identity + platform:identityTokenFile): a refresh and a
 * preview of every resource, `concurrency` at a time. Floor: one exchange.
 */
export async function countExchangesThroughHost(
  h: Harness,
  groupUids: string[],
  concurrency: number,
): Promise<CountedOperation> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-oidc-"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
  const host = await startHost({ cwd: h.staged.dir, env });
  try {
    const ci = await assumedIdentity(h.emu, "bench-ci", dir, 3600);
    await host.configure({
      "platform:apiUrl": h.emu.url,
      "platform:identity": ci.uid,
      "platform:identityTokenFile": ci.file,
    });
    h.emu.clearRequests();
    const urn = h.urn("Group", "bench-exchange");
    await pool(groupUids.length, concurrency, async (i) => {
      const read = await host.read(groupUids[i], urn, { __provider: h.providers.Group });
      const checked = await host.check(urn, read.inputs ?? {}, read.inputs ?? {});
      await host.diff(read.id, urn, read.props, checked.inputs);
    });
    const calls = h.calls();
    // Each group read with the exchanged token: by its own GET, or among the uids of a List (reads
    // that overlap are answered together).
    const read = new Set(
      h.emu
        .requests()
        .filter((r) => r.method === "GET" && r.path.startsWith("/iam/v2beta1/groups"))
        .flatMap((r) => {
          const [, uid] = r.path.split("/iam/v2beta1/groups/");
          return uid === undefined ? [r.query["uidp.ids"] ?? []].flat() : [decodeURIComponent(uid)];
        }),
    );
    const unread = groupUids.filter((uid) => !read.has(uid));
    if (unread.length > 0)
      throw new Error(`expected ${groupUids.length} groups read with the exchanged token, ${unread.length} were not`);
    return {
      subject: `assumed identity, ${groupUids.length} reads + checks + diffs at concurrency ${concurrency} (one token lifetime)`,
      operation: "token exchange",
      floor: 1,
      measured: exchangesIn(h.emu),
      calls: calls.filter((c) => c.includes("/sts/")),
    };
  } finally {
    await host.close();
    fs.rmSync(dir, { recursive: true, force: true });
    h.emu.clearRequests();
  }
}

/**
 * Hours of work on a simulated clock, through the staged package's client (the real token code;
 * only Date.now is moved): a burst of `burst` concurrent calls every simulated minute. A
 * separate emulator, since its clock (Date.now + offset) moves too.
 * Measured: exchanges per hour of work, i.e. 60 / the median minutes between two exchanges.
 * Floor: 1 (a token used for its whole hour), with a slack of 0.05 for a renewal a few minutes
 * before expiry.
 */
export async function countExchangesOverHours(
  staged: Harness["staged"],
  hours: number,
  burst: number,
): Promise<CountedOperation & { exchanges: number }> {
  const emu = await startEmulator({ quiet: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-oidc-"));
  const realNow = Date.now;
  let client: { request(req: object): Promise<unknown>; close(): Promise<void> } | undefined;
  try {
    const ci = await assumedIdentity(emu, "bench-long-run", dir, (hours + 2) * 3600);
    // The clock moves before the client exists: the token code may keep a reference to Date.now.
    const started = realNow();
    let offset = 0;
    Date.now = () => realNow() + offset;
    const { createClient } = staged.require("platform-pulumi/dist/core/transport/client");
    client = createClient({
      apiUrl: emu.url,
      authUrl: emu.url,
      apiVersion: "v2beta1",
      identity: ci.uid,
      identityTokenFile: ci.file,
    });
    emu.clearRequests();
    const minutes = hours * 60;
    for (let minute = 0; minute < minutes; minute++) {
      offset = minute * 60_000 - (realNow() - started);
      await Promise.all(
        Array.from({ length: burst }, () =>
          client!.request({ method: "GET", domain: "iam", path: `groups/${emu.rootUid}` }),
        ),
      );
    }
    const rejected = emu.requests().filter((r) => r.status === 401).length;
    if (rejected) throw new Error(`${rejected} requests were rejected as unauthenticated during the simulated run`);
    const exchanges = emu.requests().filter((r) => r.path === "/sts/exchange");
    const times = exchanges.map((r) => Date.parse(r.time));
    const gaps = times
      .slice(1)
      .map((t, i) => (t - times[i]) / 60_000)
      .sort((a, b) => a - b);
    const medianGap = gaps.length ? gaps[gaps.length >> 1] : Infinity;
    return {
      subject: `assumed identity, ${hours} simulated hours, ${burst} concurrent calls a minute (${minutes * burst} calls, ${exchanges.length} exchanges, every ${medianGap.toFixed(0)} min)`,
      operation: "token exchanges per hour",
      floor: 1,
      slack: 0.05,
      measured: Math.round((60 / medianGap) * 100) / 100,
      exchanges: exchanges.length,
      calls: exchanges.map((c) => `${c.method} ${c.path} at ${c.time}`),
    };
  } finally {
    Date.now = realNow;
    await client?.close();
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
