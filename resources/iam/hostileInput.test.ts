/**
 * Hostile and careless inputs, through the REAL dynamic-provider host: every uid that is not
 * well formed, every free string past its limit, every pattern RE2 would refuse is refused by
 * check naming the property, with zero requests, for each resource that takes it.
 */
import { LIMITS } from "../../core/model/fields";
import { Harness, ResourceType, startHarness } from "../../tools/host/resourceHarness";
import { HostError } from "../../tools/host/host";

jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const GITHUB = "https://token.actions.githubusercontent.com";
const claim = { issuer: GITHUB, subject: "repo:acme/app:ref:refs/heads/main" };
const long = (n: number) => "a".repeat(n);

const BAD_UIDS: Array<[string, string]> = [
  ["a dot-dot segment", "acme/.."],
  ["a dot segment", "acme/./team"],
  ["a climb to another collection", "../roles/0123456789abcdef"],
  ["a climb to the token endpoint", "abc/../../sts/exchange"],
  ["an encoded dot-dot", "acme/%2e%2e"],
  ["an encoded slash", "acme%2Fteam"],
  ["a query", "acme?uidp.ids=x"],
  ["a fragment", "acme#x"],
  ["a backslash", "acme\\..\\x"],
  ["a leading slash", "/acme"],
  ["a trailing slash", "acme/"],
  ["a doubled slash", "acme//team"],
  ["whitespace", "acme/ team"],
  ["a newline", "acme\nteam"],
  ["a control character", "acme\u0000"],
  ["a full-width look-alike", "ａcme"],
  ["an empty string", ""],
  ["2,000 characters", `acme/${long(2000)}`],
];

const uidInputs: Array<[ResourceType, string, (uid: string) => Record<string, unknown>]> = [
  ["Group", "parentUid", (uid) => ({ parentUid: uid, name: "team" })],
  ["Identity", "parentUid", (uid) => ({ parentUid: uid, name: "ci", claimMatch: claim })],
  ["RoleBinding", "groupUid", (uid) => ({ groupUid: uid, identityUid: "acme/ci", roleUid: "viewer" })],
  ["RoleBinding", "identityUid", (uid) => ({ groupUid: "acme", identityUid: uid, roleUid: "viewer" })],
  ["RoleBinding", "roleUid", (uid) => ({ groupUid: "acme", identityUid: "acme/ci", roleUid: uid })],
];

async function failures(type: ResourceType, inputs: Record<string, unknown>) {
  const checked = await h.host.check(h.urn(type, "hostile"), {}, { ...inputs, __provider: h.providers[type] });
  return checked.failures;
}

describe.each(uidInputs)("%s.%s refuses a uid with", (type, property, inputs) => {
  test.each(BAD_UIDS)("%s", async (_what, uid) => {
    const found = await failures(type, inputs(uid));
    expect(found).toEqual([{ property, reason: expect.stringMatching(/^must be an? [a-z ]+'s uid: it /) }]);
    // Never the whole value echoed back.
    if (uid.length > 100) expect(found[0].reason).not.toContain(uid);
    expect(h.calls()).toEqual([]);
  });
});

test("a role's uid is one segment", async () => {
  expect(await failures("RoleBinding", { groupUid: "acme", identityUid: "acme/ci", roleUid: "a/b" })).toEqual([
    { property: "roleUid", reason: 'must be a role\'s uid: it must be one segment, without "/"' },
  ]);
});

test("even without check, a create with a climbing parent sends nothing", async () => {
  const create = h.host.create(h.urn("Group", "hostile"), {
    parentUid: "abc/../../sts/exchange",
    name: "team",
    __provider: h.providers.Group,
  });
  await expect(create).rejects.toThrow(HostError);
  await expect(create).rejects.toThrow(/not a well-formed uid/);
  expect(h.calls()).toEqual([]);
});

const at = (n: number) => `must be at most ${n} characters`;
const TOO_LONG: Array<[string, ResourceType, Record<string, unknown>, string, string]> = [
  ["group name", "Group", { parentUid: "acme", name: long(LIMITS.name + 1) }, "name", at(LIMITS.name)],
  ["group name of a million", "Group", { parentUid: "acme", name: long(1_000_000) }, "name", at(LIMITS.name)],
  [
    "group description",
    "Group",
    { parentUid: "acme", name: "t", description: long(LIMITS.description + 1) },
    "description",
    at(LIMITS.description),
  ],
  [
    "identity name",
    "Identity",
    { parentUid: "acme", name: long(LIMITS.name + 1), claimMatch: claim },
    "name",
    at(LIMITS.name),
  ],
  [
    "identity description of a million",
    "Identity",
    { parentUid: "acme", name: "ci", description: long(1_000_000), claimMatch: claim },
    "description",
    at(LIMITS.description),
  ],
  [
    "subject",
    "Identity",
    { parentUid: "acme", name: "ci", claimMatch: { ...claim, subject: long(LIMITS.text + 1) } },
    "claimMatch.subject",
    at(LIMITS.text),
  ],
  [
    "audience",
    "Identity",
    { parentUid: "acme", name: "ci", claimMatch: { ...claim, audience: long(LIMITS.text + 1) } },
    "claimMatch.audience",
    at(LIMITS.text),
  ],
  [
    "issuer",
    "Identity",
    { parentUid: "acme", name: "ci", claimMatch: { ...claim, issuer: `https://x.example/${long(LIMITS.text)}` } },
    "claimMatch.issuer",
    at(LIMITS.text),
  ],
  [
    "a claim value",
    "Identity",
    { parentUid: "acme", name: "ci", claimMatch: { ...claim, claims: { ref: long(LIMITS.text + 1) } } },
    "claimMatch.claims.ref",
    at(LIMITS.text),
  ],
  [
    "a claim name",
    "Identity",
    { parentUid: "acme", name: "ci", claimMatch: { ...claim, claims: { [long(LIMITS.mapKey + 1)]: "x" } } },
    "claimMatch.claims",
    `names must be at most ${LIMITS.mapKey} characters (one has ${LIMITS.mapKey + 1})`,
  ],
  [
    "a pattern",
    "Identity",
    {
      parentUid: "acme",
      name: "ci",
      claimMatch: { issuer: GITHUB, subjectPattern: `^${long(LIMITS.pattern)}$` },
    },
    "claimMatch.subjectPattern",
    at(LIMITS.pattern),
  ],
  [
    "too many claims",
    "Identity",
    {
      parentUid: "acme",
      name: "ci",
      claimMatch: {
        ...claim,
        claims: Object.fromEntries(Array.from({ length: LIMITS.mapEntries + 1 }, (_, i) => [`c${i}`, "x"])),
      },
    },
    "claimMatch.claims",
    `must have at most ${LIMITS.mapEntries} entries (it has ${LIMITS.mapEntries + 1})`,
  ],
];

test.each(TOO_LONG)(
  "a %s past its limit is refused naming it, with no request",
  async (_w, type, inputs, property, reason) => {
    const found = await failures(type, inputs);
    expect(found).toContainEqual({
      property: expect.stringMatching(new RegExp(`^${property.replace(/\./g, "\\.")}`)),
      reason,
    });
    expect(found.every((f) => f.property.startsWith(property))).toBe(true);
    expect(JSON.stringify(found).length).toBeLessThan(2000);
    expect(h.calls()).toEqual([]);
  },
);

const BAD_PATTERNS: Array<[string, string, RegExp]> = [
  ["a lookahead", "^(?=repo:)repo:.*$", /lookarounds .* are not supported by RE2/],
  ["a negative lookahead", "^(?!main).*$", /lookarounds .* are not supported by RE2/],
  ["a lookbehind", "(?<=refs/)heads", /lookarounds .* are not supported by RE2/],
  ["a negative lookbehind", "(?<!x)y", /lookarounds .* are not supported by RE2/],
  ["a backreference", "^(a)\\1$", /backreferences .* are not supported by RE2/],
  ["a backreference after an escaped backslash", "(a)\\\\\\2", /backreferences .* are not supported by RE2/],
  ["an unclosed group", "^(repo", /missing closing \)/],
  ["an unclosed class", "^[a-z", /missing closing \]/],
  ["a repeat past 1000", "a{1001}", /invalid repeat count/],
  ["a possessive quantifier", "a++", /invalid nested repetition operator|bad repetition/],
];
const PATTERN_FIELDS: Array<[string, (p: string) => Record<string, unknown>]> = [
  ["claimMatch.issuerPattern", (p) => ({ issuerPattern: p, subject: "s" })],
  ["claimMatch.subjectPattern", (p) => ({ issuer: GITHUB, subjectPattern: p })],
  ["claimMatch.audiencePattern", (p) => ({ ...claim, audiencePattern: p })],
  ["claimMatch.claimPatterns.ref", (p) => ({ ...claim, claimPatterns: { ref: p } })],
];

describe.each(PATTERN_FIELDS)("%s refuses what RE2 refuses:", (property, claimMatch) => {
  test.each(BAD_PATTERNS)("%s", async (_what, pattern, reason) => {
    const found = await failures("Identity", { parentUid: "acme", name: "ci", claimMatch: claimMatch(pattern) });
    expect(found).toEqual([{ property, reason: expect.stringMatching(/^must be an RE2 regular expression: /) }]);
    expect(found[0].reason).toMatch(reason);
    expect(h.calls()).toEqual([]);
  });
});

test("patterns RE2 accepts pass, catastrophic-looking ones too (RE2 matches in linear time)", async () => {
  for (const pattern of ["^repo:acme/[^/]+:ref:refs/heads/(main|release-.*)$", "(a+)+$", "\\p{L}+", "(?P<org>acme)"]) {
    expect(
      await failures("Identity", {
        parentUid: "acme",
        name: "ci",
        claimMatch: { issuer: GITHUB, subjectPattern: pattern },
      }),
    ).toEqual([]);
  }
  expect(h.calls()).toEqual([]);
});

test("an issuer carrying credentials is refused without echoing them", async () => {
  const found = await failures("Identity", {
    parentUid: "acme",
    name: "ci",
    claimMatch: { ...claim, issuer: "https://robot:s3cret-pass@issuer.example" },
  });
  expect(found).toEqual([{ property: "claimMatch.issuer", reason: "must not carry credentials (user:password@)" }]);
  expect(JSON.stringify(found)).not.toContain("s3cret-pass");
  expect(h.calls()).toEqual([]);
});
