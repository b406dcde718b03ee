/**
 * Direct calls to the Platform API for tests and the demo: what someone does "in the console"
 * behind Pulumi's back, and a snapshot of the organization to compare before and after.
 * Deliberately independent of the package's own client, so it checks the package from outside.
 */
export interface Api {
  url: string;
  token: string;
}

export interface OrgRecord {
  uid: string;
  name?: string;
  description?: string;
  [field: string]: unknown;
}

export interface OrgSnapshot {
  groups: OrgRecord[];
  identities: OrgRecord[];
  roleBindings: OrgRecord[];
  /** Custom roles (the built-in ones have no place in the tree). */
  roles: OrgRecord[];
  repos: OrgRecord[];
  subscriptions: OrgRecord[];
  identityProviders: OrgRecord[];
}

/** What a snapshot lists, and where: every collection the example organization declares. */
const SNAPSHOT_COLLECTIONS: ReadonlyArray<[keyof OrgSnapshot, string]> = [
  ["groups", "iam"],
  ["identities", "iam"],
  ["roleBindings", "iam"],
  ["roles", "iam"],
  ["repos", "registry"],
  ["subscriptions", "events"],
  ["identityProviders", "iam"],
];

export async function call<T = any>(api: Api, method: string, path: string, body?: unknown): Promise<T> {
  const send = () =>
    fetch(`${api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${api.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // A kept-alive connection the server closed while idle resets the next request on it: a read
  // is safe to send once more, a write is not.
  const response = await send().catch((error: unknown) => {
    if (method === "GET") return send();
    throw error;
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** Every record of a collection under `rootUid`, following nextPageToken. */
export async function listAll(api: Api, domain: string, collection: string, rootUid: string): Promise<OrgRecord[]> {
  const records: OrgRecord[] = [];
  let pageToken = "";
  do {
    const query = new URLSearchParams({ "uidp.descendants_of": rootUid, page_size: "200", order_by: "name" });
    if (pageToken) query.set("page_token", pageToken);
    const page = await call(api, "GET", `/${domain}/v2beta1/${collection}?${query.toString()}`);
    records.push(...(page[collection] ?? []));
    pageToken = page.nextPageToken ?? "";
  } while (pageToken);
  return records;
}

/** Every collection of the snapshot below the root, sorted by uid: equal snapshots = same organization. */
export async function snapshot(api: Api, rootUid: string): Promise<OrgSnapshot> {
  const byUid = (a: OrgRecord, b: OrgRecord) => a.uid.localeCompare(b.uid);
  const lists = await Promise.all(
    SNAPSHOT_COLLECTIONS.map(async ([collection, domain]) =>
      (await listAll(api, domain, collection, rootUid)).sort(byUid),
    ),
  );
  const org = Object.fromEntries(
    SNAPSHOT_COLLECTIONS.map(([collection], n) => [collection, lists[n]]),
  ) as unknown as OrgSnapshot;
  org.roles = await placeRoles(api, org.roles, org.groups);
  return org;
}

/**
 * A role's uid is one segment and does not say where it was defined: the group whose
 * `uidp.children_of` lists it does. Each custom role gains `definedOn`, that group's uid.
 */
async function placeRoles(api: Api, roles: OrgRecord[], groups: OrgRecord[]): Promise<OrgRecord[]> {
  if (roles.length === 0) return roles;
  const definedOn = new Map<string, string>();
  await Promise.all(
    groups.map(async (group) => {
      const query = new URLSearchParams({ "uidp.children_of": group.uid, page_size: "200" });
      const page = await call(api, "GET", `/iam/v2beta1/roles?${query.toString()}`);
      for (const role of (page.roles ?? []) as OrgRecord[]) definedOn.set(role.uid, group.uid);
    }),
  );
  return roles.map((role) => (definedOn.has(role.uid) ? { ...role, definedOn: definedOn.get(role.uid) } : role));
}

/**
 * The organization as an indented tree: groups with their identities and role bindings, e.g.
 *
 *   engineering — Engineering department
 *   ├─ platform — Platform engineering
 *   │  ├─ identity github-deploy  (https://token.actions.githubusercontent.com · repo:acme/app:ref:refs/heads/main)
 *   │  └─ binding  github-deploy is viewer
 */
export function renderTree(org: OrgSnapshot, rootUid: string, rootLabel = "organization"): string[] {
  const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
  const lines = [`${rootLabel} (${rootUid})`];
  const identityName = new Map(org.identities.map((i) => [i.uid, i.name ?? i.uid]));
  const walk = (groupUid: string, indent: string) => {
    const children: { label: string; uid?: string }[] = [];
    const byName = (a: OrgRecord, b: OrgRecord) => String(a.name).localeCompare(String(b.name));
    for (const g of org.groups.filter((g) => parentOf(g.uid) === groupUid).sort(byName)) {
      children.push({ label: `${g.name}${g.description ? ` — ${g.description}` : ""}`, uid: g.uid });
    }
    for (const i of org.identities.filter((i) => parentOf(i.uid) === groupUid)) {
      const claim = (i.claimMatch ?? {}) as { issuer?: string; subject?: string };
      children.push({ label: `identity ${i.name}  (${claim.issuer ?? "?"} · ${claim.subject ?? "?"})` });
    }
    for (const b of org.roleBindings.filter((b) => parentOf(b.uid) === groupUid)) {
      const identity =
        (b.identity as OrgRecord | undefined)?.name ?? identityName.get(String(b.identityUid)) ?? String(b.identityUid);
      const role = (b.role as OrgRecord | undefined)?.name ?? String(b.roleUid);
      children.push({ label: `binding  ${identity} is ${role}` });
    }
    for (const r of org.roles.filter((r) => r.definedOn === groupUid).sort(byName)) {
      const capabilities = Array.isArray(r.capabilities) ? r.capabilities.length : 0;
      children.push({ label: `role     ${r.name}  (custom, ${capabilities} capabilities)` });
    }
    for (const r of org.repos.filter((r) => parentOf(r.uid) === groupUid).sort(byName)) {
      children.push({ label: `repo     ${r.name}${r.description ? ` — ${r.description}` : ""}` });
    }
    for (const p of org.identityProviders.filter((p) => parentOf(p.uid) === groupUid).sort(byName)) {
      const issuer = (p.oidc as { issuer?: string } | undefined)?.issuer ?? "?";
      children.push({ label: `sign-in  ${p.name}  (OIDC ${issuer})` });
    }
    for (const s of org.subscriptions.filter((s) => parentOf(s.uid) === groupUid)) {
      children.push({ label: `events   → ${String(s.sink)}` });
    }
    children.forEach((child, n) => {
      const last = n === children.length - 1;
      lines.push(`${indent}${last ? "└─ " : "├─ "}${child.label}`);
      if (child.uid) walk(child.uid, indent + (last ? "   " : "│  "));
    });
  };
  walk(rootUid, "");
  return lines;
}
