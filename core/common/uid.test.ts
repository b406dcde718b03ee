/**
 * The uid grammar, and that nothing a user or the service gives as a uid can change which
 * collection a request reaches: every malformed variant is refused before any request, by the
 * client's path building and by every look-up argument that takes a uid.
 */
import { withClient } from "../program/lookup";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as roles from "../../resources/iam/role/lookups";
import * as groupLookups from "../../resources/iam/group/lookups";
import * as repos from "../../resources/registry/repo/lookups";
import { fakeClient } from "../../tests/support/lookupClient";
import { createClient, requestTarget } from "../transport/client";
import {
  InvalidUidError,
  MAX_UID_CHARS,
  UID_PATH_PATTERN,
  UID_SEGMENT_PATTERN,
  isWellFormedUid,
  uidIssue,
  uidString,
} from "./uid";

/** Uids that must never reach a path, each with the reason the message gives. */
const MALFORMED: Array<[string, RegExp]> = [
  ["", /must not be empty/],
  ["a/..", /".." segment/],
  ["..", /".." segment/],
  ["../roles/x", /".." segment/],
  ["abc/../../sts/exchange", /".." segment/],
  ["a/./b", /"\." segment/],
  [".", /"\." segment/],
  ["a//b", /empty segment/],
  ["/a", /empty segment/],
  ["a/", /empty segment/],
  ["%2e%2e", /contains "%"/],
  ["a/%2F", /contains "%"/],
  ["a?x", /contains "\?"/],
  ["a#b", /contains "#"/],
  ["a\\b", /contains "\\"/],
  ["..\\roles", /contains "\."/],
  [" a", /whitespace/],
  ["a ", /whitespace/],
  ["a\tb", /control character \(U\+0009\)/],
  ["a\nb", /control character \(U\+000A\)/],
  ["a\u0000b", /control character \(U\+0000\)/],
  ["a\u007fb", /control character \(U\+007F\)/],
  ["a/\u2024\u2024", /non-ASCII character U\+2024/], // one-dot leader, looks like "."
  ["a/\uff0e\uff0e", /non-ASCII character U\+FF0E/], // fullwidth full stop
  ["a/\u3002", /non-ASCII character U\+3002/], // ideographic full stop
  ["caf\u00e9", /non-ASCII character U\+00E9/],
  ["a\u00a0b", /whitespace|non-ASCII/],
  ["a.b", /contains "\."/],
  ["a:b", /contains ":"/],
  ["a;b", /contains ";"/],
  ["a&b=c", /contains "&"/],
  ["http://evil.example/x", /contains ":"/],
  ["a".repeat(MAX_UID_CHARS + 1), /at most 1024/],
  ["a".repeat(10_000), /is 10000 characters long/],
  [`a/${"b".repeat(200)}`, /segment of 200 characters/],
];

const WELL_FORMED = ["acme", "0f3a9c1e2b4d5f60", "acme/team", "a/b/c/d", "Team_1-x", "0f3a/9c1e/2b4d"];

describe("the grammar", () => {
  test.each(MALFORMED.map(([uid, reason]) => [JSON.stringify(uid).slice(0, 40), uid, reason] as const))(
    "%s is refused with its reason",
    (_label, uid, reason) => {
      expect(isWellFormedUid(uid, "path")).toBe(false);
      expect(uidIssue(uid, "path")).toMatch(reason);
      expect(UID_PATH_PATTERN.test(uid) && uid.length <= MAX_UID_CHARS).toBe(false);
    },
  );

  test.each(WELL_FORMED)("%s is a well-formed path uid", (uid) => {
    expect(uidIssue(uid, "path")).toBeUndefined();
    expect(UID_PATH_PATTERN.test(uid)).toBe(true);
  });

  test("the segment form refuses a /, accepts one segment", () => {
    expect(uidIssue("acme/team", "segment")).toMatch(/one segment/);
    expect(uidIssue("0f3a9c1e2b4d5f600f3a9c1e2b4d5f600f3a9c1e", "segment")).toBeUndefined();
    expect(UID_SEGMENT_PATTERN.test("acme/team")).toBe(false);
  });

  test("non-strings are refused", () => {
    expect(uidIssue(42, "path")).toBe("must be a string");
    expect(uidIssue(undefined, "segment")).toBe("must be a string");
  });

  test("the zod form names the problem, never the whole value", () => {
    const parsed = uidString("path").safeParse(`x/${"y".repeat(5000)}/..`);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toMatch(/^is not a well-formed uid: it /);
    expect(parsed.error?.issues[0].message.length).toBeLessThan(200);
  });
});

describe("path building", () => {
  test("a well-formed uid goes in the path segment by segment", () => {
    expect(requestTarget({ method: "GET", domain: "iam", path: "groups/acme/team" }, "v2beta1")).toEqual({
      path: "/iam/v2beta1/groups/acme/team",
      collection: "groups",
      uid: "acme/team",
    });
    expect(requestTarget({ method: "GET", domain: "ecosystems", path: "packages" }, "v2")).toEqual({
      path: "/ecosystems/v2/packages",
      collection: "packages",
      uid: undefined,
    });
  });

  test("a custom method follows the record's uid; one of a bad form, or without a record, is refused", () => {
    const verb = (path: string, name: string) =>
      requestTarget({ method: "POST", domain: "iam", path, verb: name }, "v2").path;
    expect(verb("identityProviders/acme/sso", "generateScimToken")).toBe(
      "/iam/v2/identityProviders/acme/sso:generateScimToken",
    );
    for (const name of ["", "Generate", "a/b", "x:y", "a?b", "a b"])
      expect(() => verb("identityProviders/acme/sso", name)).toThrow(/is not a custom method of a record/);
    expect(() => verb("identityProviders", "generateScimToken")).toThrow(/is not a custom method of a record/);
  });

  test.each(["IAM", "../iam", "iam/x", "", "i am"])("domain %j is refused", (domain) => {
    expect(() => requestTarget({ method: "GET", domain, path: "groups" }, "v2beta1")).toThrow(/not an API domain/);
  });

  test.each(["", "..", "groups?x=1", "groups%2F", "sts"])("collection %j of a bad form is refused", (path) => {
    if (path === "sts") {
      // A plain word passes the path builder: what a collection means is the caller's.
      expect(requestTarget({ method: "GET", domain: "iam", path }, "v2beta1").path).toBe("/iam/v2beta1/sts");
      return;
    }
    expect(() => requestTarget({ method: "GET", domain: "iam", path }, "v2beta1")).toThrow(/not a collection name/);
  });
});

describe("no request leaves for a malformed uid", () => {
  let server: http.Server;
  let hits: string[];
  let url: string;
  beforeAll(async () => {
    hits = [];
    server = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (hits = []));

  test.each(MALFORMED.map(([uid]) => [JSON.stringify(uid).slice(0, 40), uid] as const))(
    "%s: GET, POST, PATCH and DELETE are refused naming the uid",
    async (_label, uid) => {
      const client = createClient({ apiUrl: url, authUrl: url, apiVersion: "v2beta1", token: "test-token" });
      try {
        for (const method of ["GET", "POST", "PATCH", "DELETE"] as const) {
          const error = await client
            .request({ method, domain: "iam", path: `groups/${uid}`, body: method === "GET" ? undefined : {} })
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidUidError);
          expect((error as InvalidUidError).uid).toBe(uid);
          expect((error as Error).message).toMatch(
            new RegExp(`^${method} iam/groups: the uid ".*" is not a well-formed`),
          );
          expect((error as Error).message).toMatch(/no request was sent$/);
          expect((error as Error).message.length).toBeLessThan(400);
        }
        expect(hits).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );

  test("a well-formed uid reaches exactly its path (the server sees no other)", async () => {
    const client = createClient({ apiUrl: url, authUrl: url, apiVersion: "v2beta1", token: "test-token" });
    await client.request({ method: "GET", domain: "iam", path: "groups/acme/team-1" });
    await client.close();
    expect(hits).toEqual(["GET /iam/v2beta1/groups/acme/team-1"]);
  });
});

describe("look-up arguments", () => {
  const bad = ["a/..", "../roles/x", "a//b", "%2e%2e", "a?x", "a#b", " a", "a/\u2024"];

  test.each(bad)("getGroup({ uid: %j }) is refused naming uid, without a request", async (uid) => {
    const client = fakeClient([]);
    await expect(groupLookups.getGroup({ uid }, withClient(client))).rejects.toThrow(
      /^getGroup: invalid arguments: uid: is not a well-formed uid: it /,
    );
    expect(client.seen).toEqual([]);
  });

  test.each(bad)("list arguments descendantsOf, childrenOf, ancestorsOf and ids refuse %j", async (uid) => {
    const client = fakeClient([]);
    for (const arg of ["descendantsOf", "childrenOf", "ancestorsOf"]) {
      await expect(groupLookups.getGroups({ [arg]: uid }, withClient(client))).rejects.toThrow(
        new RegExp(`^getGroups: invalid arguments: ${arg}: is not a well-formed uid`),
      );
    }
    await expect(repos.getRepos({ ids: ["ok", uid] }, withClient(client))).rejects.toThrow(
      /^getRepos: invalid arguments: ids\[1\]: is not a well-formed uid/,
    );
    await expect(roles.getRole({ name: "viewer", descendantsOf: uid }, withClient(client))).rejects.toThrow(
      /^getRole: invalid arguments: descendantsOf: is not a well-formed uid/,
    );
    expect(client.seen).toEqual([]);
  });
});
