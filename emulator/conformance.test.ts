/**
 * Conformance with the API documents: one valid request to every documented operation (GA
 * operations under v2 and v2beta1, v2beta1-only ones under v2beta1), each answered 2xx with
 * a body that validates (ajv) against the documented answer message; and bad requests
 * answered with AIP-193 Status bodies.
 */
import { startEmulator, RunningEmulator } from "./index";
import { call, CallOptions, Reply } from "../tests/support/emulatorClient";
import { DocOperation, loadApiDocument } from "./apiDocument";
import { messagesOf } from "./messages";
import { builtinRole } from "./capabilities";

const doc = loadApiDocument();
const messages = messagesOf(doc);
const viewer = builtinRole("viewer").uid;
const DIGEST = `sha256:${"c".repeat(64)}`;

let emu: RunningEmulator;
let team: string;
let fixtureIdentity: string;
let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}`;

async function must(method: string, path: string, options: CallOptions = {}): Promise<any> {
  const reply = await call(emu, method, path, options);
  if (reply.status !== 200) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
  return reply.body;
}

type Sample = { parent: () => Promise<string>; body: () => Promise<Record<string, unknown>>; patch?: object };

async function newIdentity(): Promise<string> {
  const name = unique("id");
  return (
    await must("POST", `/iam/v2/identities/${team}`, {
      body: { name, claimMatch: { issuer: emu.issuer, subject: name } },
    })
  ).uid;
}
/** A group of its own under the team: an account association is one per group. */
async function newGroup(): Promise<string> {
  return (await must("POST", `/iam/v2/groups/${team}`, { body: { name: unique("group") } })).uid;
}
async function newRepo(): Promise<string> {
  return (await must("POST", `/registry/v2/repos/${team}`, { body: { name: unique("repo") } })).uid;
}
async function newIdp(): Promise<string> {
  return (
    await must("POST", `/iam/v2/identityProviders/${team}`, { body: { name: unique("idp"), defaultRole: viewer } })
  ).uid;
}
async function newOverlay(): Promise<string> {
  return (
    await must("POST", `/registry/v2beta1/overlays/${team}`, {
      body: { name: unique("overlay"), config: { environment: { TZ: "UTC" } } },
    })
  ).uid;
}
async function newTaggedRepo(): Promise<string> {
  const repo = await newRepo();
  await must("POST", `/registry/v2/tags/${repo}`, { body: { name: "latest", digest: DIGEST } });
  return repo;
}

const SAMPLES: Record<string, Sample> = {
  groups: { parent: async () => team, body: async () => ({ name: unique("group") }) },
  identities: {
    parent: async () => team,
    body: async () => {
      const name = unique("identity");
      return { name, claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: name } };
    },
  },
  roles: { parent: async () => team, body: async () => ({ name: unique("role"), capabilities: ["CAP_REPO_LIST"] }) },
  roleBindings: {
    parent: async () => team,
    body: async () => ({ identityUid: await newIdentity(), roleUid: viewer }),
  },
  repos: {
    parent: async () => team,
    body: async () => ({ name: unique("repo"), sync_config: { source: "cgr.dev/x/y" } }),
  },
  tags: { parent: newRepo, body: async () => ({ name: unique("tag"), digest: DIGEST }) },
  identityProviders: {
    parent: async () => team,
    body: async () => ({
      name: unique("idp"),
      defaultRole: viewer,
      oidc: { issuer: "https://idp.example", clientId: "client", clientSecret: "secret" },
    }),
  },
  accountAssociations: {
    parent: newGroup,
    body: async () => ({ name: unique("assoc"), amazon: { account: "123456789012" } }),
  },
  groupInvites: {
    parent: async () => team,
    body: async () => ({ roleUid: viewer, ttl: "3600s", email: "a@example.com" }),
  },
  externalGroupRoleMappings: {
    parent: newIdp,
    body: async () => ({ externalGroupId: unique("ext"), roleUid: viewer }),
  },
  subscriptions: { parent: async () => team, body: async () => ({ sink: "https://hooks.example/events" }) },
  overlays: {
    parent: async () => team,
    body: async () => ({ name: unique("overlay"), config: { annotations: { a: "b" } } }),
  },
  overlayBindings: { parent: newRepo, body: async () => ({ overlay: await newOverlay(), tags: ["latest"] }) },
  requestGroups: {
    parent: async () => team,
    body: async () => ({ name: unique("rg"), items: ["requests==2.31.0", "numpy==9.9.9", "left-pad==1.0"] }),
  },
};

/** A fresh record of a collection: [uid, the body it was created with]. */
async function fresh(collection: string, base: string): Promise<[string, Record<string, unknown>]> {
  const sample = SAMPLES[collection];
  const body = await sample.body();
  const created = await must("POST", `${base}/${await sample.parent()}`, { body });
  return [created.uid, body];
}

interface Request {
  path: Record<string, string>;
  options?: CallOptions;
}

/** A valid request to each operation that is not a collection's own verb. */
const CUSTOM: Record<string, () => Promise<Request>> = {
  SecurityAdvisoryService_ListDocuments: async () => ({ path: {} }),
  SecurityAdvisoryService_ListResolvedVulnsReports: async () => ({
    path: {},
    options: {
      query: {
        startTime: new Date(Date.now() - 30 * 86400_000).toISOString(),
        endTime: new Date(Date.now() + 86400_000).toISOString(),
      },
    },
  }),
  SecurityAdvisoryService_ListVulnerabilityMetadata: async () => ({ path: {}, options: { query: { pageSize: 2 } } }),
  GroupsService_CheckEligibility: async () => ({ path: {} }),
  GroupsService_LookupGroup: async () => ({ path: {} }),
  GroupsService_RequestGroupAccess: async () => ({ path: { groupUid: team }, options: { body: {} } }),
  IdentitiesService_LookupIdentity: async () => ({
    path: {},
    options: { query: { issuer: emu.issuer, subject: "conformance" } },
  }),
  IdentitiesService_UpdateIdentityMetadata: async () => ({
    path: {},
    options: { body: { identityMetadata: { company: "Acme", jobTitle: "SRE" }, updateMask: "company,jobTitle" } },
  }),
  IdentityProvidersService_GenerateScimToken: async () => ({
    path: { identityProviderUid: await newIdp() },
    options: { body: { neverExpires: true } },
  }),
  IdentityProvidersService_RegenerateScimToken: async () => {
    const idp = await newIdp();
    const { etag } = await must("POST", `/iam/v2/identityProviders/${idp}:generateScimToken`, { body: {} });
    return { path: { identityProviderUid: idp }, options: { body: { etag, overlap: "3600s" } } };
  },
  IdentityProvidersService_RevokeScimToken: async () => ({
    path: { identityProviderUid: await newIdp() },
    options: { body: {} },
  }),
  IdentityProvidersService_SetScimEnabled: async () => {
    const idp = await newIdp();
    const { etag } = await must("POST", `/iam/v2/identityProviders/${idp}:generateScimToken`, { body: {} });
    return { path: { identityProviderUid: idp }, options: { body: { enabled: true, etag } } };
  },
  AccountAssociationsService_CheckAccountAssociation: async () => ({
    path: { uid: (await fresh("accountAssociations", "/iam/v2/accountAssociations"))[0] },
    options: { body: { providerType: "ACCOUNT_PROVIDER_TYPE_AMAZON" } },
  }),
  ExternalGroupRoleMappingsService_BatchDeleteExternalGroupRoleMappings: async () => {
    const idp = await newIdp();
    const mapping = await must("POST", `/iam/v2/externalGroupRoleMappings/${idp}`, {
      body: { externalGroupId: "eng", roleUid: viewer },
    });
    return { path: {}, options: { body: { parent: idp, names: [mapping.uid] } } };
  },
  RoleBindingsService_BatchCreateRoleBindings: async () => ({
    path: {},
    options: {
      body: {
        parent: team,
        roleUid: viewer,
        requests: [{ parent: team, roleBinding: { identityUid: await newIdentity() } }],
      },
    },
  }),
  TermsService_ListTermsAcceptances: async () => ({ path: { group: team } }),
  TermsService_AcceptTerms: async () => ({ path: { group: team }, options: { body: { documentIds: ["tos-2024"] } } }),
  ArtifactsService_ListArtifacts: async () => ({ path: {}, options: { query: { ecosystems: ["ECOSYSTEM_PYTHON"] } } }),
  ArtifactsService_ListArtifactVersions: async () => ({ path: { artifactId: "py-requests" } }),
  ArtifactsService_GetArtifactCount: async () => ({
    path: {},
    options: { query: { ecosystems: ["ECOSYSTEM_PYTHON", "ECOSYSTEM_JAVA"] } },
  }),
  PingService_Ping: async () => ({ path: {} }),
  ReposService_GetRepoReadme: async () => ({ path: { "repoReadme.uid": await newRepo() } }),
  ReposService_UpdateRepoReadme: async () => ({
    path: { "repoReadme.uid": await newRepo() },
    options: { body: { content: "# Hello" } },
  }),
  ImagesService_GetArchitectures: async () => ({ path: { repoUid: await newTaggedRepo(), digest: DIGEST } }),
  ImagesService_GetSize: async () => ({
    path: { repoUid: await newTaggedRepo(), digest: DIGEST },
    options: { query: { architecture: "arm64" } },
  }),
  RequestGroupsService_RefreshCoverage: async () => ({
    path: { uid: (await fresh("requestGroups", "/libraries/v2beta1/requestGroups"))[0] },
    options: { body: {} },
  }),
  RequestGroupsService_RemoveItems: async () => {
    const [uid] = await fresh("requestGroups", "/libraries/v2beta1/requestGroups");
    const items = await must("GET", `/libraries/v2beta1/requestGroups/${uid}/items`);
    return { path: { uid }, options: { body: { itemUids: [items.requestGroupItems[0].uid] } } };
  },
  RequestGroupsService_RestoreItems: async () => {
    const [uid] = await fresh("requestGroups", "/libraries/v2beta1/requestGroups");
    const items = await must("GET", `/libraries/v2beta1/requestGroups/${uid}/items`);
    const itemUids = [items.requestGroupItems[0].uid];
    await must("POST", `/libraries/v2beta1/requestGroups/${uid}:removeItems`, { body: { itemUids } });
    return { path: { uid }, options: { body: { itemUids } } };
  },
  RequestGroupsService_SubmitRequestGroup: async () => ({
    path: { uid: (await fresh("requestGroups", "/libraries/v2beta1/requestGroups"))[0] },
    options: { body: { forCveRemediation: false } },
  }),
  RequestGroupsService_ListRequestGroupItems: async () => ({
    path: { uid: (await fresh("requestGroups", "/libraries/v2beta1/requestGroups"))[0] },
    options: { query: { includeRemoved: "true" } },
  }),
  RequestGroupsService_ListRequestedLibraries: async () => {
    await fresh("requestGroups", "/libraries/v2beta1/requestGroups");
    return { path: {}, options: { query: { parent: team } } };
  },
  RequestGroupsService_ListRequestedLibraryVersions: async () => {
    await fresh("requestGroups", "/libraries/v2beta1/requestGroups");
    return { path: {}, options: { query: { parent: team, name: "requests", ecosystem: "ECOSYSTEM_PYTHON" } } };
  },
  SecurityTokenService_Exchange2: async () => ({
    path: {},
    options: {
      query: { aud: emu.url, identity: fixtureIdentity },
      token: await emu.mintOidcToken({ subject: "conformance" }),
    },
  }),
  SecurityTokenService_Exchange: async () => ({
    path: {},
    options: {
      query: { aud: emu.url, identity: fixtureIdentity },
      token: await emu.mintOidcToken({ subject: "conformance" }),
    },
  }),
  SecurityTokenService_ExchangeRefreshToken: async () => {
    const jwt = await emu.mintOidcToken({ subject: "conformance" });
    const pair = await must("GET", "/sts/exchange", { query: { aud: emu.url, identity: fixtureIdentity }, token: jwt });
    return { path: {}, options: { token: pair.refreshToken } };
  },
  Auth_GetHeadlessSession: async () => ({ path: {}, options: { query: { code: "abc123" } } }),
};

const COLLECTION_PATH = /^\/([^/]+)\/v2(?:beta1)?\/([A-Za-z]+)(\/\{uid\})?$/;

/** A valid request to a collection's List, Get, Create, Update or Delete. */
async function collectionRequest(op: DocOperation, base: string, collection: string): Promise<Request> {
  if (collection === "advisories") {
    const listed = await must("GET", base);
    return { path: { uid: listed.advisories[0].uid } };
  }
  const list = collection === "requestGroups" ? { query: { parent: team } } : {};
  switch (op.method) {
    case "GET":
      if (!op.path.endsWith("{uid}")) return { path: {}, options: list };
      return { path: { uid: (await fresh(collection, base))[0] } };
    case "POST":
      return { path: { uid: await SAMPLES[collection].parent() }, options: { body: await SAMPLES[collection].body() } };
    case "PATCH": {
      const [uid, body] = await fresh(collection, base);
      const patch = { ...body, description: "changed" };
      if (collection === "requestGroups") return { path: { uid }, options: { body: { name: "renamed" } } };
      if (collection === "roleBindings") return { path: { uid }, options: { body } };
      return { path: { uid }, options: { body: patch } };
    }
    default:
      return { path: { uid: (await fresh(collection, base))[0] } };
  }
}

function servedPaths(op: DocOperation, beta: boolean): string {
  return beta ? op.path.replace(/^(\/[^/]+)\/v2\//, "$1/v2beta1/") : op.path;
}

async function requestFor(op: DocOperation, template: string): Promise<Request> {
  const collection = COLLECTION_PATH.exec(op.path);
  if (collection && SAMPLES[collection[2]] !== undefined)
    return collectionRequest(op, template.replace(/\/\{uid\}$/, ""), collection[2]);
  if (collection && collection[2] === "advisories")
    return collectionRequest(op, template.replace(/\/\{uid\}$/, ""), "advisories");
  const build = CUSTOM[op.operation];
  if (!build) throw new Error(`no sample request for ${op.operation}`);
  return build();
}

function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return params[name];
  });
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, documentedAdvisoryEvents: true });
  team = (await must("POST", `/iam/v2/groups/${emu.rootUid}`, { body: { name: "conformance" } })).uid;
  fixtureIdentity = (
    await must("POST", `/iam/v2/identities/${team}`, {
      body: { name: "conformance", claimMatch: { issuer: emu.issuer, subject: "conformance" } },
    })
  ).uid;
  await must("POST", `/iam/v2/roleBindings/${team}`, { body: { identityUid: fixtureIdentity, roleUid: viewer } });
});
afterAll(() => emu.close());

const CASES: Array<[string, string, DocOperation]> = [
  ...doc.operations.flatMap((op): Array<[string, string, DocOperation]> => [
    [op.operation, servedPaths(op, false), op],
    ...(op.path.includes("/v2/") ? [[op.operation, servedPaths(op, true), op] as [string, string, DocOperation]] : []),
  ]),
  ...doc.v2beta1Only.map((op): [string, string, DocOperation] => [op.operation, op.path, op]),
];

describe("every documented operation answers a valid request with its documented message", () => {
  test("the cases cover every operation of both documents", () => {
    expect(new Set(CASES.map(([name]) => name)).size).toBe(doc.operations.length + doc.v2beta1Only.length);
  });

  test.each(CASES)("%s %s", async (_name, template, op) => {
    const request = await requestFor(op, template);
    const reply: Reply = await call(emu, op.method, fill(template, request.path), request.options ?? {});
    expect([reply.status, reply.status === 200 ? "" : reply.text]).toEqual([200, ""]);
    expect(messages.violations(op.answer, reply.body)).toEqual([]);
  });
});

describe("bad requests get AIP-193 Status bodies", () => {
  const status = { ref: "google.rpc.Status" };
  const expectStatus = (reply: Reply, http: number, code: number) => {
    expect([reply.status, reply.body?.code]).toEqual([http, code]);
    expect(messages.violations(status, reply.body)).toEqual([]);
    expect(reply.body.details[0]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: expect.any(String),
      domain: expect.any(String),
    });
  };

  const withBodies = CASES.filter(([, template, op]) => op.body && template.includes("/v2/"));
  test.each(withBodies)("%s %s: an unknown body field is INVALID_ARGUMENT naming it", async (_name, template, op) => {
    const request = await requestFor(op, template);
    const body = { ...((request.options?.body as object) ?? {}), bogusField: 1 };
    const reply = await call(emu, op.method, fill(template, request.path), { ...request.options, body });
    expectStatus(reply, 400, 3);
    const violations = reply.body.details.find((d: any) => d["@type"].endsWith("BadRequest")).fieldViolations;
    expect(violations).toContainEqual({ field: "bogusField", description: "unknown field" });
  });

  const gets = CASES.filter(([, template, op]) => op.method === "GET" && template.endsWith("/{uid}"));
  test.each(gets)("%s %s: an unknown uid is NOT_FOUND with ResourceInfo", async (_name, template) => {
    const reply = await call(emu, "GET", fill(template, { uid: `${team}/0000000000000000` }));
    expectStatus(reply, 404, 5);
    expect(reply.body.details.some((d: any) => d["@type"].endsWith("ResourceInfo"))).toBe(true);
  });

  test("no token is UNAUTHENTICATED; a malformed body is INVALID_ARGUMENT; an unknown path is NOT_FOUND", async () => {
    expectStatus(await call(emu, "GET", "/iam/v2/groups", { token: null }), 401, 16);
    expectStatus(await call(emu, "POST", `/iam/v2/groups/${team}`, { rawBody: "{nope" }), 400, 3);
    expectStatus(await call(emu, "GET", "/iam/v2/nothing"), 404, 5);
  });
});
