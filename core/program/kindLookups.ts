/**
 * The look-ups of a kind, from its description: `get<Kind>` (one record by uid, or by exact
 * name in an optional scope) and `get<Collection>` (every record a List with the shared list
 * arguments returns, under the collection's own key), each with its Output form.
 * The record schema is the look-up's: what a record must hold to be returned.
 */
import type { z } from "zod";
import { versionRefusal } from "../transport/apiVersions";
import type { ResourceKind } from "../model/kind";
import { Z, lazily } from "../common/lazyZod";
import { Collection, Lookup, defineLookup, findOne, listArgs, listRecords, oneByUidOrName } from "./lookup";

type Described = Pick<ResourceKind, "typeName" | "noun" | "domain" | "collection" | "apiVersions">;

export function collectionOf<T extends { uid: string }>(kind: Described, schema: () => z.ZodType<T>): Collection<T> {
  return { domain: kind.domain, collection: kind.collection, noun: kind.noun, schema };
}

export interface KindLookups<T, Many> {
  one: Lookup<z.input<ReturnType<typeof oneByUidOrName>>, T>;
  many: Lookup<Record<string, unknown>, Many>;
}

/**
 * `extraArgs` adds List arguments beyond the shared ones, `wireNames` maps them to their query
 * names. `Many` is the result type of the list form: `{ <collection>: T[] }`.
 */
export function kindLookups<T extends { uid: string; name?: string }, Many>(
  kind: Described,
  schema: () => z.ZodType<T>,
  options: { extraArgs?: (z: Z) => z.ZodRawShape; wireNames?: Record<string, string> } = {},
): KindLookups<T, Many> {
  const from = collectionOf(kind, schema);
  const plural = `${kind.collection[0].toUpperCase()}${kind.collection.slice(1)}`;
  const manyArgs = lazily((z) => z.strictObject({ ...listArgs(), ...options.extraArgs?.(z) }));
  // A collection the configured API version does not serve is refused before any request.
  const served = () => {
    const refusal = versionRefusal(`${kind.domain} ${kind.collection}`, kind.apiVersions);
    if (refusal) throw new Error(refusal);
  };
  return {
    one: defineLookup(`get${kind.typeName}`, oneByUidOrName, (args, client) => {
      served();
      return findOne(client, from, args);
    }),
    many: defineLookup<ReturnType<typeof manyArgs>, Many, Record<string, unknown>>(
      `get${plural}`,
      manyArgs,
      async (args, client) => {
        served();
        return { [kind.collection]: await listRecords(client, from, args, options.wireNames) } as Many;
      },
    ),
  };
}
