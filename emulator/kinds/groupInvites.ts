/**
 * Invites to a group with a role. The code that redeems an invite is answered once, by the
 * create; reads show its key id only. An invite expires `ttl` after its creation.
 */
import { randomBytes } from "node:crypto";
import { invalidField } from "../errors";
import { getString } from "../params";
import { Rec } from "../store";
import { answerOf } from "./answer";
import { crud, KindRules } from "./kind";
import { usableRole } from "./roleBindings";

const TTL = /^(\d{1,9})(\.\d{1,9})?s$/;

export const groupInvites: KindRules = {
  // The enum has no update capability for invites: an invite is created or deleted, never changed.
  capabilities: { ...crud("CAP_IAM_GROUP_INVITES"), UPDATE: "CAP_IAM_GROUP_INVITES_CREATE" },
  onlyAtCreate: ["code"],
  references: { roleUid: "roles" },
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
  defaults: { email: "", singleUse: false },
  derived: (rec, ctx) => {
    const role = ctx.store.of("roles").get(String(rec.data.roleUid));
    return { role: role && answerOf(ctx, ctx.kinds.roles, role, { as: "iam.GroupInviteRole" }) };
  },
  filters: (params) => {
    const keyId = getString(params, "key_id");
    return { predicates: keyId ? [(r: Rec) => r.data.keyId === keyId] : [], signature: [keyId] };
  },
};
