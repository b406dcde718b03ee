/**
 * Figure [5], every listable kind: the median time of one List page of 200 among 1,000 and among
 * 100,000 records of that kind (target: ratio < 2, a page costs the page, not the collection).
 * The records are clones of the one the emulator's seed holds for the kind (new uids and names,
 * the same data), written as the emulator's own state file and loaded at start, so seeding
 * 100,000 takes seconds instead of 100,000 creates. Kinds the seed holds no record of (invites,
 * external group role mappings, library request groups) get one through the API first.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { BUILTIN_ROLES, startEmulator } from "../emulator";
import { loadApiDocument } from "../emulator/apiDocument";
import { kindsOf } from "../emulator/kinds/registry";
import type { EmulatorState } from "../emulator/persistence";
import { repoRoot } from "../tools/host/stage";

export interface KindListCost {
  kind: string;
  path: string;
  medianMsAt1k: number;
  medianMsAt100k: number;
  ratio: number;
}

export interface EmulatorKindsResult {
  pageSize: number;
  samples: number;
  kinds: KindListCost[];
  /** Listable kinds with no seed record to clone. */
  notMeasured: string[];
}

/** Every kind the API document lists, where it is listed, and its List's required query given the root's uid. */
function listableKinds(): Array<{
  kind: string;
  domain: string;
  required: (rootUid: string) => Record<string, string>;
}> {
  const doc = loadApiDocument();
  return Object.values(kindsOf(doc))
    .filter((def) => def.operations.includes("list"))
    .map((def) => {
      const listPath = new RegExp(`^/${def.domain}/v2(beta1)?/${def.kind}$`);
      const list = [...doc.operations, ...doc.v2beta1Only].find(
        (op) => op.method.toUpperCase() === "GET" && listPath.test(op.path),
      );
      const names = (list?.parameters ?? []).filter((p) => p.in === "query" && p.required).map((p) => p.name);
      const unknown = names.filter((name) => name !== "parent");
      if (unknown.length)
        throw new Error(`the List of ${def.kind} requires ${unknown.join(", ")}, which the bench cannot give`);
      return {
        kind: def.kind,
        domain: def.domain,
        required: (rootUid: string): Record<string, string> => (names.length ? { parent: rootUid } : {}),
      };
    });
}

type StoredRecord = NonNullable<EmulatorState["records"]["groups"]>[number];

/** `count` copies of `template`: the last uid segment replaced by a hash of the same length, names numbered. */
function clones(kind: string, template: StoredRecord, count: number): StoredRecord[] {
  const segment = (i: number, length: number) =>
    createHash("sha1").update(`${kind}:${i}`).digest("hex").slice(0, length);
  // A record keyed by its parent (an account association: its uid is its group's) is one per
  // parent: each clone stands for its own group below the template's.
  if (kindsOf(loadApiDocument())[kind]?.keyedByParent)
    return Array.from({ length: count }, (_, i) => {
      const uid = `${template.uid}/${segment(i, 16)}`;
      return {
        ...template,
        uid,
        parentUid: uid,
        name: `${template.name}-${i}`,
        createTime: template.createTime + i,
        updateTime: template.updateTime + i,
      };
    });
  const slash = template.uid.lastIndexOf("/");
  const prefix = template.uid.slice(0, slash + 1);
  const length = template.uid.length - prefix.length;
  return Array.from({ length: count }, (_, i) => ({
    ...template,
    uid: prefix + segment(i, length),
    name: template.name ? `${template.name}-${i}` : "",
    createTime: template.createTime + i,
    updateTime: template.updateTime + i,
  }));
}

/** POST through the API, so each record is what a client's create stores. */
async function create(url: string, token: string, listPath: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${listPath}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200)
    throw new Error(`POST ${listPath}: HTTP ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
  return answer;
}

/** One record of each listable kind the seed holds none of, so that every kind has a template to clone. */
async function addUnseededKinds(url: string, token: string, rootUid: string): Promise<void> {
  const viewer = BUILTIN_ROLES.find((role) => role.name === "viewer")!.uid;
  await create(url, token, `/iam/v2beta1/groupInvites/${rootUid}`, { roleUid: viewer, ttl: "86400s" });
  const providers = await fetch(`${url}/iam/v2beta1/identityProviders`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const [provider] =
    ((await providers.json()) as { identityProviders?: Array<{ uid: string }> }).identityProviders ?? [];
  if (!provider) throw new Error("the emulator's seed holds no identity provider to map external groups on");
  await create(url, token, `/iam/v2beta1/externalGroupRoleMappings/${provider.uid}`, {
    externalGroupId: "engineering",
    roleUid: viewer,
  });
  await create(url, token, `/libraries/v2beta1/requestGroups/${rootUid}`, {
    name: "python-deps",
    content: "requests==2.31.0\n",
  });
}

async function pageMedian(
  url: string,
  token: string,
  listPath: string,
  required: Record<string, string>,
  samples: number,
): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const times: number[] = [];
  let pageToken: string | undefined;
  const key = listPath.split("/").pop()!;
  for (let i = 0; i < samples + 10; i++) {
    const query = new URLSearchParams({ ...required, page_size: "200" });
    if (pageToken) query.set("page_token", pageToken);
    const started = performance.now();
    const response = await fetch(`${url}${listPath}?${query.toString()}`, { headers });
    const body = (await response.json()) as Record<string, unknown> & { nextPageToken?: string };
    const elapsed = performance.now() - started;
    const items = body[key];
    if (response.status !== 200 || !Array.isArray(items) || items.length === 0)
      throw new Error(`GET ${listPath}: HTTP ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    if (i >= 10) times.push(elapsed);
    pageToken = body.nextPageToken || undefined;
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

export async function benchEmulatorKinds(options: {
  samples: number;
  large?: number;
  /** Only these kinds (all listable kinds when absent). */
  only?: string[];
}): Promise<EmulatorKindsResult> {
  const large = options.large ?? 100_000;
  const dir = fs.mkdtempSync(path.join(repoRoot, ".work", "bench-emulator-kinds-"));
  try {
    // The seed, as the emulator persists it: one or more records of most kinds to clone.
    const seedFile = path.join(dir, "seed.json");
    const seeded = await startEmulator({
      quiet: true,
      seed: true,
      statePath: seedFile,
      bulk: { groups: 1, repos: 1, tagsPerRepo: 1, advisories: 1 },
    });
    try {
      await addUnseededKinds(seeded.url, seeded.token, seeded.rootUid);
    } finally {
      await seeded.close();
    }
    const seed = JSON.parse(fs.readFileSync(seedFile, "utf8")) as EmulatorState;
    const kinds: KindListCost[] = [];
    const notMeasured: string[] = [];
    for (const { kind, domain, required } of listableKinds()) {
      if (options.only && !options.only.includes(kind)) continue;
      const records = seed.records[kind] ?? [];
      if (records.length === 0) {
        notMeasured.push(kind);
        continue;
      }
      const template = records[records.length - 1];
      const listPath = `/${domain}/v2beta1/${kind}`;
      const medianAt = async (count: number) => {
        const file = path.join(dir, `${kind}-${count}.json`);
        const state: EmulatorState = {
          ...seed,
          records: { ...seed.records, [kind]: [...records, ...clones(kind, template, count)] },
        };
        fs.writeFileSync(file, JSON.stringify(state));
        const emu = await startEmulator({ quiet: true, seed: false, statePath: file });
        try {
          return await pageMedian(emu.url, emu.token, listPath, required(seed.rootUid), options.samples);
        } finally {
          await emu.close();
          fs.rmSync(file, { force: true });
          fs.rmSync(`${file}.journal`, { force: true });
        }
      };
      const medianMsAt1k = await medianAt(1_000);
      const medianMsAt100k = await medianAt(large);
      kinds.push({ kind, path: listPath, medianMsAt1k, medianMsAt100k, ratio: medianMsAt100k / medianMsAt1k });
    }
    return { pageSize: 200, samples: options.samples, kinds, notMeasured };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
