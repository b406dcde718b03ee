/**
 * How each kind is imported, as data: the id `pulumi import` takes and an example line, or why the
 * kind cannot be imported. The rules are native/imports.ts's (importable, placedByParent); the
 * schema writes each resource's `## Import` section from this, and docs pages render the same.
 */
import type { Kind } from "../core/model/kind";
import { KINDS } from "../resources/kinds";
import { importable } from "./imports";
import { typeTokenOf } from "./kinds";

export type ImportDoc =
  | {
      token: string;
      importable: true;
      /** The id's form, placeholders in angle brackets: `<uid>`, or `<parentUid>/<uid>`. */
      idForm: string;
      /** The id in words. */
      idWords: string;
      /** A `pulumi import` line: `pulumi import platform:iam:Group group <uid>`. */
      example: string;
    }
  | {
      token: string;
      importable: false;
      /** Why not, as a sentence's end: "its code is answered only when it is created". */
      reason: string;
    };

const kebab = (noun: string) => noun.toLowerCase().replace(/\s+/g, "-");

/** The noun of the kind whose collection holds a kind's parent ("group" for "groups"). */
function parentNoun(kind: Kind): string {
  const parent = KINDS.find((entry) => entry.provider.kind?.collection === kind.parentCollection)?.provider.kind;
  return parent?.noun ?? kind.parentCollection;
}

export function importDocOf(kind: Kind): ImportDoc {
  const token = typeTokenOf(kind);
  if (!importable(kind)) {
    const only = kind.onlyAtCreate ?? [];
    return {
      token,
      importable: false,
      reason: only.length
        ? `its ${only.join(", ")} ${only.length === 1 ? "is" : "are"} answered only when it is created, so an imported one would never have ${only.length === 1 ? "it" : "them"}`
        : `it is part of its ${kind.partOf ?? "parent"}`,
    };
  }
  const idForm = kind.placedByParent ? `<${kind.parentField}>/<uid>` : "<uid>";
  return {
    token,
    importable: true,
    idForm,
    idWords: kind.placedByParent
      ? `the uid of the ${parentNoun(kind)} it is defined on, a slash, then its own uid (its uid alone does not tell where it is defined)`
      : kind.keyedByParent
        ? `its uid, which is its ${parentNoun(kind)}'s (one ${kind.noun} per ${parentNoun(kind)})`
        : `its uid`,
    example: `pulumi import ${token} ${kebab(kind.noun)} ${idForm}`,
  };
}

/** The `## Import` section of a kind's documentation, in Markdown. */
export function importSection(kind: Kind): string {
  const doc = importDocOf(kind);
  const a = /^[aeiou]/i.test(kind.noun) ? "An" : "A";
  if (!doc.importable) return `## Import\n\n${a} ${kind.noun} cannot be imported: ${doc.reason}.`;
  return [
    "## Import",
    "",
    `${a} ${kind.noun} is imported by ${doc.idWords}:`,
    "",
    "```sh",
    `$ ${doc.example}`,
    "```",
  ].join("\n");
}
