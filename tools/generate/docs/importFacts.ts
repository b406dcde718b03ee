/**
 * How a kind's records come under a stack, for its page's Import section: the id `pulumi import`
 * takes for the native resource (or why it refuses the kind), and the dynamic resource's ways
 * (adoption, `get`). Worked out from what native/imports.ts decides, so the page says what the
 * provider does; to be replaced by the native provider's own statement of the same facts (the
 * one its schema's descriptions are written from) once it has one.
 */
import type { Kind } from "../../../provider/kind";
import { importStart, importable } from "../../../native/imports";

export interface ImportFacts {
  /** The import id's form: `<uid>`, `<parentUid>/<uid>`. Undefined when the kind cannot be imported. */
  readonly idForm?: string;
  /** What the id is, in words. */
  readonly idWords?: string;
  /** `pulumi import platform:iam:Group team <uid>`. */
  readonly command?: string;
  /** Why `pulumi import` refuses the kind, in the provider's own words. */
  readonly refusal?: string;
}

export function importFactsOf(kind: Kind, token: string, resourceName: string): ImportFacts {
  if (!importable(kind)) {
    try {
      importStart(kind, "<uid>");
    } catch (error) {
      return { refusal: error instanceof Error ? error.message : String(error) };
    }
    throw new Error(`${kind.typeName}: importable() refuses it but importStart() takes it`);
  }
  const idForm = kind.placedByParent ? `<${kind.parentField}>/<uid>` : `<uid>`;
  const idWords = kind.placedByParent
    ? `the uid of the ${kind.parentCollection.replace(/s$/, "")} it is defined on (\`${kind.parentField}\`), a slash, ` +
      `then the ${kind.noun}'s own uid: its uid does not tell where it lives. The resource's id is then its own uid.`
    : kind.keyedByParent
      ? `its uid, which is its \`${kind.parentField}\`: one ${kind.noun} per ${kind.parentCollection.replace(/s$/, "")}.`
      : `its uid.`;
  return { idForm, idWords, command: `pulumi import ${token} ${resourceName} ${idForm}` };
}
