/**
 * The organization below one group, read as `export` reads it (exporter/read.ts): every kind the
 * export reads, one paginated List each scoped with `uidp.descendants_of`, and each request counted.
 * Built-in roles and the records of groups above are never below the group, so never read.
 */
import type { ApiClient, ApiRequest } from "../core/transport/client";
import type { ApiRecord } from "../core/model/kind";
import { isNotFound } from "../core/common/errors";
import { uidIssue } from "../core/common/uid";
import { exportedKinds, servedKinds } from "../exporter/kinds";
import { KindRecords, readSubtree } from "../exporter/read";

export interface Organization {
  under: string;
  /** The name of the group read below. */
  name: string;
  /** That group's own record: a source may manage it too. */
  group: ApiRecord;
  kinds: KindRecords[];
  /** The requests sent to read it. */
  requests: number;
}

/** A client that counts what it is asked to send. */
export function countingClient(client: ApiClient): ApiClient & { count(): number } {
  let sent = 0;
  return {
    request<T>(req: ApiRequest): Promise<T> {
      sent++;
      return client.request<T>(req);
    },
    count: () => sent,
  };
}

export async function readOrganization(client: ApiClient, under: string): Promise<Organization> {
  const issue = uidIssue(under, "path");
  if (issue) throw new Error(`--under must be a group's uid: it ${issue}`);
  const { served, unserved } = servedKinds(exportedKinds());
  // A kind left unread would leave its records out unseen: nothing could be called clean.
  if (unserved.length > 0) throw new Error(`${unserved.join("; ")}: drift reads every kind, so it cannot run here`);
  const counting = countingClient(client);
  const readGroup = async (): Promise<ApiRecord> => {
    try {
      return await counting.request<ApiRecord>({ method: "GET", domain: "iam", path: `groups/${under}` });
    } catch (error) {
      if (isNotFound(error)) throw new Error(`there is no group ${under} (--under names the group to read below)`);
      throw error;
    }
  };
  // The group and every kind's List at once: the time is the longest kind's pages, not their sum.
  const [group, tree] = await Promise.all([readGroup(), readSubtree(counting, under, served, undefined, true)]);
  return {
    under,
    name: typeof group?.name === "string" ? group.name : under,
    group: { ...group, uid: under },
    kinds: tree.kinds,
    requests: counting.count(),
  };
}
