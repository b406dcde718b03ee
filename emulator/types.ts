/** Public shapes of the emulator: what tests, the CLI and benchmarks code against. */

export interface FaultRule {
  /** Regular expression source, tested against the request path (no query). */
  path: string;
  /** Methods the rule applies to; all when omitted. */
  methods?: string[];
  latencyMs?: number;
  /** 0..1: answer 503 with Status code 14. */
  unavailableRate?: number;
  /** 0..1: answer 429 with Status code 8 and a Retry-After header. */
  exhaustedRate?: number;
  retryAfterSeconds?: number;
  /** 0..1: destroy the socket without answering (nothing applied). */
  dropRate?: number;
  /** 0..1: apply the request, then destroy the socket (unknown outcome for the client). */
  dropAfterCommitRate?: number;
}

export interface BulkOptions {
  groups?: number;
  repos?: number;
  tagsPerRepo?: number;
  advisories?: number;
}

export interface EmulatorOptions {
  /** Default 0 = any free port; the host is always 127.0.0.1. */
  port?: number;
  /** Default true: sample repos, tags and advisories besides the root org, roles and dev owner. */
  seed?: boolean;
  /** Extra generated records under the root, created in-process (fast). */
  bulk?: BulkOptions;
  /** Keep data across restarts; written atomically. */
  statePath?: string;
  /** Lifetime of tokens from /sts/exchange; default 3600. */
  tokenTtlSeconds?: number;
  /** Creating under a group younger than this answers PERMISSION_DENIED (access propagation). */
  propagationDelayMs?: number;
  faults?: FaultRule[];
  /**
   * Every answer comes this many milliseconds late, as from a service far away (default 0).
   * Real time: for benchmarks and trials, not for tests that must not wait on the wall clock.
   */
  latencyMs?: number;
  /**
   * Requests a second each bearer token may send (a bucket of one second's worth, refilled
   * continuously); past it, RESOURCE_EXHAUSTED (429) with the whole seconds to wait in
   * Retry-After. Measured on the emulator's clock (advanceClock moves it). Default: no limit.
   */
  rateLimit?: number;
  /** Seed of the fault rolls: the same seed and requests give the same faults (default: random). */
  faultSeed?: number;
  quiet?: boolean;
  /** The API's documents (default: the copy beside the compiled emulator, from api/api-v2-schema.json). */
  apiDocumentPath?: string;
  /**
   * The stricter reading of the vendor's documents for updates: every field the documents mark
   * required (a group's or identity's name) in every PATCH body, and the whole body valid even
   * where `updateMask` leaves it out. Default false: the spec's update rules, where a PATCH
   * carries only what it changes (without a mask the fields present, with one the listed fields).
   */
  requirePatchFields?: boolean;
  /**
   * Answer advisory events as documented (author, reviewState, one kind of event): the default.
   * false answers the seed scope's older short form `{type, time}`. Filters accept both spellings.
   */
  documentedAdvisoryEvents?: boolean;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** HTTP status answered; 0 when the connection was dropped. */
  status: number;
  time: string;
}

export interface MintClaims {
  subject: string;
  audience?: string;
  expiresInSeconds?: number;
  issuer?: string;
}

export interface RunningEmulator {
  url: string;
  token: string;
  rootUid: string;
  issuer: string;
  mintOidcToken(claims: MintClaims): Promise<string>;
  trustIssuer(issuer: string, jwks: { keys: object[] }): void;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  setFaults(rules: FaultRule[]): void;
  advanceClock(ms: number): void;
  close(): Promise<void>;
}
