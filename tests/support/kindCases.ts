/**
 * For tests parametrised over the managed kinds: where each kind's records live and how record
 * number `i` of a kind is made directly through the API (out of band) and declared in a program,
 * under a fresh group, with what the kind needs made first (a repo for tags, identities for
 * role bindings, an identity provider for its mappings, overlays for their bindings).
 */
import { BUILTIN_ROLES } from "../../emulator";
import type { Harness } from "../../tools/host/resourceHarness";

const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const GITHUB = "https://token.actions.githubusercontent.com";
const DIGEST = `sha256:${"c".repeat(64)}`;

/** One direct API call (out of band), failing the test on an error answer. */
export async function made(h: Harness, path: string, body: unknown): Promise<{ uid: string } & Record<string, any>> {
  const answer = await h.api("POST", path, body);
  if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `count` records made in small parallel batches, in index order batch by batch. */
export async function many(count: number, make: (i: number) => Promise<{ uid: string }>): Promise<string[]> {
  const uids: string[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - start) }, (_, k) => make(start + k)));
    uids.push(...batch.map((r) => r.uid));
  }
  return uids;
}

export interface Place {
  /** Where the kind's records are created: `POST {collection}/{parent}`. */
  parent: string;
  /** The create body of record `i`. */
  body(i: number): Record<string, unknown>;
  /** The resource inputs that declare record `i`. */
  inputs(i: number): Record<string, unknown>;
}

export interface KindCase {
  /** The collection's path (v2beta1). */
  collection: string;
  /** Records 0 to `count - 1` can be made under the place this prepares below `group`. */
  place(h: Harness, group: string, count: number): Promise<Place>;
}

/** Per kind (by type name): its collection's path and how its records are made and declared. */
export const KIND_CASES: Record<string, KindCase> = {
  Group: {
    collection: "/iam/v2beta1/groups",
    place: async (_h, group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ parentUid: group, name: `n${i}` }),
    }),
  },
  Identity: {
    collection: "/iam/v2beta1/identities",
    place: async (_h, group) => {
      const body = (i: number) => ({ name: `n${i}`, claimMatch: { issuer: GITHUB, subject: `s${i}` } });
      return { parent: group, body, inputs: (i) => ({ parentUid: group, ...body(i) }) };
    },
  },
  Role: {
    collection: "/iam/v2beta1/roles",
    place: async (_h, group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ parentUid: group, name: `n${i}` }),
    }),
  },
  RoleBinding: {
    collection: "/iam/v2beta1/roleBindings",
    place: async (h, group, count) => {
      const identities = await many(count, (i) =>
        made(h, `/iam/v2beta1/identities/${group}`, {
          name: `n${i}`,
          claimMatch: { issuer: GITHUB, subject: `s${i}` },
        }),
      );
      return {
        parent: group,
        body: (i) => ({ identityUid: identities[i], roleUid: viewer }),
        inputs: (i) => ({ groupUid: group, identityUid: identities[i], roleUid: viewer }),
      };
    },
  },
  Repo: {
    collection: "/registry/v2beta1/repos",
    place: async (_h, group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ parentUid: group, name: `n${i}` }),
    }),
  },
  Tag: {
    collection: "/registry/v2beta1/tags",
    place: async (h, group) => {
      const repo = (await made(h, `/registry/v2beta1/repos/${group}`, { name: "tagged" })).uid;
      return {
        parent: repo,
        body: (i) => ({ name: `t${i}`, digest: DIGEST }),
        inputs: (i) => ({ repoUid: repo, name: `t${i}`, digest: DIGEST }),
      };
    },
  },
  IdentityProvider: {
    collection: "/iam/v2beta1/identityProviders",
    place: async (_h, group) => {
      const body = (i: number) => ({
        name: `n${i}`,
        defaultRole: viewer,
        oidc: { issuer: "https://login.example.com", clientId: `c${i}` },
      });
      return { parent: group, body, inputs: (i) => ({ parentUid: group, ...body(i) }) };
    },
  },
  AccountAssociation: {
    collection: "/iam/v2beta1/accountAssociations",
    place: async (_h, group) => ({
      parent: group,
      body: (i) => ({ name: `n${i}` }),
      inputs: (i) => ({ groupUid: group, name: `n${i}` }),
    }),
  },
  GroupInvite: {
    collection: "/iam/v2beta1/groupInvites",
    place: async (_h, group) => ({
      parent: group,
      body: (i) => ({ roleUid: viewer, ttl: `${1000 + i}s` }),
      inputs: (i) => ({ groupUid: group, roleUid: viewer, ttl: `${1000 + i}s` }),
    }),
  },
  ExternalGroupRoleMapping: {
    collection: "/iam/v2beta1/externalGroupRoleMappings",
    place: async (h, group) => {
      const idp = (
        await made(h, `/iam/v2beta1/identityProviders/${group}`, {
          name: "directory",
          defaultRole: viewer,
          oidc: { issuer: "https://login.example.com", clientId: "directory" },
        })
      ).uid;
      return {
        parent: idp,
        body: (i) => ({ externalGroupId: `e${i}`, roleUid: viewer }),
        inputs: (i) => ({ identityProviderUid: idp, externalGroupId: `e${i}`, roleUid: viewer }),
      };
    },
  },
  Subscription: {
    collection: "/events/v2beta1/subscriptions",
    place: async (_h, group) => ({
      parent: group,
      body: (i) => ({ sink: `https://hooks.example.com/${i}` }),
      inputs: (i) => ({ parentUid: group, sink: `https://hooks.example.com/${i}` }),
    }),
  },
  Overlay: {
    collection: "/registry/v2beta1/overlays",
    place: async (_h, group) => {
      const body = (i: number) => ({ name: `n${i}`, config: { environment: { N: `${i}` } } });
      return { parent: group, body, inputs: (i) => ({ parentUid: group, ...body(i) }) };
    },
  },
  OverlayBinding: {
    collection: "/registry/v2beta1/overlayBindings",
    place: async (h, group, count) => {
      const repo = (await made(h, `/registry/v2beta1/repos/${group}`, { name: "overlaid" })).uid;
      const overlays = await many(count, (i) =>
        made(h, `/registry/v2beta1/overlays/${group}`, { name: `o${i}`, config: { environment: { N: `${i}` } } }),
      );
      return {
        parent: repo,
        body: (i) => ({ overlay: overlays[i], tags: ["latest"] }),
        inputs: (i) => ({ repoUid: repo, overlayUid: overlays[i], tags: ["latest"] }),
      };
    },
  },
};

let groups = 0;
/** A fresh group under the root, for one test's records. */
export async function freshGroup(h: Harness, what: string): Promise<string> {
  return (await made(h, `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: `${what.toLowerCase()}-${groups++}` })).uid;
}
