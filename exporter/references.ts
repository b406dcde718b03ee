/**
 * Which inputs of a kind refer to other records, read from the kind's own description: the
 * fields its input schema builds with the toolkit's `uid` (a group's parentUid, a binding's
 * identityUid and roleUid, an identity provider's defaultRole, a mapping's identityProviderUid,
 * ...). Only these become another resource's Output in an exported program; any other text, a
 * description equal to some record's uid included, stays text.
 */
import type { z } from "zod";
import { fields, Fields } from "../core/model/fields";
import type { Kind } from "../core/model/kind";
import type { UidForm } from "../core/common/uid";

/** The top-level inputs of a kind that hold another record's uid, with the form of that uid. */
export type ReferenceFields = ReadonlyMap<string, UidForm>;

const known = new WeakMap<Kind, ReferenceFields>();

export function referenceFields(kind: Kind): ReferenceFields {
  const cached = known.get(kind);
  if (cached) return cached;
  // The kind builds its schema once more with a toolkit whose `uid` remembers what it made.
  const made = new Map<z.ZodType, UidForm>();
  const marking: Fields = {
    ...fields,
    uid: (what, form = "path") => {
      const schema = fields.uid(what, form);
      made.set(schema, form);
      return schema;
    },
  };
  const found = new Map<string, UidForm>();
  const shape: Record<string, z.ZodType> = kind.inputs(marking).shape;
  for (const [field, schema] of Object.entries(shape)) {
    const form = made.get(unwrapOptional(schema));
    if (form) found.set(field, form);
  }
  known.set(kind, found);
  return found;
}

function unwrapOptional(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current.def.type === "optional") current = (current as z.ZodOptional).unwrap() as z.ZodType;
  return current;
}
