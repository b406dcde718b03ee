/**
 * The one set-up the provider figures share: an emulator holding `resources` groups, the
 * package staged under node_modules with the floor providers beside it, the real `__provider`
 * texts of Group / Identity / RoleBinding and of the floors, and the REAL dynamic-provider host
 * configured for the emulator. Every provider figure comes from this one emulator and host.
 */
import { Harness, startHarness } from "../tools/host/resourceHarness";
import { FloorName, installFloors, serializeFloors } from "./floors";
import { findHostPid } from "./hostCpu";

export interface WorldOptions {
  /** Groups the emulator holds for refresh and preview (direct children of the root). */
  resources: number;
  /** Repos the emulator holds for the look-up counts. */
  repos: number;
}

export interface World {
  h: Harness;
  floors: Record<FloorName, string>;
  /** The uids of the bulk groups, in creation order. */
  groupUids: string[];
  /** The host's pid, to read its CPU time (undefined where /proc is missing). */
  hostPid: number | undefined;
  close(): Promise<void>;
}

export async function startWorld(options: WorldOptions): Promise<World> {
  const h = await startHarness({ seed: true, bulk: { groups: options.resources, repos: options.repos } });
  try {
    installFloors(h.staged);
    const floors = await serializeFloors(h.staged, (name) => h.mocked[name]?.inputs);
    const groupUids = await bulkGroupUids(h, options.resources);
    return { h, floors, groupUids, hostPid: findHostPid(h.staged.dir), close: () => h.close() };
  } catch (error) {
    await h.close();
    throw error;
  }
}

/** Bulk groups are named bulk-group-<i> under the root; list them once, page by page. */
async function bulkGroupUids(h: Harness, expected: number): Promise<string[]> {
  const uids: string[] = [];
  let token = "";
  do {
    const query = new URLSearchParams({ page_size: "200", "uidp.children_of": h.emu.rootUid });
    if (token) query.set("page_token", token);
    const page = await h.api<{ groups: { uid: string; name: string }[]; nextPageToken?: string }>(
      "GET",
      `/iam/v2beta1/groups?${query.toString()}`,
    );
    if (page.status !== 200) throw new Error(`listing the bulk groups failed with HTTP ${page.status}`);
    for (const group of page.body.groups) if (group.name.startsWith("bulk-group-")) uids.push(group.uid);
    token = page.body.nextPageToken ?? "";
  } while (token);
  if (uids.length !== expected) throw new Error(`expected ${expected} bulk groups, found ${uids.length}`);
  h.emu.clearRequests();
  return uids;
}
