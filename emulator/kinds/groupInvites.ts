/**
 * Invites to a group with a role. The code that redeems an invite is answered once, by the
 * create; reads show its key id only. An invite expires `ttl` after its creation.
 */
import groupInviteDescription from "../../resources/iam/groupInvite/description";
import { randomBytes } from "node:crypto";
import { invalidField } from "../errors";
import { getString } from "../params";
import { Rec, Store } from "../store";
import { iso, ResourceDef, servedAs } from "./kind";
import { usableRole } from "./roleBindings";

const TTL = /^(\d{1,9})(\.\d{1,9})?s$/;

function render(rec: Rec, store: Store): Record<string, unknown> {
  const role = store.of("roles").get(String(rec.data.roleUid));
  return {
    uid: rec.uid,
    roleUid: rec.data.roleUid,
    ...(role
      ? {
          role: {
            uid: role.uid,
            name: role.name,
            description: role.data.description ?? "",
            capabilities: role.data.capabilities ?? [],
          },
        }
      : {}),
    ttl: rec.data.ttl,
    email: rec.data.email ?? "",
    singleUse: rec.data.singleUse ?? false,
    keyId: rec.data.keyId,
    expirationTime: iso(Number(rec.data.expirationTime)),
    createTime: iso(rec.createTime),
  };
}

export const groupInvites: ResourceDef = {
  ...servedAs(groupInviteDescription),
  uniqueNames: false,
  operations: ["list", "get", "create", "delete"],
  check: (values) =>
    typeof values.ttl === "string" && !TTL.test(values.ttl)
      ? [{ field: "ttl", description: 'must be a duration in seconds, e.g. "86400s"' }]
      : [],
  beforeWrite: (ctx, groupUid, values) => {
    if (typeof values.roleUid === "string" && !usableRole(ctx, values.roleUid, groupUid))
      throw invalidField("roleUid", `role "${values.roleUid}" does not exist or is not usable on "${groupUid}"`);
  },
  initialData: (_ctx, values, now) => {
    const seconds = Number(TTL.exec(String(values.ttl))?.[1] ?? 0);
    return {
      keyId: randomBytes(8).toString("hex"),
      code: randomBytes(18).toString("base64url"),
      expirationTime: now + seconds * 1000,
    };
  },
  render,
  renderCreated: (rec, store) => ({ ...render(rec, store), code: rec.data.code }),
  filters: (params) => {
    const keyId = getString(params, "key_id");
    return { predicates: keyId ? [(r: Rec) => r.data.keyId === keyId] : [], signature: [keyId] };
  },
};
