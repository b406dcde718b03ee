/**
 * Libraries: the artifact catalog (searchable by ecosystem and text), and the v2beta1 request
 * group verbs (submit, remove and restore items, refresh coverage) with the views derived
 * from request groups: their items, and the libraries and versions a group has requested.
 */
import { capability, OTHER_CAPABILITIES } from "../capabilities";
import { Context } from "../context";
import { OperationHandler, OperationRequest } from "../dispatch";
import { failedPrecondition, invalidField, notFound, permissionDenied } from "../errors";
import { inSubtree } from "../ids";
import { iso } from "../kinds/kind";
import { answerOf } from "../kinds/answer";
import { availabilityOf, availabilitySummary, itemsOf, RequestItem, renderItem } from "../kinds/requestGroups";
import { getBool, getList, getString, getTime } from "../params";
import { Rec } from "../store";
import { recordFor, requireCapability } from "./access";
import { CATALOG, CatalogArtifact } from "./librariesCatalog";
import { OrderFields, ordered, pageOf, versionKey } from "./paging";

/** The catalog is the same for every organization: any grant of the capability reads it. */
function requireAnywhere(ctx: Context, cap: string): void {
  if (ctx.principal.scope(cap).length === 0) throw permissionDenied(`the caller lacks ${cap}`);
}

const CATALOG_TIME = iso(Date.UTC(2024, 0, 1));

function renderArtifact(a: CatalogArtifact): Record<string, unknown> {
  return {
    uid: a.uid,
    name: a.name,
    description: a.description,
    ecosystem: a.ecosystem,
    latestVersion: a.versions[a.versions.length - 1],
    versionCount: a.versions.length,
    createTime: CATALOG_TIME,
    updateTime: CATALOG_TIME,
  };
}

/** What artifacts are ordered by (default: name ascending, as documented). */
const ARTIFACT_ORDER: OrderFields<CatalogArtifact> = {
  name: (a) => a.name,
  uid: (a) => a.uid,
  ecosystem: (a) => a.ecosystem,
  latest_version: (a) => versionKey(a.versions[a.versions.length - 1]),
  version_count: (a) => a.versions.length,
};

function inEcosystems(params: Map<string, string[]>): CatalogArtifact[] {
  const ecosystems = getList(params, "ecosystems") ?? [];
  return CATALOG.filter((a) => ecosystems.includes(a.ecosystem));
}

const listArtifacts: OperationHandler = (ctx, { params }) => {
  requireAnywhere(ctx, OTHER_CAPABILITIES.librariesList);
  const query = getString(params, "query")?.toLowerCase();
  const remediated = getBool(params, "remediated");
  const found = inEcosystems(params).filter(
    (a) =>
      (!query || a.name.toLowerCase().includes(query) || a.description.toLowerCase().includes(query)) &&
      (remediated === undefined || a.remediated === remediated),
  );
  return pageOf(ordered(found, params, ARTIFACT_ORDER, "name asc").map(renderArtifact), params, "artifacts");
};

type ArtifactVersion = Record<"uid" | "name" | "version" | "sizeBytes" | "createTime" | "updateTime", string>;

/** What versions are ordered by: the fields of the documented ArtifactVersion (default: version, newest first). */
const VERSION_ORDER: OrderFields<ArtifactVersion> = {
  version: (v) => versionKey(v.version),
  uid: (v) => v.uid,
  name: (v) => v.name,
  size_bytes: (v) => Number(v.sizeBytes),
  create_time: (v) => v.createTime,
  update_time: (v) => v.updateTime,
};

const listArtifactVersions: OperationHandler = (ctx, { pathParams, params }) => {
  requireAnywhere(ctx, OTHER_CAPABILITIES.librariesList);
  const artifact = CATALOG.find((a) => a.uid === pathParams.artifactId);
  if (!artifact) throw notFound("artifact", pathParams.artifactId);
  const versions = artifact.versions.map((version) => ({
    uid: `${artifact.uid}@${version}`,
    name: artifact.name,
    version,
    description: artifact.description,
    sizeBytes: String(100_000 + version.length * 7_919),
    createTime: CATALOG_TIME,
    updateTime: CATALOG_TIME,
  }));
  return pageOf(ordered(versions, params, VERSION_ORDER, "version desc"), params, "artifactVersions");
};

const getArtifactCount: OperationHandler = (ctx, { params }) => {
  requireAnywhere(ctx, OTHER_CAPABILITIES.librariesList);
  const ecosystems = getList(params, "ecosystems") ?? [];
  return {
    counts: ecosystems.map((ecosystem) => ({
      ecosystem,
      totalCount: String(CATALOG.filter((a) => a.ecosystem === ecosystem).length),
    })),
  };
};

function requestGroup(ctx: Context, request: OperationRequest, cap: string): Rec {
  return recordFor(ctx, "requestGroups", request.pathParams.uid, cap);
}

function touch(ctx: Context, rec: Rec, mutate: (r: Rec) => void): void {
  ctx.store.of("requestGroups").update(rec, (r) => {
    mutate(r);
    r.updateTime = Math.max(ctx.clock.now(), r.updateTime);
  });
  ctx.store.changed();
}

const refreshCoverage: OperationHandler = (ctx, request) => {
  const rec = requestGroup(ctx, request, OTHER_CAPABILITIES.requestGroupsRefresh);
  touch(ctx, rec, (r) => (r.data.itemsUpdateTime = ctx.clock.now()));
  return answerOf(ctx, ctx.kinds.requestGroups, rec);
};

function setRemoved(ctx: Context, request: OperationRequest, removed: boolean) {
  const rec = requestGroup(ctx, request, OTHER_CAPABILITIES.requestGroupsItems);
  const uids = (request.body.itemUids as string[]) ?? [];
  const items = itemsOf(rec);
  uids.forEach((uid, i) => {
    if (!items.some((item) => item.uid === uid))
      throw invalidField(`itemUids[${i}]`, `"${uid}" is not an item of request group "${rec.uid}"`);
  });
  const now = ctx.clock.now();
  let count = 0;
  const next: RequestItem[] = items.map((item) => {
    if (!uids.includes(item.uid) || item.removed === removed) return item;
    count++;
    return { ...item, removed, updateTime: now };
  });
  if (count > 0)
    touch(ctx, rec, (r) => {
      r.data.items = next;
      r.data.itemsUpdateTime = now;
    });
  return { rec, count };
}

const removeItems: OperationHandler = (ctx, request) => {
  const { rec, count } = setRemoved(ctx, request, true);
  return { uid: rec.uid, parentId: rec.parentUid, removedCount: count, availabilitySummary: availabilitySummary(rec) };
};

const restoreItems: OperationHandler = (ctx, request) => {
  const { rec, count } = setRemoved(ctx, request, false);
  return { uid: rec.uid, parentId: rec.parentUid, restoredCount: count, availabilitySummary: availabilitySummary(rec) };
};

const submit: OperationHandler = (ctx, request) => {
  const rec = requestGroup(ctx, request, OTHER_CAPABILITIES.requestGroupsSubmit);
  if (rec.data.submitTime !== undefined)
    throw failedPrecondition([{ type: "ALREADY_SUBMITTED", description: `request group "${rec.uid}" was submitted` }]);
  touch(ctx, rec, (r) => {
    r.data.submitTime = ctx.clock.now();
    r.data.submittedBy = ctx.principal.identityUid;
    r.data.status = "REQUEST_GROUP_STATUS_PROCESSING";
    if (request.body.forCveRemediation === true) r.data.forCveRemediation = true;
  });
  return answerOf(ctx, ctx.kinds.requestGroups, rec);
};

/** What a group's items are ordered by (default: as the group lists them, its input's order). */
const ITEM_ORDER: OrderFields<RequestItem> = {
  uid: (item) => item.uid,
  package_name: (item) => item.packageName,
  version: (item) => versionKey(item.version),
  requirement: (item) => item.requirement,
  update_time: (item) => item.updateTime,
};

const listItems: OperationHandler = (ctx, request) => {
  const rec = requestGroup(ctx, request, capability(ctx, "requestGroups", "LIST"));
  const { params } = request;
  const ecosystem = String(rec.data.ecosystem);
  const availability = getString(params, "availability");
  const since = getTime(params, "min_update_time");
  const includeRemoved = getBool(params, "include_removed") === true;
  const items = itemsOf(rec).filter(
    (item) =>
      (includeRemoved || !item.removed) &&
      (since === undefined || item.updateTime >= since) &&
      (!availability ||
        availability === "AVAILABILITY_UNSPECIFIED" ||
        availabilityOf(ecosystem, item) === availability),
  );
  return pageOf(
    ordered(items, params, ITEM_ORDER).map((item) => renderItem(ecosystem, item)),
    params,
    "requestGroupItems",
  );
};

/** Request groups under the parent group the caller may read, with their live items. */
function requestedUnder(ctx: Context, params: Map<string, string[]>) {
  const parent = getString(params, "parent")!;
  requireCapability(ctx, capability(ctx, "requestGroups", "LIST"), parent);
  return ctx.store
    .of("requestGroups")
    .indexes.uid.items.filter((r) => inSubtree(r.uid, parent))
    .flatMap((rec) =>
      itemsOf(rec)
        .filter((item) => !item.removed)
        .map((item) => ({ rec, item, ecosystem: String(rec.data.ecosystem) })),
    );
}

const groupRef = (rec: Rec) => ({ uid: rec.uid, name: rec.name });

interface RequestedLibrary {
  name: string;
  ecosystem: string;
  requestedVersionCount: number;
  builtVersionCount: number;
  contributingGroupCount: number;
  lastRequestTime: string;
}

/** What requested libraries are ordered by (default: the latest request first, as documented). */
const LIBRARY_ORDER: OrderFields<RequestedLibrary> = {
  name: (l) => l.name,
  ecosystem: (l) => l.ecosystem,
  last_request_time: (l) => l.lastRequestTime,
  requested_version_count: (l) => l.requestedVersionCount,
  built_version_count: (l) => l.builtVersionCount,
  contributing_group_count: (l) => l.contributingGroupCount,
};

const listRequestedLibraries: OperationHandler = (ctx, { params }) => {
  const ecosystem = getString(params, "ecosystem");
  const query = getString(params, "query")?.toLowerCase();
  const byName = new Map<string, Array<{ rec: Rec; item: RequestItem; ecosystem: string }>>();
  for (const entry of requestedUnder(ctx, params)) {
    if (ecosystem && ecosystem !== "ECOSYSTEM_UNSPECIFIED" && entry.ecosystem !== ecosystem) continue;
    if (query && !entry.item.packageName.toLowerCase().includes(query)) continue;
    const key = `${entry.ecosystem} ${entry.item.packageName}`;
    byName.set(key, [...(byName.get(key) ?? []), entry]);
  }
  const libraries = [...byName.values()].map((entries) => {
    const versions = new Set(entries.map((e) => e.item.version));
    const built = entries.filter((e) => availabilityOf(e.ecosystem, e.item) === "AVAILABILITY_BUILT");
    const groups = [...new Map(entries.map((e) => [e.rec.uid, e.rec])).values()];
    return {
      name: entries[0].item.packageName,
      ecosystem: entries[0].ecosystem,
      requestedVersionCount: versions.size,
      builtVersionCount: new Set(built.map((e) => e.item.version)).size,
      contributingGroups: groups.map(groupRef),
      contributingGroupCount: groups.length,
      lastRequestTime: iso(Math.max(...entries.map((e) => e.item.updateTime))),
      sources: ["REQUEST_SOURCE_API"],
      buildStatus:
        built.length === entries.length
          ? "REQUESTED_LIBRARY_BUILD_STATUS_COMPLETE"
          : "REQUESTED_LIBRARY_BUILD_STATUS_REVIEWING",
      cveStatus: "REQUESTED_LIBRARY_CVE_STATUS_REVIEWING",
      remediatedCveCount: 0,
    };
  });
  const buildStatus = getString(params, "build_status");
  const filtered = libraries.filter(
    (l) => !buildStatus || buildStatus.endsWith("_UNSPECIFIED") || l.buildStatus === buildStatus,
  );
  // By name first, so that libraries the asked order ties keep one order.
  filtered.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return pageOf(ordered(filtered, params, LIBRARY_ORDER, "last_request_time desc"), params, "requestedLibraries");
};

const listRequestedLibraryVersions: OperationHandler = (ctx, { params }) => {
  const name = getString(params, "name")!;
  const ecosystem = getString(params, "ecosystem")!;
  const availability = getString(params, "availability");
  const byVersion = new Map<string, Array<{ rec: Rec; item: RequestItem; ecosystem: string }>>();
  for (const entry of requestedUnder(ctx, params)) {
    if (entry.ecosystem !== ecosystem || entry.item.packageName !== name) continue;
    byVersion.set(entry.item.version, [...(byVersion.get(entry.item.version) ?? []), entry]);
  }
  const artifact = CATALOG.find((a) => a.ecosystem === ecosystem && a.name === name);
  const versions = [...byVersion]
    .map(([version, entries]) => ({
      version,
      availability: availabilityOf(ecosystem, entries[0].item),
      contributingGroups: [...new Map(entries.map((e) => [e.rec.uid, groupRef(e.rec)])).values()],
      requestedBy: [...new Set(entries.map((e) => String(e.rec.data.createdBy)))],
      sources: ["REQUEST_SOURCE_API"],
      lastRequestTime: iso(Math.max(...entries.map((e) => e.item.updateTime))),
      ...(artifact ? { upgrade: { latestVersion: artifact.versions[artifact.versions.length - 1] } } : {}),
    }))
    .filter((v) => !availability || availability === "AVAILABILITY_UNSPECIFIED" || v.availability === availability)
    .sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  return pageOf(versions, params, "requestedLibraryVersions");
};

export const LIBRARIES_OPERATIONS: Record<string, OperationHandler> = {
  ArtifactsService_ListArtifacts: listArtifacts,
  ArtifactsService_ListArtifactVersions: listArtifactVersions,
  ArtifactsService_GetArtifactCount: getArtifactCount,
  RequestGroupsService_RefreshCoverage: refreshCoverage,
  RequestGroupsService_RemoveItems: removeItems,
  RequestGroupsService_RestoreItems: restoreItems,
  RequestGroupsService_SubmitRequestGroup: submit,
  RequestGroupsService_ListRequestGroupItems: listItems,
  RequestGroupsService_ListRequestedLibraries: listRequestedLibraries,
  RequestGroupsService_ListRequestedLibraryVersions: listRequestedLibraryVersions,
};
