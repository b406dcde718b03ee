/**
 * The identity provider look-ups against the emulator (which seeds one, "corp-sso", whose client
 * secret it keeps): by uid, by name, the list, and the Output forms under setMocks with Inputs.
 */
import { withClient } from "../../../core/program/lookup";
import * as pulumi from "@pulumi/pulumi";
import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../../tests/support/lookupClient";
import {
  getIdentityProvider,
  getIdentityProviderOutput,
  getIdentityProviders,
  getIdentityProvidersOutput,
} from "./lookups";

const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;

beforeAll(async () => {
  emu = await startProviderEmulator();
  client = fetchClient(emu);
  process.env.PLATFORM_API_URL = emu.url;
  process.env.PLATFORM_TOKEN = emu.token;
  void pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "lookups",
    "test",
    false,
  );
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

test("getIdentityProviders lists them in one request; no record carries a client secret", async () => {
  const { identityProviders } = await getIdentityProviders({ childrenOf: emu.rootUid }, withClient(client));
  expect(identityProviders.map((p) => p.name)).toEqual(["corp-sso"]);
  expect(identityProviders[0]).toMatchObject({
    description: "Company single sign-on",
    oidc: { issuer: "https://sso.example.com", clientId: "platform-emulator" },
    scim: { enabled: false },
  });
  expect(JSON.stringify(identityProviders)).not.toContain("emulator-secret");
  expect(listRequests(emu, "/iam/v2beta1/identityProviders")).toHaveLength(1);
});

test("getIdentityProvider by name within a group, and by uid", async () => {
  const byName = await getIdentityProvider({ name: "corp-sso", childrenOf: emu.rootUid }, withClient(client));
  const byUid = await getIdentityProvider({ uid: byName.uid }, withClient(client));
  expect(byUid).toEqual(byName);
  await expect(getIdentityProvider({ name: "no-such", childrenOf: emu.rootUid }, withClient(client))).rejects.toThrow(
    /no-such/,
  );
});

test("the Output forms take Inputs and resolve with the process's settings", async () => {
  const root = pulumi.output(emu.rootUid);
  const listed = await resolve(getIdentityProvidersOutput({ descendantsOf: root }));
  expect(listed.identityProviders.map((p) => p.name)).toEqual(["corp-sso"]);
  const one = await resolve(getIdentityProviderOutput({ name: pulumi.output("corp-sso"), childrenOf: root }));
  expect(one.uid).toBe(listed.identityProviders[0].uid);
});
