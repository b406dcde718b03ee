/**
 * Start-up data. The bootstrap (built-in roles, a root organization, and a development
 * owner bound at the root) always exists, since nothing can be done without it; the
 * samples (repos with tags and advisories) and bulk records are optional.
 */
import { createHash } from "node:crypto";
import { builtinRole, builtinRoles } from "./capabilities";
import type { Kinds } from "./kinds/kind";
import { childUid, newSegment } from "./ids";
import { makeRec, Rec, Store } from "./store";
import { BulkOptions } from "./types";

export const ROOT_NAME = "demo-org";
export const DEV_IDENTITY_NAME = "dev-owner";

export function bootstrap(
  store: Store,
  kinds: Kinds,
  now: number,
  devIssuer: string,
): { rootUid: string; devIdentityUid: string } {
  store.of("roles").addMany(
    builtinRoles(kinds).map((role) =>
      makeRec({
        uid: role.uid,
        parentUid: null,
        name: role.name,
        createTime: now,
        updateTime: now,
        data: { description: role.description, capabilities: role.capabilities, builtin: true },
      }),
    ),
  );
  const rootUid = newSegment();
  store.of("groups").add(
    makeRec({
      uid: rootUid,
      parentUid: null,
      name: ROOT_NAME,
      createTime: now,
      updateTime: now,
      data: { description: "Root organization of the emulator", verified: false },
    }),
  );
  const devIdentityUid = childUid(rootUid);
  store.of("identities").add(
    makeRec({
      uid: devIdentityUid,
      parentUid: rootUid,
      name: DEV_IDENTITY_NAME,
      createTime: now,
      updateTime: now,
      data: {
        description: "Development owner of the root organization",
        claimMatch: { issuer: devIssuer, subject: DEV_IDENTITY_NAME },
        lastSeenTime: now,
      },
    }),
  );
  store.of("roleBindings").add(
    makeRec({
      uid: childUid(rootUid),
      parentUid: rootUid,
      name: "",
      createTime: now,
      updateTime: now,
      data: { identityUid: devIdentityUid, roleUid: builtinRole("owner").uid },
    }),
  );
  return { rootUid, devIdentityUid };
}

function digestOf(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

function repoRec(rootUid: string, name: string, at: number): Rec {
  return makeRec({
    uid: childUid(rootUid),
    parentUid: rootUid,
    name,
    createTime: at,
    updateTime: at,
    data: {
      description: `${name} image`,
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      bundles: [],
      aliases: [],
      activeTags: [],
    },
  });
}

function tagRec(repo: Rec, name: string, at: number): Rec {
  return makeRec({
    uid: childUid(repo.uid),
    parentUid: repo.uid,
    name,
    createTime: at,
    updateTime: at,
    data: { digest: digestOf(`${repo.name}:${name}`), deprecated: false, bundles: [] },
  });
}

/** Four characters of a legacy advisory id, derived from the advisory's number. */
const legacySegment = (n: number, part: number) =>
  createHash("sha1").update(`legacy-${n}-${part}`).digest("hex").slice(0, 4);

function advisoryRec(repo: Rec, n: number, component: string, at: number): Rec {
  const advisoryId = `CGA-${(n * 7919 + 1000).toString(36)}-${n.toString().padStart(4, "0")}`;
  return makeRec({
    uid: childUid(repo.uid),
    parentUid: repo.uid,
    name: advisoryId,
    createTime: at,
    updateTime: at,
    data: {
      advisoryId,
      // Every other advisory was migrated from a GitHub advisory repository and keeps its id from there.
      ...(n % 2 === 1
        ? { legacyAdvisoryId: `CGA-${legacySegment(n, 1)}-${legacySegment(n, 2)}-${legacySegment(n, 3)}` }
        : {}),
      artifactName: repo.name,
      artifactType: "image",
      artifactArchitecture: "x86_64",
      componentName: component,
      componentType: "apk",
      componentLocation: `/usr/lib/${component}`,
      author: "emulator",
      aliases: [`CVE-2024-${(1000 + n).toString()}`, `GHSA-${n.toString(36).padStart(4, "x")}-emul-ator0`],
      events: [
        {
          uid: `${advisoryId}-1`,
          author: "emulator",
          reviewState: "REVIEW_STATE_APPROVED",
          createTime: new Date(at).toISOString(),
          detection: { scanv1: { scanner: "grype", component: component, componentType: "apk" } },
        },
        n % 2 === 0
          ? {
              uid: `${advisoryId}-2`,
              author: "emulator",
              reviewState: "REVIEW_STATE_APPROVED",
              createTime: new Date(at).toISOString(),
              fixed: { fixedVersion: `${n}.0.1` },
            }
          : {
              uid: `${advisoryId}-2`,
              author: "emulator",
              reviewState: "REVIEW_STATE_PENDING",
              createTime: new Date(at).toISOString(),
              pendingUpstreamFix: { note: "waiting for the upstream release" },
            },
      ],
      severities: [{ type: "TYPE_CVSS_V3", score: n % 2 === 0 ? "7.5" : "5.3" }],
    },
  });
}

const SAMPLE_REPOS: Array<[string, string[], string[]]> = [
  ["nginx", ["latest", "1.27", "1.27.3"], ["openssl", "zlib"]],
  ["python", ["latest", "3.13", "3.12"], ["openssl", "expat"]],
  ["node", ["latest", "22", "20"], ["libuv"]],
];

/** A record directly under a parent, with the given name and data. */
function childRec(parentUid: string, name: string, at: number, data: Record<string, unknown>): Rec {
  return makeRec({ uid: childUid(parentUid), parentUid, name, createTime: at, updateTime: at, data });
}

export function seedSamples(store: Store, now: number, rootUid: string): void {
  let n = 1;
  const repos: Rec[] = [];
  for (const [name, tags, components] of SAMPLE_REPOS) {
    const repo = repoRec(rootUid, name, now);
    repos.push(repo);
    store.of("repos").add(repo);
    store.of("tags").addMany(tags.map((tag) => tagRec(repo, tag, now)));
    store.of("advisories").addMany(components.map((component) => advisoryRec(repo, n++, component, now)));
  }
  // A signature attached to nginx:latest: a referrer tag, listed only with includeReferrers=true.
  const nginx = repos[0];
  const latest = digestOf(`${nginx.name}:latest`).slice("sha256:".length);
  store.of("tags").add(tagRec(nginx, `sha256-${latest}.sig`, now));
  const overlay = childRec(rootUid, "utc-time", now, {
    config: { environment: { TZ: "UTC" }, annotations: { "org.example.overlay": "utc-time" } },
  });
  store.of("overlays").add(overlay);
  store.of("overlayBindings").add(childRec(nginx.uid, "", now, { overlay: overlay.uid, tags: ["latest"] }));
  store.of("identityProviders").add(
    childRec(rootUid, "corp-sso", now, {
      description: "Company single sign-on",
      defaultRole: builtinRole("viewer").uid,
      oidc: { issuer: "https://sso.example.com", clientId: "platform-emulator", clientSecret: "emulator-secret" },
      scim: { enabled: false, credentialState: "CREDENTIAL_STATE_NOT_ISSUED" },
    }),
  );
  store.of("accountAssociations").add(
    makeRec({
      uid: rootUid,
      parentUid: rootUid,
      name: "aws-production",
      createTime: now,
      updateTime: now,
      data: { description: "Production AWS account", amazon: { account: "123456789012" } },
    }),
  );
  store.of("subscriptions").add(childRec(rootUid, "", now, { sink: "https://hooks.example.com/platform-events" }));
}

/** Many records at once, for benchmarks: one sort per index instead of one insert each. */
export function seedBulk(store: Store, now: number, rootUid: string, bulk: BulkOptions): void {
  const groups: Rec[] = [];
  for (let i = 0; i < (bulk.groups ?? 0); i++) {
    const at = now - (bulk.groups ?? 0) + i;
    groups.push(
      makeRec({
        uid: childUid(rootUid),
        parentUid: rootUid,
        name: `bulk-group-${i}`,
        createTime: at,
        updateTime: at,
        data: { description: "", verified: false },
      }),
    );
  }
  store.of("groups").addMany(groups);
  const repos: Rec[] = [];
  const tags: Rec[] = [];
  for (let i = 0; i < (bulk.repos ?? 0); i++) {
    const repo = repoRec(rootUid, `bulk-repo-${i}`, now - (bulk.repos ?? 0) + i);
    repos.push(repo);
    for (let t = 0; t < (bulk.tagsPerRepo ?? 0); t++) tags.push(tagRec(repo, `v${t}`, now));
  }
  store.of("repos").addMany(repos);
  store.of("tags").addMany(tags);
  const advisories: Rec[] = [];
  const owners = repos.length ? repos : [...store.of("repos").indexes.uid.items];
  if (owners.length === 0 && (bulk.advisories ?? 0) > 0) {
    const repo = repoRec(rootUid, "bulk-advisory-repo", now);
    store.of("repos").add(repo);
    owners.push(repo);
  }
  for (let i = 0; i < (bulk.advisories ?? 0); i++)
    advisories.push(
      advisoryRec(owners[i % owners.length], 10000 + i, `component-${i % 50}`, now - (bulk.advisories ?? 0) + i),
    );
  store.of("advisories").addMany(advisories);
}
