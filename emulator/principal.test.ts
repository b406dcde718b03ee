import { Principal } from "./auth";
import { inSubtree } from "./ids";

const LIST = "CAP_IAM_GROUPS_LIST";
const CREATE = "CAP_IAM_GROUPS_CREATE";
const grant = (groupUid: string, ...capabilities: string[]) => ({ groupUid, capabilities: new Set(capabilities) });

/** What a principal answers by definition: some grant with the capability on the uid or a group above it. */
const reaches = (principal: Principal, capability: string, uid: string) =>
  principal.grants.some((g) => g.capabilities.has(capability) && inSubtree(uid, g.groupUid));

const principal = new Principal("org/me", [
  grant("org/a", LIST),
  grant("org/a/b", LIST, CREATE),
  grant("org/a/b", LIST),
  grant("org/c/d", LIST),
  grant("org/ab", CREATE),
  grant("org/e", CREATE),
]);

test("can: a grant covers its group and everything below it, and nothing beside it", () => {
  const uids = ["org", "org/a", "org/a/b", "org/a/b/x", "org/ab", "org/ab/y", "org/c", "org/c/d", "org/c/d/z", "org/e"];
  for (const capability of [LIST, CREATE, "CAP_REPO_LIST"])
    for (const uid of uids)
      expect([capability, uid, principal.can(capability, uid)]).toEqual([
        capability,
        uid,
        reaches(principal, capability, uid),
      ]);
  expect(principal.can(LIST, "org/a/b/x")).toBe(true);
  expect(principal.can(LIST, "org/ab")).toBe(false);
  expect(principal.can(CREATE, "org/a")).toBe(false);
});

test("scope: the fewest groups covering the capability, sorted, the same on every call", () => {
  expect(principal.scope(LIST)).toEqual(["org/a", "org/c/d"]);
  expect(principal.scope(CREATE)).toEqual(["org/a/b", "org/ab", "org/e"]);
  expect(principal.scope("CAP_REPO_LIST")).toEqual([]);
  expect(principal.scope(LIST)).toEqual(["org/a", "org/c/d"]);
});

test("a principal without grants reaches nothing", () => {
  const none = new Principal("org/none", []);
  expect([none.can(LIST, "org"), none.scope(LIST)]).toEqual([false, []]);
});
