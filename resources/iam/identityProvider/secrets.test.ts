/**
 * What a program registers for an IdentityProvider, as the engine receives it (a resource
 * monitor under `pulumi.runtime.setMocks` that keeps the raw request): the `oidc` input, which
 * holds the client secret, arrives as a secret, and `oidc` is among the additional secret
 * outputs, so the engine keeps it encrypted in the state's inputs and outputs. (The client secret
 * cannot be a secret on its own: the engine marks secrets on top-level properties only.)
 */
import * as pulumi from "@pulumi/pulumi";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import * as settings from "@pulumi/pulumi/runtime/settings";
import { IdentityProvider } from "./resource";

/** The signature the SDK's wire format marks a secret value with. */
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const CLIENT_SECRET = "client-secret-0123456789abcdef";

interface Registration {
  name: string;
  object: Record<string, any>;
  additionalSecretOutputs: string[];
}

const registrations: Registration[] = [];

beforeAll(async () => {
  const mocks = {
    newResource: async (args: pulumi.runtime.MockResourceArgs) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: async () => ({}),
  };
  class RecordingMonitor extends MockMonitor {
    async registerResource(req: any, callback: (err: any, res?: any) => void) {
      registrations.push({
        name: req.getName(),
        object: req.getObject()?.toJavaScript() ?? {},
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      });
      return super.registerResource(req, callback);
    }
  }
  await pulumi.runtime.setMocks(mocks, "platform-pulumi", "test", false);
  settings.setMockOptions(new RecordingMonitor(mocks), "platform-pulumi", "test", false);
  // What the language host does first: ask the monitor what it supports (secrets, for one).
  // (internal to the SDK, so untyped)
  await (settings as unknown as { awaitFeatureSupport(): Promise<void> }).awaitFeatureSupport();
});

const registered = async (resource: pulumi.CustomResource, name: string) => {
  await new Promise((resolve) => resource.urn.apply(resolve));
  const found = registrations.find((r) => r.name === name);
  if (!found) throw new Error(`${name} was not registered`);
  return found;
};

test("the oidc input is a secret and an additional secret output; the other inputs are plain", async () => {
  const idp = new IdentityProvider("sso", {
    parentUid: "acme",
    name: "sso",
    defaultRole: "viewer",
    oidc: { issuer: "https://login.example.com", clientId: "platform", clientSecret: CLIENT_SECRET },
  });
  const registration = await registered(idp, "sso");
  expect(registration.additionalSecretOutputs).toEqual(["oidc"]);
  expect(registration.object.oidc).toEqual({
    [SIG_KEY]: SECRET_SIG,
    value: { issuer: "https://login.example.com", clientId: "platform", clientSecret: CLIENT_SECRET },
  });
  expect(registration.object.name).toBe("sso");
  // Only inside the secret: nowhere else in what the engine stores.
  const { oidc: _oidc, ...rest } = registration.object;
  expect(JSON.stringify(rest)).not.toContain(CLIENT_SECRET);
  // Its output is a secret to the program too.
  expect(await pulumi.isSecret(idp.oidc)).toBe(true);
});

test("a secret given by the program stays one; options the program passes are kept", async () => {
  const idp = new IdentityProvider(
    "sso-config",
    {
      parentUid: "acme",
      name: "sso-config",
      defaultRole: "viewer",
      oidc: pulumi.secret({ issuer: "https://login.example.com", clientId: "c", clientSecret: CLIENT_SECRET }),
    },
    { additionalSecretOutputs: ["description"] },
  );
  const registration = await registered(idp, "sso-config");
  expect(registration.additionalSecretOutputs).toEqual(["description", "oidc"]);
  expect(registration.object.oidc[SIG_KEY]).toBe(SECRET_SIG);
});

test("without oidc nothing is wrapped; get registers no inputs", async () => {
  const idp = new IdentityProvider("sso-bare", { parentUid: "acme", name: "bare", defaultRole: "viewer" });
  const registration = await registered(idp, "sso-bare");
  expect(registration.object).not.toHaveProperty("oidc");
  expect(IdentityProvider.isInstance(idp)).toBe(true);
});
