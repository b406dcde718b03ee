import { z } from "zod";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { fakeClient, fetchClient, hookedClient, listRequests } from "../../tests/support/lookupClient";
import { listAll, ListIncompleteError, listPages, MAX_PAGE_SIZE, UnexpectedResponseError } from "./pagination";

const item = z.looseObject({ uid: z.string(), name: z.string() });
const rec = (i: number) => ({ uid: `u${String(i).padStart(4, "0")}`, name: `n${i}` });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => rec(from + i));
const THREE_DAYS_AND_A_MS = 3 * 24 * 60 * 60 * 1000 + 1;

describe("listAll over crafted pages", () => {
  test("follows nextPageToken until it is empty, keeping every other parameter identical", async () => {
    const client = fakeClient([
      { things: range(0, 2), nextPageToken: "t1", totalCount: "8" },
      { things: range(2, 4), nextPageToken: "t2", totalCount: "8" },
      { things: range(4, 5), nextPageToken: "", totalCount: "8" },
    ]);
    const out = await listAll(client, {
      domain: "iam",
      collection: "groups",
      itemsKey: "things",
      query: { "uidp.children_of": "org", order_by: "name desc" },
      skip: 3,
      schema: item,
    });
    expect(out.map((r) => r.uid)).toEqual(range(0, 5).map((r) => r.uid));
    const [first, ...rest] = client.seen;
    expect(first.query).toEqual({
      "uidp.children_of": "org",
      order_by: "name desc",
      page_size: MAX_PAGE_SIZE,
      skip: 3,
    });
    expect(rest.map((r) => r.query)).toEqual([
      { ...first.query, page_token: "t1" },
      { ...first.query, page_token: "t2" },
    ]);
    expect(client.seen.every((r) => r.method === "GET" && r.domain === "iam" && r.path === "groups")).toBe(true);
  });

  test("a page of only already-seen uids (restarted query) resumes once with skip, and nothing is duplicated", async () => {
    const client = fakeClient([
      { groups: range(0, 3), nextPageToken: "a", totalCount: "7" },
      { groups: range(0, 3), nextPageToken: "restarted", totalCount: "7" }, // the token expired: page 1 again
      { groups: range(3, 6), nextPageToken: "b", totalCount: "7" },
      { groups: range(6, 7), totalCount: "7" },
    ]);
    const out = await listAll(client, { domain: "iam", collection: "groups", schema: item });
    expect(out.map((r) => r.uid)).toEqual(range(0, 7).map((r) => r.uid));
    expect(client.seen[2].query).toEqual({ page_size: 200, skip: 3 });
    expect(client.seen[3].query).toEqual({ page_size: 200, skip: 3, page_token: "b" });
  });

  test("a second page with nothing new stops the walk, and the count check reports it", async () => {
    const client = fakeClient([
      { groups: range(0, 3), nextPageToken: "a", totalCount: "9" },
      { groups: range(0, 3), nextPageToken: "a", totalCount: "9" },
      { groups: range(0, 3), nextPageToken: "a", totalCount: "9" },
    ]);
    const error = await listAll(client, { domain: "iam", collection: "groups", schema: item }).catch((e) => e);
    expect(error).toBeInstanceOf(ListIncompleteError);
    expect(error).toMatchObject({ collected: 3, expected: 9 });
    expect(error.message).toMatch(/collected 3 groups but the service counts 9.*Run again/);
    expect(client.seen).toHaveLength(3);
  });

  test("totalCount larger than what the pages held is an error naming both numbers", async () => {
    const client = fakeClient([{ repos: range(0, 4), totalCount: "6" }]);
    await expect(listAll(client, { domain: "registry", collection: "repos", schema: item })).rejects.toThrow(
      /collected 4 repos but the service counts 6/,
    );
  });

  test("totalCount is compared after the skipped results are taken out", async () => {
    const client = fakeClient([{ repos: range(10, 14), totalCount: "14", skipped: 10 }]);
    await expect(
      listAll(client, { domain: "registry", collection: "repos", skip: 10, schema: item }),
    ).resolves.toHaveLength(4);
    const short = fakeClient([{ repos: range(10, 13), totalCount: "14", skipped: 10 }]);
    await expect(listAll(short, { domain: "registry", collection: "repos", skip: 10, schema: item })).rejects.toThrow(
      /counts 4 after skipping 10 of 14/,
    );
  });

  test("limit stops early and the last page asks only for what is missing", async () => {
    const client = fakeClient([
      (req: any) => ({ repos: range(0, req.query.page_size), nextPageToken: "x", totalCount: "1000" }),
      (req: any) => ({ repos: range(200, 200 + req.query.page_size), nextPageToken: "y", totalCount: "1000" }),
      (req: any) => ({ repos: range(400, 400 + req.query.page_size), nextPageToken: "z", totalCount: "1000" }),
    ]);
    const out = await listAll(client, { domain: "registry", collection: "repos", limit: 450, schema: item });
    expect(out).toHaveLength(450);
    expect(client.seen.map((r) => r.query?.page_size)).toEqual([200, 200, 50]);
  });

  test("a wrong type in a result is rejected naming the field path", async () => {
    const roles = [...range(0, 3), { uid: "bad", name: 42 }];
    const client = fakeClient([{ roles, totalCount: "4" }]);
    await expect(listAll(client, { domain: "iam", collection: "roles", schema: item })).rejects.toThrow(
      UnexpectedResponseError,
    );
    await expect(
      listAll(fakeClient([{ roles, totalCount: "4" }]), { domain: "iam", collection: "roles", schema: item }),
    ).rejects.toThrow("roles[3].name: expected string, received number");
  });

  test("a malformed envelope is rejected naming the field", async () => {
    await expect(
      listAll(fakeClient([{ roles: [], totalCount: "many" }]), { domain: "iam", collection: "roles", schema: item }),
    ).rejects.toThrow(/totalCount/);
    await expect(
      listAll(fakeClient([{ roles: {} }]), { domain: "iam", collection: "roles", schema: item }),
    ).rejects.toThrow(/roles: expected array/);
  });

  test("unknown fields in results and in the envelope are kept, not rejected", async () => {
    const client = fakeClient([
      { roles: [{ ...rec(1), shinyNewField: { a: 1 } }], totalCount: "1", somethingElse: true },
    ]);
    const [role] = await listAll(client, { domain: "iam", collection: "roles", schema: item });
    expect(role).toEqual({ ...rec(1), shinyNewField: { a: 1 } });
  });

  test("paging parameters in the query are refused: the engine owns them", async () => {
    await expect(
      listAll(fakeClient([]), { domain: "iam", collection: "roles", query: { page_size: 10 }, schema: item }),
    ).rejects.toThrow(/page_size/);
  });
});

describe("listAll against the emulator", () => {
  let emu: RunningEmulator;
  let repoUid: string;
  const TAGS = 650;
  beforeAll(async () => {
    emu = await startProviderEmulator({ seed: false, bulk: { repos: 1, tagsPerRepo: TAGS } });
    const repos = await listAll(fetchClient(emu), { domain: "registry", collection: "repos", schema: item });
    repoUid = repos[0].uid;
  });
  afterAll(() => emu.close());

  test(`${TAGS} results cost ceil(${TAGS}/200) = 4 requests of page_size 200`, async () => {
    emu.clearRequests();
    const tags = await listAll(fetchClient(emu), {
      domain: "registry",
      collection: "tags",
      query: { "uidp.children_of": repoUid },
      schema: item,
    });
    expect(tags).toHaveLength(TAGS);
    expect(new Set(tags.map((t) => t.uid)).size).toBe(TAGS);
    const requests = listRequests(emu, "/registry/v2beta1/tags");
    expect(requests).toHaveLength(Math.ceil(TAGS / 200));
    expect(requests.map((r) => r.query.page_size)).toEqual(["200", "200", "200", "200"]);
    expect(requests.map((r) => r.query["uidp.children_of"])).toEqual([repoUid, repoUid, repoUid, repoUid]);
    expect(requests.map((r) => "page_token" in r.query)).toEqual([false, true, true, true]);
  });

  test("a page token that expires mid-walk (the service restarts silently) yields each tag once, in order", async () => {
    const query = { "uidp.children_of": repoUid, order_by: "name desc" };
    const expected = await listAll(fetchClient(emu), { domain: "registry", collection: "tags", query, schema: item });
    emu.clearRequests();
    const client = hookedClient(fetchClient(emu), (n) => {
      if (n === 3) emu.advanceClock(THREE_DAYS_AND_A_MS);
    });
    const tags = await listAll(client, { domain: "registry", collection: "tags", query, schema: item });
    expect(tags.map((t) => t.uid)).toEqual(expected.map((t) => t.uid));
    // 2 pages, the restarted page (nothing new), then resumed at skip=400: 2 more pages.
    const requests = listRequests(emu, "/registry/v2beta1/tags");
    expect(requests).toHaveLength(5);
    expect(requests[3].query.skip).toBe("400");
    expect("page_token" in requests[3].query).toBe(false);
  });
});

describe("listPages: the same walk, page by page", () => {
  test("hands on each page's new results as it arrives, one request per page, and stops at the limit", async () => {
    const client = fakeClient([
      { groups: range(0, 3), nextPageToken: "a", totalCount: "9" },
      { groups: range(2, 5), nextPageToken: "b", totalCount: "9" },
      { groups: range(5, 9), nextPageToken: "", totalCount: "9" },
    ]);
    const pages: string[][] = [];
    for await (const page of listPages(client, { domain: "iam", collection: "groups", schema: item, limit: 7 })) {
      pages.push(page.map((r) => r.uid));
      expect(client.seen).toHaveLength(pages.length);
    }
    expect(pages).toEqual([range(0, 3), range(3, 5), range(5, 7)].map((p) => p.map((r) => r.uid)));
    expect(client.seen.map((r) => r.query?.page_size)).toEqual([7, 4, 2]);
  });

  test("a walk that ends short of the service's count throws after the pages it read", async () => {
    const client = fakeClient([
      { groups: range(0, 3), nextPageToken: "a", totalCount: "5" },
      { groups: range(3, 4), totalCount: "5" },
    ]);
    const pages: number[] = [];
    const error = await (async () => {
      for await (const page of listPages(client, { domain: "iam", collection: "groups", schema: item }))
        pages.push(page.length);
    })().catch((e: unknown) => e);
    expect(pages).toEqual([3, 1]);
    expect(error).toBeInstanceOf(ListIncompleteError);
    expect((error as ListIncompleteError).collected).toBe(4);
  });
});
