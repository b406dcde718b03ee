/**
 * What every operation of one kind's provider shares, worked out once when the provider is
 * defined: the completed description, the client, the requests on its records, how a record
 * becomes outputs, how its secrets are registered, and which records its resources hold.
 */
import { Claims, claims } from "./claims";
import type { ApiClient } from "../transport/client";
import type { Kind } from "../model/kind";
import { SecretRegistrar, secretRegistrar } from "../model/kindSecrets";
import { RecordOutputs, recordOutputs } from "./recordOutputs";
import { RecordRequests, recordRequests } from "./recordRequests";

export interface KindContext {
  readonly kind: Kind;
  readonly client: () => ApiClient;
  readonly requests: RecordRequests;
  readonly records: RecordOutputs;
  readonly registerSecrets: SecretRegistrar;
  /** The records the resources of this process hold, and twins' creates one at a time (core/runtime/claims.ts). */
  readonly claims: Claims;
}

export function kindContext(kind: Kind, client: () => ApiClient): KindContext {
  const registerSecrets = secretRegistrar(kind);
  return {
    kind,
    client,
    requests: recordRequests(kind, client),
    records: recordOutputs(kind, registerSecrets),
    registerSecrets,
    claims: claims(kind),
  };
}
