/**
 * The ScimToken provider: SCIM provisioning of an identity provider. This module's exports ARE
 * the provider object, so when the package is installed the closure serializer stores
 * `__provider` as a bare `require("platform-pulumi/dist/resources/iam/scimTokenProvider.js")`:
 * a shim that loads the package's current code at call time, and captures no config, token or path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 *
 * A SCIM token is not a record of a collection but part of an identity provider's: its `scim`
 * state, which the identity provider's GET answers, changed by custom methods
 * (`identityProviders/{uid}:generateScimToken`, `:regenerateScimToken`, `:revokeScimToken`,
 * `:setScimEnabled`), the kind's verbs. One token per identity provider: the resource id is the
 * identity provider's uid. It is never listed, adopted or exported.
 */
import { Code, UnknownOutcomeError, isApiError } from "../../provider/errors";
import type { ResourceKind, Verb, VerbStep } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { ResourceError, messageOf } from "../../provider/resourceError";
import { Props, isObject, pick, sameValue, shown } from "../../provider/values";

const ROTATING = "CREDENTIAL_STATE_ROTATING";
/** The credential states in which a token works: the resource exists only while its token does. */
const USABLE = new Set(["CREDENTIAL_STATE_LIVE", ROTATING]);
/** RFC 3339 (the API's date-time): a date, "T", a time with optional fraction, then Z or an offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const TIMESTAMP = "an RFC 3339 timestamp such as 2027-01-01T00:00:00Z";

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
function tokenSuperseded(current: Props, state: Props): boolean {
  if (state.tokenSuperseded === true) return true;
  if (typeof state.etag !== "string" || typeof current.etag !== "string" || current.etag === state.etag) return false;
  if (!sameInstant(current.tokenExpireTime, state.tokenExpireTime)) return true;
  if (current.credentialState === ROTATING && state.credentialState !== ROTATING) return true;
  return (current.enabled === true) === (state.enabled === true);
}

const expiryOf = (props: Props) => ({ expireTime: props.expireTime, neverExpires: props.neverExpires === true });

/** A generate's or regenerate's body: when the token expires, or that it never does (else the service's default). */
function expiryBody(inputs: Props): Props {
  if (inputs.neverExpires === true) return { neverExpires: true };
  return typeof inputs.expireTime === "string" ? { expireTime: inputs.expireTime } : {};
}

/** What the outputs keep of an issued token: the live one. */
function issued(answer: unknown): Props {
  const token = isObject(answer) ? answer : {};
  if (typeof token.token !== "string" || token.token === "")
    throw new ResourceError("the API answered a SCIM token request without a token");
  return {
    token: token.token,
    endpointUrl: token.endpointUrl,
    tokenExpireTime: token.expireTime,
    credentialState: "CREDENTIAL_STATE_LIVE",
    etag: token.etag,
  };
}

const generate: Verb = {
  name: "generateScimToken",
  done: "the token was issued",
  body: (step) => expiryBody(step.inputs),
  // Provisioning stays off until the switch (the next step) says otherwise.
  outputs: (step, answer) => ({ ...step.outputs, ...issued(answer), enabled: false }),
  explainFailure: (error) => {
    if (
      isApiError(error, Code.FAILED_PRECONDITION) &&
      error.preconditionViolations.some((v) => v.type === "TOKEN_EXISTS")
    )
      return (
        "the identity provider already has a live SCIM token. A token is answered only when it is generated, so an " +
        "existing one cannot be taken over (there is no adoption for SCIM tokens): revoke it (in the console, or " +
        "POST …:revokeScimToken), then run `pulumi up` again; one ScimToken per identity provider"
      );
    if (error instanceof UnknownOutcomeError)
      return (
        `the answer was lost (${messageOf(error)}), so a token may have been issued that nobody holds. ` +
        "If the identity provider's SCIM credential is live, revoke it, then run `pulumi up` again"
      );
    return undefined;
  },
};

/** A new expiry, or a token regenerated elsewhere (read found it dead): a new token. */
const regenerate: Verb = {
  name: "regenerateScimToken",
  doing: "regenerating",
  done: "the token was regenerated",
  runs: (step) => !sameValue(expiryOf(step.state), expiryOf(step.inputs)) || step.state.tokenSuperseded === true,
  body: async (step) => ({ etag: (await step.current()).etag ?? "", ...expiryBody(step.inputs) }),
  outputs: (step, answer) => {
    // A token that never expires has no tokenExpireTime: the old one's goes; the new token is live.
    const { tokenExpireTime: _old, tokenSuperseded: _dead, ...rest } = step.outputs;
    return { ...rest, ...issued(answer) };
  },
};

/**
 * setScimEnabled with the etag it needs: the one the step before answered, else the current
 * one. Its own answer's etag, or none (the next read records one): the one before is stale.
 */
const setEnabled: Verb = {
  name: "setScimEnabled",
  runs: (step) => step.state.enabled !== step.inputs.enabled,
  body: async (step) => ({
    enabled: step.inputs.enabled,
    etag: (step.ran.length > 0 ? step.outputs.etag : (await step.current()).etag) ?? "",
  }),
  outputs: (step: VerbStep, answer) => ({
    ...step.outputs,
    enabled: step.inputs.enabled,
    etag: isObject(answer) ? answer.etag : undefined,
  }),
};

const revoke: Verb = { name: "revokeScimToken", doing: "revoking", body: () => ({}) };

const scimToken: ResourceKind = {
  typeName: "ScimToken",
  noun: "SCIM token",
  domain: "iam",
  collection: "identityProviders",
  message: "iam.IdentityProvider",
  partOf: "identity provider",
  inputs: (f) =>
    f.z.strictObject({
      identityProviderUid: f.uid("an identity provider"),
      expireTime: f.z
        .string(f.expecting(TIMESTAMP))
        .refine((value) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)), `must be ${TIMESTAMP}`)
        .optional(),
      neverExpires: f.z.boolean(f.expecting("true or false")).optional(),
      enabled: f.z.boolean(f.expecting("true or false")).optional(),
    }),
  rules: (inputs) =>
    inputs.neverExpires === true && inputs.expireTime !== undefined
      ? [
          {
            property: "neverExpires",
            reason: "must not be true when expireTime is set: a token either expires at expireTime or never",
          },
        ]
      : [],
  parentField: "identityProviderUid",
  parentCollection: "identityProviders",
  // The identity provider answers whether provisioning is on; the expiry asked for, never.
  writable: ["enabled"],
  localInputs: ["expireTime", "neverExpires"],
  inputDefaults: { enabled: true },
  replaceOn: ["identityProviderUid"],
  // Answered only when the token is generated or regenerated: the state keeps it.
  secrets: ["token"],
  onlyAtCreate: ["token"],
  driftOutputs: ["tokenSuperseded"],
  toOutputs: (record) => {
    const scim = isObject(record.scim) ? record.scim : {};
    return {
      identityProviderUid: record.uid,
      ...pick(scim, ["endpointUrl", "tokenExpireTime", "credentialState", "etag"]),
      enabled: scim.enabled === true,
    };
  },
  // Revoked, expired or never issued: this resource's token no longer works, so it is gone. The
  // token regenerated elsewhere is drift the program sees as a change (`preview
  // --expect-no-changes` fails, `up` regenerates), its dead token no longer kept.
  readDrift: (current, state) => {
    if (typeof current.credentialState !== "string" || !USABLE.has(current.credentialState)) return undefined;
    return tokenSuperseded(current, state) ? { token: undefined, tokenSuperseded: true } : {};
  },
  label: (props) => `SCIM token of identity provider "${shown(props.uid ?? props.identityProviderUid)}"`,
  alreadyExistsHint: "one ScimToken per identity provider: revoke the live token first",
  verbs: { create: [generate, setEnabled], update: [regenerate, setEnabled], delete: [revoke] },
};

export = defineProvider(scimToken);
