import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const groupUid = config.require("groupUid");
const viewer = platform.iam.getRoleOutput({ name: "viewer" });

const invite = new platform.iam.GroupInvite("invite", {
  groupUid,
  roleUid: viewer.uid,
  ttl: "86400s",
  singleUse: true,
});
const sso = new platform.iam.IdentityProvider("sso", {
  parentUid: groupUid,
  name: "sso",
  defaultRole: viewer.uid,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "platform",
    clientSecret: config.requireSecret("ssoClientSecret"),
  },
});
const scim = new platform.iam.ScimToken("scim", { identityProviderUid: sso.uid, neverExpires: true });

export const inviteCode = invite.code;
export const ssoOidc = sso.oidc;
export const scimToken = scim.token;
export const scimEndpoint = scim.endpointUrl;
