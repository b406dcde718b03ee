/**
 * The ScimToken provider: SCIM provisioning of an identity provider. This module's exports ARE
 * the provider object, so when the package is installed the closure serializer stores
 * `__provider` as a bare `require("platform-pulumi/dist/resources/iam/scimTokenProvider.js")`:
 * a shim that loads the package's current code at call time, and captures no config, token or path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 *
 * A SCIM token is not a record of a collection but verbs on an identity provider
 * (`identityProviders/{uid}:generateScimToken`, `:regenerateScimToken`, `:revokeScimToken`,
 * `:setScimEnabled`) and the `scim` state its GET answers, so this provider is written by hand
 * (provider/kind.ts describes collections) from the core's pieces: the shared client, one call
 * deadline per operation, the error types, secret redaction and settings read at call time.
 * It exports no `kind`: nothing here is listed, exported or adopted. One token per identity
 * provider: the resource id is the identity provider's uid.
 */
import type { dynamic } from "@pulumi/pulumi";
import { ApiRequest, sharedClient } from "../../provider/client";
import { callBudgetMs, withCallDeadline } from "../../provider/deadline";
import { Code, UnknownOutcomeError, isApiError, isNotFound } from "../../provider/errors";
import { lazily } from "../../provider/lazyZod";
import { registerSecret } from "../../provider/messages";
import { PartlyWrittenError, ResourceError, failed, messageOf } from "../../provider/resourceError";
import { configureFromPulumi } from "../../provider/settings";
import { uidIssue } from "../../provider/uid";
import { Props, UNKNOWN, isObject, sameValue, shown, stripUndefined } from "../../provider/values";
import { formatPath } from "../../provider/zodIssues";

const COLLECTION = "identityProviders";
const ROTATING = "CREDENTIAL_STATE_ROTATING";
/** The credential states in which a token works: the resource exists only while its token does. */
const USABLE = new Set(["CREDENTIAL_STATE_LIVE", ROTATING]);
/** RFC 3339 (the API's date-time): a date, "T", a time with optional fraction, then Z or an offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** The program's inputs; the state holds them beside the outputs. */
const INPUTS = ["identityProviderUid", "expireTime", "neverExpires", "enabled"] as const;

const inputSchema = lazily((z) =>
  z
    .strictObject({
      identityProviderUid: z.string({ error: uidMessage }).superRefine((value, ctx) => {
        const issue = uidIssue(value, "path");
        if (issue) ctx.addIssue({ code: "custom", message: `must be an identity provider's uid: it ${issue}` });
      }),
      expireTime: z
        .string({ error: expecting("an RFC 3339 timestamp such as 2027-01-01T00:00:00Z") })
        .refine((value) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)), {
          message: "must be an RFC 3339 timestamp such as 2027-01-01T00:00:00Z",
        })
        .optional(),
      neverExpires: z.boolean({ error: expecting("true or false") }).optional(),
      enabled: z.boolean({ error: expecting("true or false") }).optional(),
    })
    .superRefine((inputs, ctx) => {
      if (inputs.neverExpires === true && inputs.expireTime !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["neverExpires"],
          message: "must not be true when expireTime is set: a token either expires at expireTime or never",
        });
    }),
);
function expecting(expected: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${expected}`);
}
const uidMessage = expecting("an identity provider's uid (a string)");

/** The identity provider's SCIM state, as its GET answers it. */
interface ScimState {
  credentialState?: string;
  enabled?: boolean;
  endpointUrl?: string;
  etag?: string;
  tokenExpireTime?: string;
}

const label = (uid: unknown) => `SCIM token of identity provider "${shown(uid)}"`;

/** Two RFC 3339 times name the same instant (the service may spell one two ways), or both are absent. */
const sameInstant = (a: unknown, b: unknown) =>
  a === b || (typeof a === "string" && typeof b === "string" && Date.parse(a) === Date.parse(b));

/**
 * Whether the identity provider's credential is no longer the token the state holds: it was
 * regenerated outside this program. The service never answers the token, so this is read from
 * what changes with it. The etag changes with every change of the SCIM state (generate,
 * regenerate, revoke, the provisioning switch); of those, only the switch leaves the credential
 * alone, and it changes `enabled`. So a new etag is a regeneration when the token's expiry
 * moved, when an overlap began (ROTATING), or when `enabled` did not change. The one change
 * this cannot tell from a regeneration is the switch turned off and on again between two
 * reads: it counts as one, and the next `up` regenerates (the program gets the new token, where
 * keeping a dead one would break provisioning unseen). A regeneration with the same expiry at
 * the same time as the switch reads as the switch alone. A state without an etag (written
 * before this was recorded) gets the current one and no verdict.
 */
function tokenSuperseded(scim: ScimState, props: Props): boolean {
  if (props.tokenSuperseded === true) return true;
  if (typeof props.etag !== "string" || typeof scim.etag !== "string" || scim.etag === props.etag) return false;
  if (!sameInstant(scim.tokenExpireTime, props.tokenExpireTime)) return true;
  if (scim.credentialState === ROTATING && props.credentialState !== ROTATING) return true;
  return (scim.enabled === true) === (props.enabled === true);
}
const wantsEnabled = (props: Props) => props.enabled !== false;
const expiryOf = (props: Props) => ({ expireTime: props.expireTime, neverExpires: props.neverExpires === true });

/**
 * The token is the secret: registered so that no message shows it, wherever it is obtained
 * (an answer) or read (the state). The sentinel of a value not known yet is no secret.
 */
function registerToken(...all: Array<Props | undefined>): void {
  for (const props of all) {
    const token = props?.token;
    if (typeof token === "string" && token !== UNKNOWN) registerSecret(token);
  }
}

function verb<T>(uid: string, name: string, body: Props): Promise<T> {
  const request: ApiRequest = { method: "POST", domain: "iam", path: `${COLLECTION}/${uid}`, verb: name, body };
  return sharedClient().request<T>(request);
}

/** The identity provider's SCIM state ({} when it answers none). */
async function scimStateOf(uid: string): Promise<ScimState> {
  const record = await sharedClient().request<unknown>({ method: "GET", domain: "iam", path: `${COLLECTION}/${uid}` });
  return isObject(record) && isObject(record.scim) ? record.scim : {};
}

/** A generate's or regenerate's body: when the token expires, or that it never does (else the service's default). */
function expiryBody(props: Props): Props {
  if (props.neverExpires === true) return { neverExpires: true };
  return typeof props.expireTime === "string" ? { expireTime: props.expireTime } : {};
}

type IssuedToken = {
  token?: string;
  etag?: string;
  endpointUrl?: string;
  expireTime?: string;
};

/** What the state keeps of an issued token (never `undefined`: the host cannot carry it). */
function issuedOutputs(inputs: Props, issued: IssuedToken): Props {
  if (typeof issued.token !== "string" || issued.token === "")
    throw new ResourceError("the API answered a SCIM token request without a token");
  registerToken(issued);
  return stripUndefined({
    ...pickInputs(inputs),
    token: issued.token,
    endpointUrl: issued.endpointUrl,
    tokenExpireTime: issued.expireTime,
    credentialState: "CREDENTIAL_STATE_LIVE",
    etag: issued.etag,
  });
}

function pickInputs(props: Props): Props {
  const out: Props = {};
  for (const key of INPUTS) if (props[key] !== undefined) out[key] = props[key];
  return out;
}

const tokenExists = (error: unknown) =>
  isApiError(error, Code.FAILED_PRECONDITION) && error.preconditionViolations.some((v) => v.type === "TOKEN_EXISTS");

/** setScimEnabled with the etag it needs; answers the new etag. */
async function setEnabled(uid: string, enabled: boolean, etag: string | undefined): Promise<string | undefined> {
  const answer = await verb<{ enabled?: boolean; etag?: string }>(uid, "setScimEnabled", { enabled, etag: etag ?? "" });
  return answer?.etag;
}

async function create(inputs: Props): Promise<dynamic.CreateResult> {
  const uid = String(inputs.identityProviderUid);
  const what = label(uid);
  let issued: IssuedToken;
  try {
    issued = await verb<IssuedToken>(uid, "generateScimToken", expiryBody(inputs));
  } catch (error) {
    if (tokenExists(error))
      throw new ResourceError(
        `creating ${what} failed: the identity provider already has a live SCIM token. A token is answered only ` +
          "when it is generated, so an existing one cannot be taken over (there is no adoption for SCIM tokens): " +
          "revoke it (in the console, or POST …:revokeScimToken), then run `pulumi up` again; one ScimToken per identity provider",
        { cause: error },
      );
    if (error instanceof UnknownOutcomeError)
      throw new ResourceError(
        `creating ${what} failed: the answer was lost (${messageOf(error)}), so a token may have been issued that ` +
          "nobody holds. If the identity provider's SCIM credential is live, revoke it, then run `pulumi up` again",
        { cause: error },
      );
    throw failed("creating", what, error);
  }
  const outs: Props = { ...issuedOutputs(inputs, issued), enabled: false };
  let etag: string | undefined;
  try {
    etag = await setEnabled(uid, wantsEnabled(inputs), issued.etag);
  } catch (error) {
    // The token exists and the state must hold it (it is never answered again): kept as an
    // initialization failure, provisioning off; the next `pulumi up` sets it.
    throw new PartlyWrittenError(
      `creating ${what}: the token was issued but setting SCIM provisioning ${wantsEnabled(inputs) ? "on" : "off"} ` +
        `failed: ${messageOf(error)}. The token is kept in the state; run \`pulumi up\` again to set it`,
      uid,
      { ...outs, __provider: inputs.__provider },
      error,
    );
  }
  // The switch's etag, or none (the next read records one): the generate's is already stale.
  return { id: uid, outs: stripUndefined({ ...outs, enabled: wantsEnabled(inputs), etag }) };
}

async function read(id: string, props: Props = {}): Promise<dynamic.ReadResult> {
  registerToken(props);
  let scim: ScimState;
  try {
    scim = await scimStateOf(id);
  } catch (error) {
    if (isNotFound(error)) return { id: "", props: {} };
    throw failed("reading", label(id), error);
  }
  // Revoked, expired or never issued: this resource's token no longer works, so it is gone.
  if (!scim.credentialState || !USABLE.has(scim.credentialState)) return { id: "", props: {} };
  const superseded = tokenSuperseded(scim, props);
  // Drift the program sees as a change of its own (so `preview --expect-no-changes` fails and
  // `up` regenerates): provisioning switched, and the token regenerated elsewhere.
  const drift = { enabled: scim.enabled === true, ...(superseded ? { tokenSuperseded: true } : {}) };
  const kept = { ...pickInputs(props), identityProviderUid: id };
  const outs = stripUndefined({
    ...kept,
    // The service never answers the token again: the state keeps it, unless it is dead.
    token: superseded ? undefined : props.token,
    endpointUrl: scim.endpointUrl,
    tokenExpireTime: scim.tokenExpireTime,
    credentialState: scim.credentialState,
    etag: scim.etag,
    ...drift,
  });
  return { id, props: outs, inputs: stripUndefined({ ...kept, ...drift }) };
}

async function update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
  registerToken(olds);
  const what = label(id);
  // A new expiry, or a token regenerated elsewhere (read found it dead): a new token.
  const regenerate = !sameValue(expiryOf(olds), expiryOf(news)) || olds.tokenSuperseded === true;
  const enable = wantsEnabled(news);
  const toggle = olds.enabled !== enable;
  // The state's outputs with the program's inputs as they are now (one it no longer sets is gone).
  const { __provider: _p, ...state } = olds;
  for (const key of INPUTS) delete state[key];
  let outs: Props = { ...state, ...pickInputs(news), enabled: olds.enabled === true };
  if (!regenerate && !toggle) return { outs };
  let etag: string | undefined;
  try {
    etag = (await scimStateOf(id)).etag;
    if (regenerate) {
      const issued = await verb<IssuedToken>(id, "regenerateScimToken", { etag: etag ?? "", ...expiryBody(news) });
      // A token that never expires has no tokenExpireTime: the old one's goes; the new token is live.
      const { tokenExpireTime: _old, tokenSuperseded: _dead, ...rest } = outs;
      outs = { ...rest, ...issuedOutputs(news, issued), enabled: outs.enabled };
      etag = issued.etag;
    }
  } catch (error) {
    const hint = isNotFound(error)
      ? "The identity provider no longer exists: run `pulumi refresh` to drop the token from the state"
      : undefined;
    throw failed(regenerate ? "regenerating" : "updating", what, error, hint);
  }
  if (toggle) {
    try {
      const answered = await setEnabled(id, enable, etag);
      outs.enabled = enable;
      // The switch's etag, or none (the next read records one): the one before is stale.
      outs = stripUndefined({ ...outs, etag: answered });
    } catch (error) {
      if (!regenerate) throw failed("updating", what, error);
      // The new token exists and must be kept: an initialization failure keeps it in the state.
      throw new PartlyWrittenError(
        `updating ${what}: the token was regenerated but setting SCIM provisioning ${enable ? "on" : "off"} failed: ` +
          `${messageOf(error)}. The new token is kept in the state; run \`pulumi up\` again to set it`,
        id,
        { ...outs, __provider: news.__provider },
        error,
      );
    }
  }
  return { outs };
}

async function remove(id: string, props: Props): Promise<void> {
  registerToken(props);
  try {
    await verb(id, "revokeScimToken", {});
  } catch (error) {
    // The identity provider is gone, and its token with it.
    if (isNotFound(error)) return;
    throw failed("revoking", label(id), error);
  }
}

function check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
  registerToken(olds);
  const { __provider: provider, ...given } = stripUndefined(news ?? {});
  const failures: dynamic.CheckFailure[] = [];
  const parsed = inputSchema().safeParse(given);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        failures.push({ property: key, reason: `unknown property; ScimToken takes ${INPUTS.join(", ")}` });
      continue;
    }
    // A value still unknown (preview) is checked when known.
    const key = issue.path[0];
    if (key !== undefined && given[String(key)] === UNKNOWN) continue;
    failures.push({ property: formatPath(issue.path), reason: issue.message.replace(/^Invalid input: /, "") });
  }
  return Promise.resolve({
    inputs: { ...given, ...(provider === undefined ? {} : { __provider: provider }) },
    failures,
  });
}

function diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
  registerToken(olds);
  const replaces = sameValue(olds.identityProviderUid, news.identityProviderUid) ? [] : ["identityProviderUid"];
  const changes =
    replaces.length > 0 ||
    !sameValue(expiryOf(olds), expiryOf(news)) ||
    olds.enabled !== wantsEnabled(news) ||
    olds.tokenSuperseded === true;
  // One token per identity provider: the old one is revoked before another provider's is generated.
  return Promise.resolve({ changes, replaces, deleteBeforeReplace: replaces.length > 0 });
}

/** Each operation that calls the API is one call with one overall deadline across its retries. */
const scoped = <T>(what: string, fn: () => Promise<T>): Promise<T> => withCallDeadline(what, callBudgetMs(), fn);

const provider: Required<
  Pick<dynamic.ResourceProvider, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete">
> = {
  async configure(req) {
    try {
      configureFromPulumi(req.config);
    } catch {
      // Configure was never sent: settings come from the environment.
    }
  },
  check,
  diff,
  create: (inputs: Props) => scoped(`creating ${label(inputs.identityProviderUid)}`, () => create(inputs)),
  read: (id, props?: Props) => scoped(`reading ${label(id)}`, () => read(id, props)),
  update: (id, olds: Props, news: Props) => scoped(`updating ${label(id)}`, () => update(id, olds, news)),
  delete: (id, props: Props) => scoped(`revoking ${label(id)}`, () => remove(id, props)),
};

export = provider;
