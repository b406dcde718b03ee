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
import { ExampleRecords, freshPlace } from "../tools/host/exampleRecords";

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

/**
 * What a kind is measured with, derived from its description (tools/host/exampleRecords.ts): its
 * example's inputs under a group of its own, with what they refer to made first through the API
 * (not counted); a change that updates it in place or, for a kind the API cannot update, one that
 * replaces it; and its own floors where the description gives them. A kind whose delete is refused
 * without a guard input (a repo's `allowDelete`) gets the guard set.
 */
interface Sample {
  /** "Group", or "Repo (readme)" for a companion's variant. */
  subject: string;
  kind: ManagedKind;
  inputs: Props;
  change: Props;
  inPlace: boolean;
  floors?: Floors;
  cleanup(): Promise<void>;
}

/** The sample of `kind`, and one more per companion document (a repo's readme), each measured under its own subject. */
export async function samplesOf(
  h: Pick<Harness, "api" | "emu">,
  kind: ManagedKind,
  kinds: readonly ManagedKind[],
): Promise<Sample[]> {
  const descriptions = kinds.map((k) => k.description);
  const samples: Sample[] = [];
  for (const companion of [undefined, ...(kind.description.companions ?? [])]) {
    const subject = companion ? `${kind.typeName} (${companion.input})` : kind.typeName;
    const place = await freshPlace(
      h.api,
      descriptions,
      h.emu.rootUid,
      `bench-${subject.replace(/\W+/g, "-").toLowerCase()}`,
    );
    const records = new ExampleRecords(h.api, descriptions, place.uid);
    const described = records.kind(kind.typeName);
    const inputs = { ...(await records.inputs(described)), ...deleteGuard(described) };
    const { inPlace, change } = companion
      ? { inPlace: true, change: { [companion.input]: `# ${subject}, changed\n` } }
      : await records.change(described);
    if (companion) inputs[companion.input] = `# ${subject}\n`;
    samples.push({
      subject,
      kind,
      inputs,
      change,
      inPlace,
      floors: described.requestFloors,
      cleanup: async () => {
        await records.remove();
        await place.remove();
      },
    });
  }
  return samples;
}

/** The local boolean inputs whose `true` lifts the kind's refusal to delete a record (a repo's `allowDelete`). */
function deleteGuard(kind: ReturnType<ExampleRecords["kind"]>): Props {
  if (!kind.refuseDelete?.({})) return {};
  const guard = kind.localInputs.find((input) => kind.refuseDelete!({ [input]: true }) === undefined);
  if (!guard)
    throw new Error(`${kind.typeName}: its delete is refused, and no local input set to true lifts the refusal`);
  return { [guard]: true };
}

/** Every managed kind the package ships (bench/kinds.ts), its operations through the host. */
export async function countResourceRequests(h: Harness): Promise<CountedOperation[]> {
  const kinds = await managedKinds(h);
  const ops: CountedOperation[] = [];
  const variants: Sample[] = [];
  for (const kind of kinds) {
    const [sample, ...more] = await samplesOf(h, kind, kinds);
    variants.push(...more);
    await measure(h, ops, sample);
  }
  for (const variant of variants) await measure(h, ops, variant);
  h.emu.clearRequests();
  return ops;
}

async function measure(h: Harness, ops: CountedOperation[], sample: Sample): Promise<void> {
  h.emu.clearRequests();
  if (sample.inPlace !== sample.kind.updatable)
    throw new Error(
      `the ${sample.subject} sample's change must ${sample.kind.updatable ? "update in place" : "replace"}`,
    );
  const { inputs, change, inPlace } = sample;
  await lifecycle(
    h,
    ops,
    sample.kind,
    inputs,
    inPlace ? change : undefined,
    inPlace ? undefined : change,
    sample.subject,
    sample.floors,
  );
  await sample.cleanup();
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
