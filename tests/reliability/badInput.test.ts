/**
 * Issue 6, point 4: bad input across the three resources, the look-ups and the settings. Every
 * case must end in ONE clear error that names the field or setting, without a stack trace,
 * without a request when check() could tell, and without any change to the organization.
 * Resources go through the real dynamic-provider host; look-ups through the installed package.
 */
import * as http from "node:http";
import { startHost, ProviderHost, HostError } from "../../tools/host/host";
import { Harness, ResourceType, startHarness } from "../../tools/host/resourceHarness";
import { snapshot, OrgSnapshot } from "../../tools/orgApi";

jest.setTimeout(120_000);

let h: Harness;
let viewerUid: string;
let team: string;
let identity: string;
let before: OrgSnapshot;

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;
const org = () => snapshot({ url: h.emu.url, token: h.emu.token }, h.emu.rootUid);
const props = (type: ResourceType, values: Record<string, unknown>) => ({ ...values, __provider: h.providers[type] });

beforeAll(async () => {
  h = await startHarness();
  const roles = await h.api("GET", "/iam/v2beta1/roles?name=viewer");
  viewerUid = roles.body.roles[0].uid;
  team = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "bad-input-team" })).body.uid;
  identity = (
    await h.api("POST", `/iam/v2beta1/identities/${team}`, {
      name: "ci",
      claimMatch: { issuer: "https://issuer.example", subject: "ci" },
    })
  ).body.uid;
  before = await org();
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());
afterEach(async () => {
  expect(await org()).toEqual(before);
});

const claim = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" };
const group = (over: Record<string, unknown>) => ({ parentUid: h.emu.rootUid, name: "team", ...over });
const ident = (over: Record<string, unknown>) => ({ parentUid: h.emu.rootUid, name: "ci", claimMatch: claim, ...over });
const binding = (over: Record<string, unknown>) => ({
  groupUid: team,
  identityUid: identity,
  roleUid: viewerUid,
  ...over,
});

// [what, resource, inputs, property named, reason pattern]
const rejectedByCheck: Array<[string, ResourceType, () => Record<string, unknown>, string, RegExp]> = [
  ["group name missing", "Group", () => group({ name: undefined }), "name", /required/],
  ["group name empty", "Group", () => group({ name: "" }), "name", /must match/],
  ["group name with capitals", "Group", () => group({ name: "Team" }), "name", /must match \^\[a-z0-9 \._-\]\{1,\}\$/],
  ["group name with a slash", "Group", () => group({ name: "a/b" }), "name", /must match/],
  ["group name with unicode", "Group", () => group({ name: "équipe" }), "name", /must match/],
  ["group name a number", "Group", () => group({ name: 42 }), "name", /string/],
  ["group parentUid missing", "Group", () => group({ parentUid: undefined }), "parentUid", /required/],
  ["group parentUid empty", "Group", () => group({ parentUid: "" }), "parentUid", /./],
  ["group parentUid with an empty segment", "Group", () => group({ parentUid: "acme//team" }), "parentUid", /./],
  ["group parentUid ending in a slash", "Group", () => group({ parentUid: "acme/" }), "parentUid", /./],
  ["group parentUid with spaces", "Group", () => group({ parentUid: "acme team" }), "parentUid", /./],
  ["group description a number", "Group", () => group({ description: 7 }), "description", /string/],
  ["group misspelled field", "Group", () => group({ descripton: "x" }), "descripton", /./],
  ["identity name missing", "Identity", () => ident({ name: undefined }), "name", /required/],
  ["identity claimMatch missing", "Identity", () => ident({ claimMatch: undefined }), "claimMatch", /required/],
  ["identity claimMatch a string", "Identity", () => ident({ claimMatch: "issuer" }), "claimMatch", /./],
  [
    "identity issuer over http",
    "Identity",
    () => ident({ claimMatch: { ...claim, issuer: "http://issuer.example.com" } }),
    "claimMatch.issuer",
    /https/,
  ],
  [
    "identity issuer not a URL",
    "Identity",
    () => ident({ claimMatch: { ...claim, issuer: "github" } }),
    "claimMatch.issuer",
    /https/,
  ],
  [
    "identity issuer and issuerPattern",
    "Identity",
    () => ident({ claimMatch: { ...claim, issuerPattern: "https://.*" } }),
    "claimMatch",
    /issuer/,
  ],
  [
    "identity neither subject nor pattern",
    "Identity",
    () => ident({ claimMatch: { issuer: claim.issuer } }),
    "claimMatch",
    /subject/,
  ],
  [
    "identity subject and subjectPattern",
    "Identity",
    () => ident({ claimMatch: { ...claim, subjectPattern: "repo:.*" } }),
    "claimMatch",
    /subject/,
  ],
  [
    "identity audience and audiencePattern",
    "Identity",
    () => ident({ claimMatch: { ...claim, audience: "a", audiencePattern: "a.*" } }),
    "claimMatch",
    /audience/,
  ],
  [
    "identity subjectPattern not a regex",
    "Identity",
    () => ident({ claimMatch: { issuer: claim.issuer, subjectPattern: "repo:(" } }),
    "claimMatch.subjectPattern",
    /./,
  ],
  [
    "identity claims not strings",
    "Identity",
    () => ident({ claimMatch: { ...claim, claims: { ref: 1 } } }),
    "claimMatch.claims",
    /./,
  ],
  ["identity parentUid malformed", "Identity", () => ident({ parentUid: "/acme" }), "parentUid", /./],
  [
    "identity unknown claimMatch field",
    "Identity",
    () => ident({ claimMatch: { ...claim, subjct: "x" } }),
    "claimMatch.subjct",
    /unknown property; claimMatch takes issuer/,
  ],
  ["binding roleUid with a slash", "RoleBinding", () => binding({ roleUid: "acme/viewer" }), "roleUid", /./],
  ["binding roleUid a number", "RoleBinding", () => binding({ roleUid: 5 }), "roleUid", /string/],
  ["binding groupUid missing", "RoleBinding", () => binding({ groupUid: undefined }), "groupUid", /required/],
  ["binding identityUid empty", "RoleBinding", () => binding({ identityUid: "" }), "identityUid", /./],
  ["binding unknown field", "RoleBinding", () => binding({ role: "viewer" }), "role", /./],
];

test.each(rejectedByCheck)("check rejects: %s", async (_what, type, inputs, property, reason) => {
  const values = Object.fromEntries(Object.entries(inputs()).filter(([, v]) => v !== undefined));
  const { failures } = await h.host.check(h.urn(type, "bad"), {}, props(type, values));
  // A rule across fields may name the nested field it is about (claimMatch.issuerPattern).
  const named = failures.filter((f) => f.property === property || f.property.startsWith(`${property}.`));
  expect(named.length).toBeGreaterThanOrEqual(1);
  expect(failures).toEqual(named);
  expect(named[0].reason).toMatch(reason);
  expect(named[0].reason).not.toMatch(STACK_TRACE);
  expect(h.calls()).toEqual([]);
});

// What only the service can tell: one error naming the record and the service's reason, nothing created.
const rejectedByService: Array<[string, ResourceType, () => Record<string, unknown>, RegExp]> = [
  [
    "a group under a parent that does not exist",
    "Group",
    () => group({ parentUid: `${h.emu.rootUid}/missing` }),
    /NOT_FOUND.*missing/,
  ],
  [
    "an identity under a parent that does not exist",
    "Identity",
    () => ident({ parentUid: `${h.emu.rootUid}/missing` }),
    /NOT_FOUND.*missing/,
  ],
  [
    "a group in another organization",
    "Group",
    () => group({ parentUid: "someone-else/team" }),
    /(NOT_FOUND|PERMISSION_DENIED).*someone-else/,
  ],
  [
    "a binding to a role that does not exist",
    "RoleBinding",
    () => binding({ roleUid: "0".repeat(40) }),
    /roleUid|role/,
  ],
  [
    "a binding of an identity that does not exist",
    "RoleBinding",
    () => binding({ identityUid: `${team}/nobody` }),
    /identityUid|identity/,
  ],
  [
    "a binding on a group that does not exist",
    "RoleBinding",
    () => binding({ groupUid: `${h.emu.rootUid}/missing` }),
    /NOT_FOUND.*missing/,
  ],
  [
    "a group whose name is taken",
    "Group",
    () => group({ name: "bad-input-team" }),
    /already exists.*Group\.get\(name, uid\)/,
  ],
];

test.each(rejectedByService)("create fails clearly: %s", async (_what, type, inputs, message) => {
  const checked = await h.host.check(h.urn(type, "bad"), {}, props(type, inputs()));
  expect(checked.failures).toEqual([]);
  const error = await h.host.create(h.urn(type, "bad"), checked.inputs).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HostError);
  expect((error as Error).message).toMatch(message);
  expect((error as Error).message).not.toMatch(STACK_TRACE);
  expect(h.emu.requests().filter((r) => r.method === "POST" && r.status < 300)).toEqual([]);
});

describe("settings", () => {
  let proxy: http.Server;
  let proxyUrl: string;
  beforeAll(async () => {
    proxy = http.createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>Bad gateway</body></html>");
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => proxy.close(resolve)));

  const cases: Array<[string, () => Record<string, string>, RegExp]> = [
    ["no credentials", () => ({ "platform:apiUrl": h.emu.url }), /no credentials: set platform:token/],
    ["no API URL", () => ({ "platform:token": "t" }), /platform:apiUrl is not set/],
    [
      "plain http to a remote host",
      () => ({ "platform:apiUrl": "http://api.example.com", "platform:token": "t" }),
      /platform:apiUrl: http:\/\/ is refused; use https:\/\//,
    ],
    [
      "an unknown API version",
      () => ({ "platform:apiUrl": h.emu.url, "platform:token": "t", "platform:apiVersion": "v9" }),
      /platform:apiVersion: is not an API version; use v2beta1/,
    ],
    [
      "an unreachable URL",
      () => ({ "platform:apiUrl": "http://127.0.0.1:1", "platform:token": "t" }),
      /cannot reach http:\/\/127.0.0.1:1 \(ECONNREFUSED\): check platform:apiUrl/,
    ],
    [
      "a proxy answering HTML",
      () => ({ "platform:apiUrl": proxyUrl, "platform:token": "t" }),
      /not an API Status \(text\/html\): is platform:apiUrl/,
    ],
    [
      "a wrong token",
      () => ({ "platform:apiUrl": h.emu.url, "platform:token": "wrong" }),
      /UNAUTHENTICATED.*platform:token/,
    ],
    [
      "an identity without its token file",
      () => ({ "platform:apiUrl": h.emu.url, "platform:identity": identity }),
      /platform:identityTokenFile/,
    ],
    [
      "an identity token file that does not exist",
      () => ({
        "platform:apiUrl": h.emu.url,
        "platform:identity": identity,
        "platform:identityTokenFile": "/nonexistent/token",
      }),
      /platform:identityTokenFile.*ENOENT/,
    ],
  ];

  test.each(cases)("a host configured with %s fails its create naming the setting", async (_what, config, message) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
    const host: ProviderHost = await startHost({ cwd: h.staged.dir, env });
    try {
      await host.configure(config());
      const error = await host
        .create(h.urn("Group", "bad"), props("Group", group({ name: "never-created" })))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toMatch(STACK_TRACE);
      expect(h.emu.requests().filter((r) => r.method === "POST" && r.status < 300)).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe("look-ups", () => {
  const saved = { ...process.env };
  beforeAll(() => Object.assign(process.env, { PLATFORM_API_URL: h.emu.url, PLATFORM_TOKEN: h.emu.token }));
  afterAll(() => {
    process.env = saved;
  });

  const cases: Array<[string, () => Promise<unknown>, RegExp, boolean]> = [
    ["getRole without a name", () => h.platform.iam.getRole({}), /getRole.*name/, false],
    [
      "getRole of a role that does not exist",
      () => h.platform.iam.getRole({ name: "no-such-role" }),
      /getRole.*no-such-role/,
      true,
    ],
    ["getRepos ordered by nonsense", () => h.platform.registry.getRepos({ orderBy: "name; drop" }), /orderBy/, false],
    ["getRepos with a negative skip", () => h.platform.registry.getRepos({ skip: -1 }), /skip/, false],
    ["getRepos with ids as a string", () => h.platform.registry.getRepos({ ids: "a" }), /ids/, false],
    ["getTags with a malformed digest", () => h.platform.registry.getTags({ digest: "abc" }), /digest.*sha256/, false],
    [
      "getGroup with uid and name",
      () => h.platform.iam.getGroup({ uid: team, name: "x" }),
      /name.*cannot be combined with uid/,
      false,
    ],
    ["getAdvisories with limit 0", () => h.platform.vulnerabilities.getAdvisories({ limit: 0 }), /limit/, false],
    ["getIdentities with an unknown argument", () => h.platform.iam.getIdentities({ parent: team }), /parent/, false],
  ];

  test.each(cases)("%s fails naming the argument", async (_what, call, message, needsRequest) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(STACK_TRACE);
    expect(h.emu.requests().length > 0).toBe(needsRequest);
  });
});
