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
}

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

/** Groups, identities and role bindings below the root, sorted by uid: equal snapshots = same organization. */
export async function snapshot(api: Api, rootUid: string): Promise<OrgSnapshot> {
  const byUid = (a: OrgRecord, b: OrgRecord) => a.uid.localeCompare(b.uid);
  const [groups, identities, roleBindings] = await Promise.all(
    ["groups", "identities", "roleBindings"].map((c) => listAll(api, "iam", c, rootUid)),
  );
  return { groups: groups.sort(byUid), identities: identities.sort(byUid), roleBindings: roleBindings.sort(byUid) };
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
    children.forEach((child, n) => {
      const last = n === children.length - 1;
      lines.push(`${indent}${last ? "└─ " : "├─ "}${child.label}`);
      if (child.uid) walk(child.uid, indent + (last ? "   " : "│  "));
    });
  };
  walk(rootUid, "");
  return lines;
}
