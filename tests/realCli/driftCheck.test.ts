/**
 * A drift check under the REAL Pulumi CLI: `pulumi preview --refresh` of a stack of 128
 * records (departments under the root, teams under them, two CI identities per team and a role
 * binding of each), with records edited and deleted behind the program's back, through a proxy in
 * front of the emulator (tests/support/readsProxy.ts). The dynamic-provider host answers reads of
 * one kind that overlap with one List (core/runtime/readBatches.ts); the same build with
 * PLATFORM_BATCH_READS=false is today's one GET per record, and both must find the same drift:
 * exactly the records changed.
 *
 * Where a test needs the reads to overlap, it makes them: with `--parallel` above the number of
 * records the engine starts every read at once; the proxy holds the first GET of each kind, and
 * lets them go only once the engine's events say every read has started. Everything else each
 * read of those kinds waits in the provider meanwhile.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import { refreshesStarted } from "../support/engineEvents";
import * as path from "node:path";
import { BUILTIN_ROLES, startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { changedRecords, driftOf } from "../../bench/cliBatch";
import { nodeProgramFolder } from "../../tools/pulumi-cli/programFolder";
import { firstGetOf, ReadsProxy, readsProxy, ReadsProxyOptions, said } from "../support/readsProxy";
import { RealCliRun, realCliStack, RealCliStack } from "../support/realCli";

jest.setTimeout(900_000);

const PROJECT = "drift-check";
const DEPARTMENTS = 4;
const TEAMS_PER_DEPARTMENT = 6;
const VIEWER = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const roleUid = config.require("roleUid");
for (let d = 0; d < ${DEPARTMENTS}; d++) {
  const department = new platform.iam.Group(\`dept-\${d}\`, { parentUid: rootUid, name: \`dept-\${d}\` });
  new platform.iam.Group(\`dept-\${d}-archive\`, { parentUid: department.uid, name: "archive" });
  for (let t = 0; t < ${TEAMS_PER_DEPARTMENT}; t++) {
    const team = new platform.iam.Group(\`team-\${d}-\${t}\`, {
      parentUid: department.uid,
      name: \`team-\${t}\`,
      description: \`Team \${t} of department \${d}\`,
    });
    for (const pipeline of ["deploy", "release"]) {
      const identity = new platform.iam.Identity(\`team-\${d}-\${t}-\${pipeline}\`, {
        parentUid: team.uid,
        name: pipeline,
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: \`repo:acme/team-\${d}-\${t}:environment:\${pipeline}\`,
        },
      });
      new platform.iam.RoleBinding(\`team-\${d}-\${t}-\${pipeline}-viewer\`, {
        groupUid: team.uid,
        identityUid: identity.uid,
        roleUid,
      });
    }
  }
}
`;

const RECORDS = DEPARTMENTS * (2 + TEAMS_PER_DEPARTMENT * 5);
const KINDS = ["groups", "identities", "roleBindings"];

describe("a drift check under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let proxy: ReadsProxy;
  let stack: RealCliStack;
  let scratch: string;
  const behaviour: ReadsProxyOptions = { upstream: "" };
  /** The state's records by name (the last part of the URN): their uids. */
  const uids = new Map<string, string>();
  /** The names of the records changed behind the program's back. */
  const changed = new Set<string>();

  const api = async (method: string, pathAndQuery: string, body?: unknown) => {
    const reply = await fetch(`${emu.url}${pathAndQuery}`, {
      method,
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect([method, pathAndQuery, reply.status]).toEqual([method, pathAndQuery, 200]);
  };

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true, seed: false });
    behaviour.upstream = emu.url;
    proxy = await readsProxy(behaviour);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-drift-check-"));
    stack = realCliStack({
      programDir: nodeProgramFolder(path.join(scratch, "program"), PROJECT, PROGRAM),
      project: PROJECT,
      label: "drift-check",
      config: { [`${PROJECT}:rootUid`]: emu.rootUid, [`${PROJECT}:roleUid`]: VIEWER, "platform:apiUrl": proxy.url },
      secretConfig: { "platform:token": emu.token },
    });
    const up = await stack.run("up");
    if (up.code !== 0) throw new Error(`up exited ${up.code}:\n${up.stdout}${up.stderr}`);
    for (const r of stack.checkpoint()?.checkpoint.latest?.resources ?? [])
      if (r.custom && r.id && r.type.includes("dynamic/")) uids.set(r.urn.split("::").pop()!, r.id);
    expect(uids.size).toBe(RECORDS);

    // Behind the program's back: three teams and three identities edited, three bindings deleted.
    for (const name of ["team-0-3", "team-1-5", "team-3-4"]) {
      await api("PATCH", `/iam/v2beta1/groups/${uids.get(name)}?updateMask=description`, { description: "edited" });
      changed.add(name);
    }
    for (const name of ["team-0-0-deploy", "team-2-5-release", "team-3-2-deploy"]) {
      await api("PATCH", `/iam/v2beta1/identities/${uids.get(name)}?updateMask=description`, { description: "edited" });
      changed.add(name);
    }
    for (const name of ["team-1-1-deploy-viewer", "team-2-4-release-viewer", "team-3-0-deploy-viewer"]) {
      await api("DELETE", `/iam/v2beta1/roleBindings/${uids.get(name)}`);
      changed.add(name);
    }
  });
  afterAll(async () => {
    await proxy?.close();
    await emu?.close();
    stack?.remove();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The proxy's behaviour for one run: what it holds, forwards changed and answers itself. */
  const behave = (options: Omit<ReadsProxyOptions, "upstream">) => {
    behaviour.hold = options.hold;
    behaviour.forward = options.forward;
    behaviour.answer = options.answer;
    proxy.reset();
  };

  const preview = (batchReads: boolean, parallel: number, eventsFile?: string) =>
    // run, not start: nothing kills it, so the stack's runner serves it (no runner of its own to load).
    stack.run("preview", {
      refresh: true,
      parallel,
      steps: true,
      eventsFile,
      // From the environment: a refresh reads with the provider's config as the last deployment recorded it.
      env: { PLATFORM_BATCH_READS: String(batchReads) },
    });

  const succeeded = (run: RealCliRun) => {
    if (run.code !== 0) throw new Error(`the preview exited ${run.code}:\n${run.stdout}${run.stderr}`);
    expect((run.steps ?? []).filter((s) => s.failed)).toEqual([]);
    return run;
  };

  /** The records whose drift a run reports (the changes its preview plans), by name. */
  const driftedRecords = (run: RealCliRun) => changedRecords(driftOf(run.steps ?? []));

  test("the batch's edge cases: a group deleted between the List and its GET, a List answering page tokens, a List refused while GETs are allowed, groups under many parents, three kinds at once", async () => {
    // Which archives the List leaves out is decided as the Lists come (any archive's read may be the
    // first, whose GET is held): the first archive listed is deleted before its own GET, the second
    // only left out of the List.
    const archives = new Set([...uids].filter(([name]) => name.endsWith("-archive")).map(([, uid]) => uid));
    const nameOf = new Map([...uids].map(([name, uid]) => [uid, name]));
    let deleted = "";
    let leftOut = "";
    let listsRefused = 0;
    behave({
      hold: firstGetOf(...KINDS),
      // Identities come in pages of two, whatever page size the provider asks for.
      forward: (req) => {
        if (!said(req).startsWith("LIST identities")) return req;
        const query = new URLSearchParams(req.query);
        query.set("page_size", "2");
        return { ...req, query };
      },
      async answer(req, upstream) {
        const line = said(req);
        if (line.startsWith("LIST roleBindings")) {
          listsRefused++;
          return {
            status: 403,
            body: { code: 7, message: "Permission denied: the caller may not list role bindings", details: [] },
          };
        }
        if (!upstream || !line.startsWith("LIST groups")) return undefined;
        for (const uid of req.query.getAll("uidp.ids").filter((listed) => archives.has(listed)))
          if (!deleted) {
            deleted = nameOf.get(uid)!;
            await api("DELETE", `/iam/v2beta1/groups/${uid}`);
            changed.add(deleted);
          } else if (!leftOut) leftOut = nameOf.get(uid)!;
        const without = new Set([uids.get(deleted), uids.get(leftOut)]);
        const body = upstream.body as { groups: Array<{ uid: string }> };
        return { status: 200, body: { ...body, groups: body.groups.filter((g) => !without.has(g.uid)) } };
      },
    });
    const eventsFile = path.join(scratch, "edge-events.jsonl");
    const running = preview(true, 512, eventsFile);
    try {
      await refreshesStarted(eventsFile, RECORDS);
      await proxy.waitFor(() => true, KINDS.length);
      expect(
        proxy.seen
          .map(said)
          .map((s) => s.split("/")[0])
          .sort(),
      ).toEqual(KINDS.map((k) => `GET ${k}`).sort());
    } finally {
      // Whatever failed above, the preview must end here: left holding, it would go on sending
      // requests into the next test's count.
      proxy.release();
      await running.catch(() => undefined);
    }
    const run = succeeded(await running);

    expect(driftedRecords(run)).toEqual([...changed].sort());
    const drift = driftOf(run.steps ?? []);
    expect(drift).toEqual(expect.arrayContaining([`refresh ${deleted} (gone)`, `create ${deleted}`]));
    expect(drift.filter((line) => line.includes(leftOut))).toEqual([]);

    const seen = proxy.seen.map(said);
    const getsOf = (kind: string) => seen.filter((s) => s.startsWith(`GET ${kind}/`));
    const listsOf = (kind: string) => proxy.seen.filter((r) => said(r).startsWith(`LIST ${kind} `));
    // Groups: the first GET, Lists of the others (under the root and four departments), and a GET
    // of each archive the List left out: the deleted one's says it is gone. A read the engine
    // announced but delivered after the Lists had gone is read alone, one GET (the engine's event
    // comes before its call reaches the provider); no record a List answered is read again.
    expect(leftOut).not.toBe("");
    const listedGroups = listsOf("groups").flatMap((r) => r.query.getAll("uidp.ids"));
    const leftOutOfLists = new Set([uids.get(deleted), uids.get(leftOut)]);
    const groupGets = getsOf("groups").slice(1);
    expect(groupGets).toEqual(
      expect.arrayContaining([`GET groups/${uids.get(deleted)}`, `GET groups/${uids.get(leftOut)}`]),
    );
    for (const get of groupGets) {
      const uid = get.slice("GET groups/".length);
      if (!leftOutOfLists.has(uid)) expect(listedGroups).not.toContain(uid);
    }
    expect(groupGets.length).toBeLessThan(listedGroups.length / 4);
    expect(new Set(listedGroups.map((uid) => uid.split("/").slice(0, -1).join("/"))).size).toBe(1 + DEPARTMENTS);
    // Identities: pages of two, each next page asked with the same uids and its token; no GET but
    // the first and reads delivered late, none of a record a List asked for.
    const identityLists = listsOf("identities");
    const listedIdentities = identityLists.flatMap((r) => r.query.getAll("uidp.ids"));
    for (const get of getsOf("identities").slice(1))
      expect(listedIdentities).not.toContain(get.slice("GET identities/".length));
    expect(getsOf("identities").length).toBeLessThan(listedIdentities.length / 4);
    expect(identityLists.filter((r) => r.query.has("page_token")).length).toBeGreaterThan(10);
    for (const list of identityLists.filter((r) => r.query.has("page_token")))
      expect(
        identityLists.some(
          (first) =>
            !first.query.has("page_token") &&
            first.query.getAll("uidp.ids").join() === list.query.getAll("uidp.ids").join(),
        ),
      ).toBe(true);
    // Role bindings: the Lists refused, every binding read by its own GET (the deleted ones' say they are gone).
    expect(listsRefused).toBeGreaterThan(0);
    expect(getsOf("roleBindings")).toHaveLength(DEPARTMENTS * TEAMS_PER_DEPARTMENT * 2);
  });

  test("a drift check of 128 records at --parallel 64 costs well under one request per record and finds exactly what one GET per record finds: the records edited and deleted", async () => {
    behave({});
    const today = succeeded(await preview(false, 64));
    const todaysRequests = proxy.seen.length;
    behave({});
    const ours = succeeded(await preview(true, 64));
    const oursRequests = proxy.seen.length;

    expect(driftedRecords(ours)).toEqual([...changed].sort());
    expect(driftOf(ours.steps ?? [])).toEqual(driftOf(today.steps ?? []));
    for (const name of changed)
      if (name.endsWith("-viewer") || name.endsWith("-archive"))
        expect(driftOf(ours.steps ?? [])).toEqual(expect.arrayContaining([`refresh ${name} (gone)`, `create ${name}`]));
      else
        expect(driftOf(ours.steps ?? [])).toEqual(
          expect.arrayContaining([expect.stringMatching(new RegExp(`^update ${name} \\[description\\]$`))]),
        );
    expect(todaysRequests).toBe(RECORDS);
    expect(oursRequests).toBeLessThan(RECORDS / 4);
    expect(proxy.seen.filter((r) => said(r).startsWith("LIST")).length).toBeGreaterThan(0);
  });
});
