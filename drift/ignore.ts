/**
 * `--ignore FILE`: the records meant to stay unmanaged, never reported as such. JSON or YAML:
 *
 *     uids: [<record uid>, …]          # exactly these records
 *     types: [platform:iam:Identity, …] # every record of these kinds
 *     names: ["ci-*", "sandbox-?"]     # records whose name matches (`*` any run of characters, `?` one)
 */
import * as fs from "node:fs";
import { z } from "zod";
import { describedKinds, typeTokenOf } from "../native/kinds";

export interface Ignored {
  matches(record: { uid: string; type: string; name?: string }): boolean;
}

const schema = z.strictObject({
  uids: z.array(z.string().min(1)).optional(),
  types: z.array(z.string().min(1)).optional(),
  names: z.array(z.string().min(1)).optional(),
});

export const NOTHING_IGNORED: Ignored = { matches: () => false };

export function readIgnoreFile(file: string): Ignored {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read the ignore file ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  return ignoreOf(text, file);
}

export function ignoreOf(text: string, file: string): Ignored {
  let parsed: unknown;
  try {
    // YAML reads JSON too.
    // Loaded only when an ignore file is given: a drift without one needs no YAML parser.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { parse } = require("yaml") as typeof import("yaml");
    parsed = parse(text) ?? {};
  } catch {
    throw new Error(`the ignore file ${file} is neither JSON nor YAML`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(
      `the ignore file ${file}: ${issue.path.join(".") || "its top level"}: ${issue.message} ` +
        "(it holds uids, types and names: lists of strings)",
    );
  }
  const tokens = new Set(describedKinds().map(typeTokenOf));
  const unknownType = (result.data.types ?? []).find((type) => !tokens.has(type));
  if (unknownType)
    throw new Error(`the ignore file ${file}: types: no kind ${unknownType} (one of ${[...tokens].join(", ")})`);
  const uids = new Set(result.data.uids ?? []);
  const types = new Set(result.data.types ?? []);
  const names = (result.data.names ?? []).map(globPattern);
  return {
    matches: ({ uid, type, name }) =>
      uids.has(uid) || types.has(type) || (name !== undefined && names.some((pattern) => pattern.test(name))),
  };
}

function globPattern(glob: string): RegExp {
  const body = [...glob]
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`, "su");
}
