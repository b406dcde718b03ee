/**
 * The mapping Pulumi's Terraform converter asks installed plugins for, on the wire: the plugin's
 * gRPC service served in this process (tests/support/inProcessPlugin.ts) and called with the SDK's
 * own gRPC client, as the CLI's mapper calls it (GetMappings with the key `terraform`, then
 * GetMapping for each provider listed, or a blind one with no provider).
 *
 * The answer is what the converter decodes a bridged provider's into (the bridge's
 * MarshallableProviderInfo): each Terraform resource type of the vendor's provider to a type token
 * the plugin's own schema has, each attribute's Terraform schema (the bridge's value-type numbers),
 * and the Pulumi names of the attributes, which are properties of that resource in the schema.
 */
import type * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { MANAGED_TYPES, UNMANAGED_TYPES } from "../resources/terraform/vendorProvider";
import { InProcessPlugin, serveInProcess } from "../tests/support/inProcessPlugin";
import { getMapping, getMappings, unary } from "../tests/support/pluginClient";

interface Mapping {
  name: string;
  version: string;
  provider: { resources: Record<string, Record<string, { type: number; element?: unknown }>> };
  resources: Record<
    string,
    { tok: string; fields: Record<string, { name: string; fields?: object; secret?: boolean }> }
  >;
  dataSources: Record<string, { tok: string }>;
}

interface Schema {
  resources: Record<string, { properties?: Record<string, unknown>; inputProperties?: Record<string, unknown> }>;
  functions: Record<string, unknown>;
}

describe("native/terraformMapping.ts: the converter's mapping request, on the plugin's gRPC server", () => {
  let plugin: InProcessPlugin;
  let client: providerGrpc.ResourceProviderClient;

  beforeAll(async () => {
    plugin = await serveInProcess("0.1.0");
    client = plugin.client;
  });
  afterAll(() => plugin?.close());

  const mappings = (key: string) => getMappings(client, key);
  const mapping = async (key: string, provider: string) => {
    const { provider: answered, data } = await getMapping(client, key, provider);
    return { provider: answered, data: data ? (JSON.parse(data) as Mapping) : undefined };
  };

  test("GetMappings lists the vendor's provider for the key terraform (and the old tf), nothing for others", async () => {
    expect(await mappings("terraform")).toEqual(["chainguard"]);
    expect(await mappings("tf")).toEqual(["chainguard"]);
    expect(await mappings("crossplane")).toEqual([]);
  });

  test("GetMapping answers the same mapping for chainguard and for a blind request; none for another provider or key", async () => {
    const named = await mapping("terraform", "chainguard");
    expect(named.provider).toBe("chainguard");
    expect(await mapping("terraform", "")).toEqual(named);
    expect(await mapping("terraform", "aws")).toEqual({ provider: "", data: undefined });
    expect(await mapping("pulumi", "chainguard")).toEqual({ provider: "", data: undefined });
  });

  test("each managed Terraform type maps to a token of the plugin's schema, its attributes to that resource's properties", async () => {
    const { data } = await mapping("terraform", "chainguard");
    const request = new providerProto.GetSchemaRequest();
    const answer = await unary<providerProto.GetSchemaRequest, providerProto.GetSchemaResponse>(
      client.getSchema.bind(client),
      request,
    );
    const schema = JSON.parse(answer.getSchema()) as Schema;
    const map = data!;
    expect(map.name).toBe("chainguard");
    expect(map.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.fromEntries(Object.entries(map.resources).map(([type, info]) => [type, info.tok]))).toEqual({
      chainguard_group: "platform:iam:Group",
      chainguard_identity: "platform:iam:Identity",
      chainguard_identity_provider: "platform:iam:IdentityProvider",
      chainguard_role: "platform:iam:Role",
      chainguard_rolebinding: "platform:iam:RoleBinding",
      chainguard_group_invite: "platform:iam:GroupInvite",
      chainguard_account_associations: "platform:iam:AccountAssociation",
      chainguard_subscription: "platform:events:Subscription",
      chainguard_image_repo: "platform:registry:Repo",
      chainguard_image_tag: "platform:registry:Tag",
    });
    for (const type of Object.keys(UNMANAGED_TYPES)) expect(map.resources[type]).toBeUndefined();
    for (const [type, info] of Object.entries(map.resources)) {
      const resource = schema.resources[info.tok];
      expect([type, resource !== undefined]).toEqual([type, true]);
      const properties = new Set([
        ...Object.keys(resource.properties ?? {}),
        ...Object.keys(resource.inputProperties ?? {}),
      ]);
      for (const [attribute, field] of Object.entries(info.fields))
        expect([type, attribute, properties.has(field.name)]).toEqual([type, attribute, true]);
      // The Terraform schema of every attribute, each a value type the bridge knows (bool 1 … set 7).
      expect(Object.keys(map.provider.resources[type]).sort()).toEqual(
        Object.keys(MANAGED_TYPES[type].attributes).sort(),
      );
      for (const attribute of Object.values(map.provider.resources[type]))
        expect([1, 2, 4, 5, 6, 7]).toContain(attribute.type);
    }
    expect(map.resources.chainguard_group.fields.parent_id).toEqual({ name: "parentUid" });
    expect(map.resources.chainguard_identity.fields.static).toMatchObject({
      name: "staticKeys",
      fields: { issuer_keys: { name: "issuerKeys" }, expiration: { name: "expirationTime" } },
    });
    expect(map.resources.chainguard_identity_provider.fields.oidc.fields).toMatchObject({
      client_secret: { name: "clientSecret", secret: true },
    });
    expect(map.provider.resources.chainguard_identity.aws_identity).toMatchObject({
      type: 6,
      element: { resource: {} },
    });
    expect(map.provider.resources.chainguard_role.capabilities).toEqual({
      type: 7,
      required: true,
      element: { schema: { type: 4 } },
    });
    for (const [type, info] of Object.entries(map.dataSources))
      expect([type, schema.functions[info.tok] !== undefined]).toEqual([type, true]);
    expect(map.dataSources.chainguard_role).toEqual({ tok: "platform:iam:getRole", fields: {} });
  });
});
