import { loadApiDocument } from "../apiDocument";
import { messagesOf } from "../messages";
import { makeRec, Store } from "../store";
import { answerOf } from "./answer";
import { kindsOf } from "./registry";

const doc = loadApiDocument();
const kinds = kindsOf(doc);
const ctx = { store: new Store(Object.values(kinds)), messages: messagesOf(doc), kinds };
const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const record = (uid: string, parentUid: string, name: string, data: Record<string, unknown>) =>
  makeRec({ uid, parentUid, name, createTime: T0, updateTime: T0 + 1000, data });

describe("a record's answer is its documented message", () => {
  test("uid, name and times come from the record; undocumented stored data is never answered", () => {
    const role = record("r1", "g1", "reader", { description: "reads", builtin: true, internalNote: "x" });
    expect(answerOf(ctx, kinds.roles, role)).toEqual({
      uid: "r1",
      name: "reader",
      description: "reads",
      capabilities: [],
      createTime: "2025-01-02T03:04:05.000Z",
      updateTime: "2025-01-02T03:04:06.000Z",
    });
  });

  test("nested messages keep their documented members only; write-only members are kept out", () => {
    const provider = record("g1/p1", "g1", "sso", {
      defaultRole: "r1",
      oidc: { issuer: "https://login.example.com", clientId: "platform", clientSecret: "s3cret" },
      scim: { enabled: true, credentialState: "CREDENTIAL_STATE_LIVE", tokenHash: "abc", etag: "e1" },
    });
    const answer = answerOf(ctx, kinds.identityProviders, provider);
    expect(answer.oidc).toEqual({ issuer: "https://login.example.com", clientId: "platform" });
    expect(answer.scim).toEqual({ enabled: true, credentialState: "CREDENTIAL_STATE_LIVE", etag: "e1" });
    expect(JSON.stringify(answer)).not.toMatch(/s3cret|tokenHash/);
  });

  test("a field only the create shows is answered to the create alone; kept times answer in RFC 3339", () => {
    const invite = record("g1/i1", "g1", "", {
      roleUid: "r1",
      ttl: "60s",
      keyId: "k1",
      code: "c0de",
      expirationTime: T0,
    });
    expect(answerOf(ctx, kinds.groupInvites, invite).code).toBeUndefined();
    const created = answerOf(ctx, kinds.groupInvites, invite, { created: true });
    expect(created).toMatchObject({ code: "c0de", expirationTime: "2025-01-02T03:04:05.000Z", singleUse: false });
  });

  test("a kind's defaults are copied: changing one answer leaves the next alone", () => {
    const group = record("g9", "g9", "org", {});
    (answerOf(ctx, kinds.groups, group).resourceLimits as Record<string, unknown>).extra = 1;
    expect(answerOf(ctx, kinds.groups, group)).toMatchObject({
      description: "",
      verified: false,
      resourceLimits: {},
    });
  });
});
