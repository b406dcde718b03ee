/**
 * The plugin's answer to the mapping request Pulumi's converters make of every installed resource
 * plugin (`pulumi convert --from terraform`, `pulumi import --from terraform`): GetMappings with the
 * key `terraform` lists the Terraform providers a plugin maps (here `chainguard`, the vendor's), and
 * GetMapping for that key and provider answers the mapping, as bridged providers do: their
 * provider info as JSON (the terraform bridge's MarshallableProviderInfo), which the Terraform
 * converter reads for each Terraform type's Pulumi token, its attributes' Terraform schema and
 * their Pulumi names.
 *
 * Made from the same table the migration reads states with (resources/terraform/vendorProvider.ts):
 * each resource type of the vendor's provider this package manages to its `platform:` token, each
 * data source to the look-up it is like. Types no kind manages have no entry. The key `tf` (the
 * prototype converter's) is answered as bridged providers answer it; a request for another provider
 * has no mapping.
 */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import {
  Attributes,
  DATA_SOURCES,
  MANAGED_TYPES,
  TerraformAttribute,
  TerraformValue,
  VENDOR_PROVIDER_NAME,
  VENDOR_PROVIDER_VERSION,
} from "../resources/terraform/vendorProvider";
import { PACKAGE_NAME } from "./kinds";

/** The conversion keys a mapping is asked for: `terraform`, and the prototype converter's `tf`. */
const KEYS = ["terraform", "tf"];

/** The Terraform plugin SDK's value types, by the numbers the bridge's JSON uses (its shim.ValueType). */
const VALUE_TYPES = { bool: 1, int: 2, string: 4, list: 5, map: 6, set: 7 } as const;

interface MarshalledSchema {
  type: number;
  optional?: boolean;
  required?: boolean;
  computed?: boolean;
  forceNew?: boolean;
  element?: { schema?: MarshalledSchema; resource?: Record<string, MarshalledSchema> };
  deprecated?: string;
}

interface MarshalledInfo {
  name?: string;
  fields?: Record<string, MarshalledInfo>;
  element?: MarshalledInfo;
  secret?: boolean;
}

function schemaOf(value: TerraformValue): Pick<MarshalledSchema, "type" | "element"> {
  if (typeof value === "string") return { type: VALUE_TYPES[value] };
  if ("list" in value) return { type: VALUE_TYPES.list, element: { schema: schemaOf(value.list) } };
  if ("set" in value) return { type: VALUE_TYPES.set, element: { schema: schemaOf(value.set) } };
  if ("map" in value) return { type: VALUE_TYPES.map, element: { schema: schemaOf(value.map) } };
  // A single nested block is a map whose element is a resource; a list of blocks a list of them.
  if ("block" in value) return { type: VALUE_TYPES.map, element: { resource: resourceSchema(value.block) } };
  return { type: VALUE_TYPES.list, element: { resource: resourceSchema(value.blocks) } };
}

function attributeSchema(attribute: TerraformAttribute): MarshalledSchema {
  return {
    ...schemaOf(attribute.value),
    ...(attribute.use === "required" ? { required: true } : {}),
    ...(attribute.use === "optional" || attribute.use === "optional+computed" ? { optional: true } : {}),
    ...(attribute.use === "computed" || attribute.use === "optional+computed" ? { computed: true } : {}),
    ...(attribute.forceNew ? { forceNew: true } : {}),
    ...(attribute.deprecated ? { deprecated: attribute.deprecated } : {}),
  };
}

function resourceSchema(attributes: Attributes): Record<string, MarshalledSchema> {
  return Object.fromEntries(Object.entries(attributes).map(([name, attribute]) => [name, attributeSchema(attribute)]));
}

/** The Pulumi name of each attribute the kind has, where the bridge's own (camelCase) would not be it. */
function fieldsOf(attributes: Attributes): Record<string, MarshalledInfo> {
  const fields: Record<string, MarshalledInfo> = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    // The bridge gives every resource its `id`; here it is the record's uid already.
    if (name === "id" || attribute.field === undefined || attribute.none !== undefined) continue;
    const info: MarshalledInfo = { name: attribute.field.split(".").pop()! };
    if (attribute.sensitive) info.secret = true;
    const value = attribute.value;
    if (typeof value === "object" && "block" in value) info.fields = fieldsOf(value.block);
    if (typeof value === "object" && "blocks" in value) info.element = { fields: fieldsOf(value.blocks) };
    fields[name] = info;
  }
  return fields;
}

/** The mapping's data: the vendor provider's types and data sources, their schema and this package's tokens. */
export function terraformMapping(version: string): Record<string, unknown> {
  const token = (tail: string) => `${PACKAGE_NAME}:${tail}`;
  const mappedSources = Object.entries(DATA_SOURCES).flatMap(([type, tail]) => (tail ? [[type, tail] as const] : []));
  return {
    name: VENDOR_PROVIDER_NAME,
    version,
    tfProviderVersion: VENDOR_PROVIDER_VERSION,
    provider: {
      resources: Object.fromEntries(
        Object.entries(MANAGED_TYPES).map(([type, managed]) => [type, resourceSchema(managed.attributes)]),
      ),
    },
    resources: Object.fromEntries(
      Object.entries(MANAGED_TYPES).map(([type, managed]) => [
        type,
        { tok: token(managed.kind), fields: fieldsOf(managed.attributes) },
      ]),
    ),
    dataSources: Object.fromEntries(mappedSources.map(([type, tail]) => [type, { tok: token(tail), fields: {} }])),
  };
}

type Handler = (call: { request: unknown }, callback: (...args: unknown[]) => void) => unknown;

/** The gRPC implementation with GetMapping and GetMappings answered (the SDK's server has neither). */
export function withTerraformMapping<T extends object>(implementation: T, version: string): T {
  const answered = Object.create(implementation) as Record<string, Handler>;
  const data = Buffer.from(JSON.stringify(terraformMapping(version)));
  answered.getMappings = (call, callback) => {
    const request = call.request as providerProto.GetMappingsRequest;
    const response = new providerProto.GetMappingsResponse();
    response.setProvidersList(KEYS.includes(request.getKey()) ? [VENDOR_PROVIDER_NAME] : []);
    callback(null, response);
  };
  answered.getMapping = (call, callback) => {
    const request = call.request as providerProto.GetMappingRequest;
    const response = new providerProto.GetMappingResponse();
    // An empty provider is an older engine's request (or the converter's blind one): ours is the only mapping.
    const provider = request.getProvider();
    if (KEYS.includes(request.getKey()) && (provider === "" || provider === VENDOR_PROVIDER_NAME)) {
      response.setProvider(VENDOR_PROVIDER_NAME);
      response.setData(data);
    }
    callback(null, response);
  };
  return answered as T;
}
