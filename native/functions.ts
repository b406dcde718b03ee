/**
 * The look-ups the native provider answers as invokes and its schema declares as functions, one
 * list for both so they cannot disagree: `platform:<domain>:get<Kind>` (one record by uid or by
 * name) and `get<Collection>` (a List) for every kind with records of its own, the package's own
 * look-up where it takes other arguments than those (getRole, getRoles, getTags), and the
 * look-ups of records no kind manages (getAdvisories). Each runs the same Lookup a TypeScript
 * program calls, so arguments are validated the same way.
 */
import type { z } from "zod";
import type { Kind } from "../core/model/kind";
import { kindLookups } from "../core/program/kindLookups";
import { lazily } from "../core/common/lazyZod";
import type { Lookup } from "../core/program/lookup";
import { roleLookup, rolesLookup } from "../resources/iam/role/lookups";
import { tagsLookup } from "../resources/registry/tag/lookups";
import { advisoriesLookup } from "../resources/vulnerabilities/advisory";
import { describedKinds } from "./kinds";

export interface NativeFunction {
  /** `platform:iam:getRoles`. */
  token: string;
  domain: string;
  lookup: Lookup<Record<string, unknown>, unknown>;
  /** The documented message of the records it answers. */
  message: string;
  /** The answer's key holding the list (`roles`); absent when it answers one record. */
  list?: string;
  /** What it answers, for its description. */
  noun: string;
}

/** A permissive record schema: the look-ups answer the records as the API does. */
const anyRecord = lazily((z) => z.looseObject({ uid: z.string() }) as z.ZodType<{ uid: string }>);

type AnyLookup = NativeFunction["lookup"];
const asAny = (lookup: object) => lookup as AnyLookup;

/** Look-ups of the package that take their own arguments, by the domain they are in. */
function ownLookups(kinds: Kind[]): NativeFunction[] {
  const kindNamed = (typeName: string) => kinds.find((kind) => kind.typeName === typeName);
  const own: NativeFunction[] = [];
  const role = kindNamed("Role");
  if (role) {
    own.push({ token: "", domain: role.domain, lookup: asAny(roleLookup), message: role.message, noun: role.noun });
    own.push({
      ...{ token: "", domain: role.domain, lookup: asAny(rolesLookup), message: role.message, noun: role.noun },
      list: role.collection,
    });
  }
  const tag = kindNamed("Tag");
  if (tag)
    own.push({
      ...{ token: "", domain: tag.domain, lookup: asAny(tagsLookup), message: tag.message, noun: tag.noun },
      list: tag.collection,
    });
  // Advisories are read, never managed: no kind describes them.
  own.push({
    token: "",
    domain: "vulnerabilities",
    lookup: asAny(advisoriesLookup),
    message: "vulnerabilities.Advisory",
    list: "advisories",
    noun: "advisory",
  });
  return own;
}

/** Every function of the package, by token. */
export function nativeFunctions(packageName: string): Map<string, NativeFunction> {
  const kinds = describedKinds().filter((kind) => !kind.partOf);
  const functions = new Map<string, NativeFunction>();
  const add = (fn: NativeFunction) => {
    const token = `${packageName}:${fn.domain}:${fn.lookup.name}`;
    functions.set(token, { ...fn, token });
  };
  for (const kind of kinds) {
    const lookups = kindLookups(kind, anyRecord);
    const common = { token: "", domain: kind.domain, message: kind.message, noun: kind.noun };
    add({ ...common, lookup: asAny(lookups.one) });
    add({ ...common, lookup: asAny(lookups.many), list: kind.collection });
  }
  // Set after the generic ones: where the package has its own, it is the one answered.
  for (const fn of ownLookups(kinds)) add(fn);
  return functions;
}
