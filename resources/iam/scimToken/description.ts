/**
 * SCIM provisioning of an identity provider (a SCIM token): everything the package knows about
 * the kind, and the only place it is written. Its provider, class and docs pages come from here.
 *
 * A SCIM token is not a record of a collection but part of an identity provider's: its `scim`
 * state, which the identity provider's GET answers, changed by custom methods
 * (`identityProviders/{uid}:generateScimToken`, `:regenerateScimToken`, `:revokeScimToken`,
 * `:setScimEnabled`), the kind's verbs. One token per identity provider: the resource id is the
 * identity provider's uid. It is never listed, adopted or exported.
 */
import { Code, UnknownOutcomeError, isApiError } from "../../../core/common/errors";
import type { ResourceKind, Verb, VerbStep } from "../../../core/model/kind";
import { ResourceError, messageOf } from "../../../core/runtime/resourceError";
import { Props, isObject, pick, sameValue, shown } from "../../../core/common/values";

const ROTATING = "CREDENTIAL_STATE_ROTATING";
/** The credential states in which a token works: the resource exists only while its token does. */
const USABLE = new Set(["CREDENTIAL_STATE_LIVE", ROTATING]);
/** The members of the identity provider's documented SCIM state that the outputs carry. */
const SCIM_OUTPUTS = ["endpointUrl", "tokenExpireTime", "credentialState", "etag", "enabled"];

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
 * the same time as the switch reads as the switch alone. A state without an etag (an older
 * state's) gets the current one and no verdict.
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
  docs: {
    summary:
      "SCIM provisioning of an identity provider, managed by Pulumi: a SCIM token for the provider's\n" +
      "directory to push users and groups with, and provisioning switched on (or off). One token per\n" +
      "identity provider; the resource id is the identity provider's uid.\n" +
      "\n" +
      "`token` is answered only when the token is generated or regenerated: a Pulumi secret in the\n" +
      "state and the outputs, and no message shows it. Changing `expireTime` or `neverExpires`\n" +
      "regenerates it (a new token, the old one stops working); changing `enabled` switches\n" +
      "provisioning; destroying the resource revokes the token. A token regenerated in the console\n" +
      "shows as drift at the next refresh (`tokenSuperseded`), and `pulumi up` regenerates it. A\n" +
      "token the identity provider already has cannot be read back, so it cannot be taken over:\n" +
      "revoke it first. It takes no `adopt` and has no `get`.",
    example: {
      name: "okta-scim",
      inputs: { identityProviderUid: { $uidOf: "IdentityProvider" }, expireTime: "2099-01-01T00:00:00Z" },
      exports: ["endpointUrl", "token"],
    },
    fields: {
      identityProviderUid:
        "The identity provider whose directory provisions through SCIM. Changing it replaces the token (the old\n" +
        "token is revoked first: one per identity provider).",
      expireTime:
        'When the token stops working, RFC 3339 ("2027-01-01T00:00:00Z"); the service\'s default (a year) when\n' +
        "absent. A new one regenerates the token in place (a new `token`).",
      neverExpires: "The token never expires (not with `expireTime`).",
      enabled:
        "SCIM provisioning on; default true. As an output, whether SCIM provisioning is on, as the service says (a\n" +
        "change in the console shows as drift).",
      token:
        "The bearer token the identity provider's directory sends to `endpointUrl`: a Pulumi secret, answered only\n" +
        "when the token is generated or regenerated.",
      endpointUrl: "Where the directory sends its SCIM requests.",
      tokenExpireTime: "When the token stops working, RFC 3339; absent for a token that never expires.",
      credentialState: "CREDENTIAL_STATE_LIVE, or CREDENTIAL_STATE_ROTATING while a previous token still works.",
      etag: "The identity provider's SCIM state version as last seen: how a regeneration elsewhere is noticed.",
      tokenSuperseded:
        "true after a refresh found the token regenerated outside this program (the state no longer holds a\n" +
        "working token; `token` is absent): the next `pulumi up` regenerates it.",
    },
    replacedWhen:
      "`identityProviderUid` changes (the old token is revoked first: one per identity provider); a new " +
      "`expireTime`/`neverExpires` regenerates the token in place (a new `token`)",
  },
  // The outputs are the identity provider's SCIM state, the token and what a read finds of it.
  outputsFrom: { message: "iam.IdentityProvider.SCIM", fields: SCIM_OUTPUTS },
  extraOutputs: { token: { type: "string" }, tokenSuperseded: { type: "boolean" } },
  inputs: (f) =>
    f.z.strictObject({
      identityProviderUid: f.uid("an identity provider"),
      expireTime: f.timestamp().optional(),
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
      ...pick(scim, SCIM_OUTPUTS),
      enabled: scim.enabled === true,
    };
  },
  // Revoked, expired or never issued: this resource's token no longer works, so it is gone. The
  // token regenerated elsewhere is drift the program sees as a change (`preview
  // --expect-no-changes` fails, `up` regenerates), its dead token dropped.
  readDrift: (current, state) => {
    if (typeof current.credentialState !== "string" || !USABLE.has(current.credentialState)) return undefined;
    return tokenSuperseded(current, state) ? { token: undefined, tokenSuperseded: true } : {};
  },
  label: (props) => `SCIM token of identity provider "${shown(props.uid ?? props.identityProviderUid)}"`,
  alreadyExistsHint: "one ScimToken per identity provider: revoke the live token first",
  verbs: { create: [generate, setEnabled], update: [regenerate, setEnabled], delete: [revoke] },
  // create: the generate, then the enable; update: the etag's GET, then the enable.
  requestFloors: { create: 2, update: 2 },
};

export default scimToken;
