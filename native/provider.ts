/**
 * The native provider `platform`: the operations of `@pulumi/pulumi/provider`'s Provider,
 * each handed to the provider object of the kind its type token names (resources/kinds.ts),
 * the same objects the dynamic resources run. What differs from the dynamic-provider host is
 * done here: the engine sends secrets as marked values (the server accepts secrets) and
 * expects them marked back, the type comes from the URN, and there is no `__provider`.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import type { Kind } from "../core/model/kind";
import type { KindDiffResult, Provider as KindProvider } from "../core/runtime/lifecycle";
import { PreviewedUpdate, previewUpdate } from "../core/runtime/operations/previewUpdate";
import { KINDS } from "../resources/kinds";
import { nativeFunctions } from "./functions";
import { importRecord } from "./imports";
import { PACKAGE_NAME, typeTokenOf } from "./kinds";
import { packageSchema } from "./schema";
import { secretProperties } from "../core/model/kindSecrets";
import { sharedClient } from "../core/transport/client";
import { callBudgetMs, withCallDeadline } from "../core/transport/deadline";

type Props = Record<string, unknown>;

const SIG = pulumi.runtime.specialSigKey;
const SECRET = pulumi.runtime.specialSecretSig;

const isSecret = (value: unknown): value is { value?: unknown } =>
  typeof value === "object" && value !== null && (value as Props)[SIG] === SECRET;

/** `props` without secret markers, and the top-level properties that held one. */
export function unwrapSecrets(props: Props | undefined): { plain: Props; secret: Set<string> } {
  const secret = new Set<string>();
  const plain: Props = {};
  for (const [key, value] of Object.entries(props ?? {})) {
    if (containsSecret(value)) secret.add(key);
    plain[key] = reveal(value);
  }
  return { plain, secret };
}

function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsSecret);
  return false;
}

function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reveal(item)]));
  return value;
}

/** `props` with each property in `secret` marked as one (the engine keeps it encrypted in the state). */
export function markSecrets(props: Props | undefined, secret: Iterable<string>): Props {
  const out: Props = { ...props };
  for (const key of secret) if (out[key] !== undefined) out[key] = { [SIG]: SECRET, value: out[key] };
  return out;
}

/** The type token of a URN: its last type segment (`parent$type`). */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

/** A kind as the native provider runs it, under its type token. */
interface NativeKind {
  kind: Kind;
  ops: KindProvider;
  preview: (olds: Props, news: Props) => PreviewedUpdate;
  /** Top-level properties the kind always keeps secret. */
  secrets: readonly string[];
}

function kindsByTypeToken(): Map<string, NativeKind> {
  const kinds = new Map<string, NativeKind>();
  for (const entry of KINDS) {
    const ops = entry.provider as KindProvider;
    if (!ops.kind) continue;
    kinds.set(typeTokenOf(ops.kind), {
      kind: ops.kind,
      ops,
      preview: previewUpdate(ops.kind),
      secrets: secretProperties(ops.kind),
    });
  }
  return kinds;
}

/**
 * The provider, and what it answers the engine's preview of an update (UpdateRequest.preview,
 * which @pulumi/pulumi/provider's Provider is never told: native/server.ts asks this instead).
 */
export interface NativeProvider extends provider.Provider {
  diff(id: string, urn: string, olds: unknown, news: unknown): Promise<KindDiffResult>;
  previewUpdate(id: string, urn: string, olds: unknown, news: unknown): { outs: Props };
}

/**
 * `schema` answers GetSchema: by default written from the descriptions and the API document on
 * each call; the plugin's single executable passes the text written when it was built.
 */
export function nativeProvider(
  version: string,
  schema: () => string = () => JSON.stringify(packageSchema(version)),
): NativeProvider {
  const kinds = kindsByTypeToken();
  const kindOfUrn = (urn: string): NativeKind => {
    const type = typeOfUrn(urn);
    const found = kinds.get(type);
    if (!found)
      throw new Error(
        `${PACKAGE_NAME}: no resource type ${type}; this provider manages ${[...kinds.keys()].join(", ")}`,
      );
    return found;
  };
  const secretsOf = (kind: NativeKind, ...given: Array<Set<string>>) =>
    new Set([...kind.secrets, ...given.flatMap((s) => [...s])]);
  // The same list the schema declares its functions from.
  const functions = nativeFunctions(PACKAGE_NAME);
  /** The look-up of one record of the kind, if the package has it (`platform:iam:getRole`). */
  const lookupOf = (kind: Kind) => {
    const token = `${PACKAGE_NAME}:${kind.domain}:get${kind.typeName}`;
    return functions.has(token) ? token : undefined;
  };

  return {
    version,
    getSchema: async () => schema(),

    async check(urn, olds, news) {
      const kind = kindOfUrn(urn);
      const given = unwrapSecrets(news as Props);
      const result = await kind.ops.check(unwrapSecrets(olds as Props).plain, given.plain);
      return { inputs: markSecrets(result.inputs as Props, secretsOf(kind, given.secret)), failures: result.failures };
    },

    async diff(id, urn, olds, news) {
      const kind = kindOfUrn(urn);
      return kind.ops.diff(id, unwrapSecrets(olds as Props).plain, unwrapSecrets(news as Props).plain);
    },

    async create(urn, inputs) {
      const kind = kindOfUrn(urn);
      const given = unwrapSecrets(inputs as Props);
      const result = await kind.ops.create(given.plain);
      return { id: result.id, outs: markSecrets(result.outs as Props, secretsOf(kind, given.secret)) };
    },

    async read(id, urn, props) {
      const kind = kindOfUrn(urn);
      const state = unwrapSecrets(props as Props | undefined);
      // No state: an import (a refresh always has the state it wrote), checked before it is accepted.
      const result =
        Object.keys(state.plain).length === 0
          ? await withCallDeadline(`importing ${kind.kind.noun} ${id}`, callBudgetMs(), () =>
              importRecord({ ...kind, lookup: lookupOf(kind.kind), client: sharedClient(), read: kind.ops.read }, id),
            )
          : await kind.ops.read(id, state.plain);
      const secret = secretsOf(kind, state.secret);
      return {
        id: result.id,
        props: markSecrets(result.props as Props, secret),
        // Absent when the record is gone (an empty id): the host cannot carry undefined.
        ...(result.inputs === undefined ? {} : { inputs: markSecrets(result.inputs as Props, secret) }),
      };
    },

    async update(id, urn, olds, news) {
      const kind = kindOfUrn(urn);
      const old = unwrapSecrets(olds as Props);
      const given = unwrapSecrets(news as Props);
      const result = await kind.ops.update(id, old.plain, given.plain);
      return { outs: markSecrets(result.outs as Props, secretsOf(kind, old.secret, given.secret)) };
    },

    // No request: the old outputs with the new inputs, the uid as it is, what only the service's
    // answer tells unknown (core/runtime/operations/previewUpdate.ts).
    previewUpdate(_id, urn, olds, news) {
      const kind = kindOfUrn(urn);
      const old = unwrapSecrets(olds as Props);
      const given = unwrapSecrets(news as Props);
      const { outs, unknown } = kind.preview(old.plain, given.plain);
      for (const field of unknown) outs[field] = pulumi.runtime.unknownValue;
      return { outs: markSecrets(outs, secretsOf(kind, old.secret, given.secret)) };
    },

    async delete(id, urn, props) {
      await kindOfUrn(urn).ops.delete(id, unwrapSecrets(props as Props).plain);
    },

    async invoke(token, args) {
      const fn = functions.get(token);
      if (!fn)
        return {
          failures: [
            {
              property: "",
              reason: `${PACKAGE_NAME}: no function ${token}; it has ${[...functions.keys()].join(", ")}`,
            },
          ],
        };
      return { outputs: (await fn.lookup.get(unwrapSecrets(args as Props).plain)) as Props };
    },
  };
}
