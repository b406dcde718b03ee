import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const viewer = platform.iam.getRoleOutput({ name: "viewer" });
const sso = new platform.iam.IdentityProvider("sso", {
  parentUid: config.require("rootUid"),
  name: "program-sso",
  defaultRole: viewer.uid,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "platform",
    clientSecret: config.requireSecret("ssoClientSecret"),
  },
});
export const ssoUid = sso.uid;
export const ssoOidc = sso.oidc;
// Found by name, so nothing in its arguments waits for the create: dependsOn holds the look-up until then.
export const ssoFoundUid = platform.iam.getIdentityProviderOutput(
  { name: "program-sso", childrenOf: config.require("rootUid") },
  { dependsOn: [sso] },
).uid;
