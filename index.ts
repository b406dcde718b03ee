/**
 * platform-pulumi: the Platform API v2 in Pulumi programs. The namespaces mirror the
 * API's own domains, so a path in the API reference maps to one namespace here.
 */
export * as iam from "./resources/iam";
export * as registry from "./resources/registry";
export * as vulnerabilities from "./resources/vulnerabilities";
