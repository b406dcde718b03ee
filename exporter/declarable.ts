/**
 * What an exported program declares for a record, and why a record cannot be declared: the
 * provider's own check (the kind's schema and rules, exactly as `pulumi up` runs them) on the
 * inputs the program would write, and the values no Pulumi program can carry to the provider.
 * A record the service holds but the provider would refuse (an identity named "", a description
 * of 5,000 characters, 65 claims) would make the export's `up` fail; one the program cannot
 * carry whole would make `up` change it.
 */
import type { z } from "zod";
import { checkInputs, inputSchema } from "../core/model/check";
import { inputsOf } from "../core/runtime/changes";
import type { ApiRecord, Kind } from "../core/model/kind";
import { Props, isObject } from "../core/common/values";
import { formatPath } from "../core/common/zodIssues";
import { adoptionInputs } from "./adoption";
import type { Subtree } from "./read";
import { oneLine } from "./text";

/** A record read but not declared, and why. */
export interface LeftOut {
  uid: string;
  /** The kind's noun: "identity". */
  noun: string;
  reasons: string[];
}

/** A record left out as one line (a report line, a comment), its kind, uid and every reason, whatever they hold. */
export function leftOutLine(left: LeftOut): string {
  return `  ${left.noun} ${left.uid}: ${oneLine(left.reasons.join("; "))}`;
}

/** Why the program's language cannot write a record's inputs as they are (a YAML program, an `fn::` key). */
export type LanguageRefusals = (inputs: Props) => string[];

/** The records a program can declare, and the others with the reasons it cannot. */
export function sortOut(
  tree: Subtree,
  languageRefusals: LanguageRefusals = () => [],
): { declarable: Subtree; leftOut: LeftOut[] } {
  const leftOut: LeftOut[] = [];
  const kinds = tree.kinds.map(({ exported, records }) => ({
    exported,
    records: records.filter((record) => {
      const reasons = [
        ...refusalReasons(exported.kind, record),
        ...languageRefusals(declaredInputs(exported.kind, record)),
      ];
      if (reasons.length > 0) leftOut.push({ uid: record.uid, noun: exported.kind.noun, reasons });
      return reasons.length === 0;
    }),
  }));
  return { declarable: { ...tree, kinds }, leftOut };
}

/**
 * The record's values as a program declares them: empty optional fields left out (as a person
 * would write it), but a field the kind requires written even when empty (an overlay's
 * `config: {}`), so the program says what the record holds and the check judges that.
 */
export function declaredInputs(kind: Kind, record: ApiRecord): Props {
  const outputs = kind.toOutputs(record);
  const inputs = inputsOf(kind, outputs);
  const shape: Record<string, z.ZodType | undefined> = inputSchema(kind).shape;
  const declared = kind.declared.filter(
    (field) =>
      Object.hasOwn(inputs, field) ||
      (outputs[field] !== undefined && outputs[field] !== null && !shape[field]?.safeParse(undefined).success),
  );
  return Object.fromEntries(
    declared.map((field) => [field, Object.hasOwn(inputs, field) ? inputs[field] : outputs[field]]),
  );
}

/** Why a program declaring the record (and adopting it) could not be applied as it is: none when it can. */
export function refusalReasons(kind: Kind, record: ApiRecord): string[] {
  const inputs = declaredInputs(kind, record);
  const { failures } = checkInputs(kind, { ...inputs, ...adoptionInputs(kind, record.uid) });
  return [...failures.map((f) => `${f.property}: ${f.reason}`), ...uncarried(inputs)];
}

/** Text that is not well-formed UTF-16: a surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Values a Pulumi program cannot hand to the provider unchanged: a `__proto__` key (the SDK
 * builds every input object by assignment, `obj[key] = value`, which sets the prototype instead
 * of a key, so the entry never arrives and adopting the record would delete it), and text with
 * a lone surrogate (the engine's wire format, protobuf, carries UTF-8, which cannot encode one).
 */
function uncarried(value: unknown, path: PropertyKey[] = []): string[] {
  if (typeof value === "string")
    return LONE_SURROGATE.test(value)
      ? [
          `${formatPath(path)}: holds text that is not well-formed Unicode (a lone surrogate), which Pulumi cannot carry`,
        ]
      : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => uncarried(item, [...path, i]));
  if (!isObject(value)) return [];
  return Object.keys(value).flatMap((key) =>
    key === "__proto__"
      ? [
          `${formatPath(path)}: has the key "__proto__", which the Pulumi SDK drops from every input ` +
            "(so `up` would delete that entry)",
        ]
      : uncarried(value[key], [...path, key]),
  );
}
