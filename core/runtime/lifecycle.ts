/**
 * The lifecycle every kind shares: defineProvider turns a kind's description into the object
 * the dynamic-provider host calls (configure, check, diff, create, read, update, delete), with
 * one request per create, read, update and delete (plus one per companion document the program
 * sets, where it is written or read), and none for check and diff.
 *
 * Each operation lives in core/runtime/operations/; what they share about one kind is worked out
 * once here (core/runtime/kindContext.ts). Each operation that calls the API runs as one call with
 * one overall deadline across its retries (core/runtime/callDeadlines.ts); every error is a
 * ResourceError (core/runtime/resourceError.ts).
 */
import type { dynamic } from "@pulumi/pulumi";
import { withCallDeadlines } from "./callDeadlines";
import { ApiClient, sharedClient } from "../transport/client";
import { companions } from "./companions";
import { withHostKeys } from "./hostKeys";
import { Kind, ResourceKind, completeKind } from "../model/kind";
import { kindContext } from "./kindContext";
import { check } from "./operations/check";
import { configure } from "./operations/configure";
import { create } from "./operations/create";
import { deleteRecord } from "./operations/delete";
import { PropertyChange, diff } from "./operations/diff";
import { read } from "./operations/read";
import { partOfRecord } from "./operations/partOfRecord";
import { update } from "./operations/update";
import { postRecord } from "./postRecord";
import { ProviderSettings, providerSettings, withSettings } from "../transport/settings";
import { takeOver } from "./takeOver";
import { verbSteps } from "./verbSteps";
import type { Props } from "../common/values";

/**
 * What a diff answers: dynamic.DiffResult, and the input properties that changed, which the native
 * plugin passes on so that a preview names them (the dynamic-provider host has no place for them).
 */
export interface KindDiffResult extends dynamic.DiffResult {
  readonly diffs: string[];
  /** The same by path, a nested field by its changed members (`oidc.clientSecret`). */
  readonly detailedDiff: Record<string, PropertyChange>;
}

/** The operations of dynamic.ResourceProvider a kind's provider implements: all of them. */
export type Lifecycle = Required<
  Pick<dynamic.ResourceProvider, "configure" | "check" | "create" | "read" | "update" | "delete">
> & { diff(id: string, olds: Props, news: Props): Promise<KindDiffResult> };

/** A kind's provider: the lifecycle, and the description it was made from (for look-ups and adoption). */
export type Provider = Lifecycle & { readonly kind: Kind };

export function defineProvider(description: ResourceKind, client: () => ApiClient = sharedClient): Provider {
  const kind = completeKind(description);
  const context = kindContext(kind, client);
  const documents = companions(context);
  const adoption = takeOver(context);
  const runSteps = verbSteps(context);
  // Configured by the host that deserialized the provider; empty in the program that serialized it.
  const settings = providerSettings();
  const operations: Lifecycle = {
    configure: configure(settings),
    check: check(context),
    diff: diff(context),
    read: read(context, documents),
    // A part of another's record is written by its verbs alone.
    ...(kind.partOf
      ? partOfRecord(context, runSteps)
      : {
          create: create(context, adoption, postRecord(context, adoption), documents, runSteps),
          update: update(context, documents, runSteps),
          delete: deleteRecord(context, runSteps),
        }),
  };
  return { ...withHostKeys(onSettings(settings, withCallDeadlines(kind, operations))), kind };
}

/** Each operation run on `settings`: what its requests, deadlines and checks read (provider/settings.ts). */
function onSettings(settings: ProviderSettings, ops: Lifecycle): Lifecycle {
  const on = <R>(fn: () => R): R => withSettings(settings, fn);
  return {
    configure: (req) => on(() => ops.configure(req)),
    check: (olds, news) => on(() => ops.check(olds, news)),
    diff: (id, olds, news) => on(() => ops.diff(id, olds, news)),
    create: (inputs) => on(() => ops.create(inputs)),
    read: (id, props) => on(() => ops.read(id, props)),
    update: (id, olds, news) => on(() => ops.update(id, olds, news)),
    delete: (id, props) => on(() => ops.delete(id, props)),
  };
}
