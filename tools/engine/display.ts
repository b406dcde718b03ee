import { displayValue, PropertyChange } from "./wire";

export type StepKind = "create" | "update" | "replace" | "delete" | "same" | "read" | "delete-replaced";

export interface Step {
  kind: StepKind;
  urn: string;
  type: string;
  name: string;
  /** Property-level changes to show (for update/replace), computed from stored vs new inputs. */
  changes: PropertyChange[];
  /** Properties the provider said force a replacement. */
  replaces: string[];
  secretProperties: string[];
  /** Set when the step's provider call succeeded (up, destroy): the summary counts only those. */
  done?: boolean;
}

const MARK: Record<StepKind, string> = {
  create: "+ ",
  update: "~ ",
  replace: "+-",
  delete: "- ",
  "delete-replaced": "- ",
  same: "  ",
  read: "> ",
};
const PLANNED: Record<StepKind, string> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
  "delete-replaced": "delete original",
  same: "",
  read: "read",
};
const DONE: Record<StepKind, string> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  delete: "deleted",
  "delete-replaced": "deleted original",
  same: "",
  read: "read",
};

/** One plan line in the CLI's layout (mark, type, name, operation), then one line per changed property. */
export function stepLines(step: Step, done: boolean): string[] {
  const op = (done ? DONE : PLANNED)[step.kind];
  const diffNote = step.changes.length ? `  [diff: ${step.changes.map((c) => "~" + c.path).join(", ")}]` : "";
  const lines = [` ${MARK[step.kind]}  ${step.type.padEnd(40)} ${step.name.padEnd(24)} ${op}${diffNote}`];
  if (step.kind === "update" || step.kind === "replace") {
    for (const change of step.changes) {
      const secret = step.secretProperties.includes(change.path.split(".")[0]);
      const forces = step.replaces.some((r) => change.path === r || change.path.startsWith(r + "."))
        ? "  (forces replacement)"
        : "";
      lines.push(
        `        ~ ${change.path}: ${displayValue(change.old, secret)} => ${displayValue(change.new, secret)}${forces}`,
      );
    }
  }
  return lines;
}

export function tableHeader(): string {
  return `     ${"Type".padEnd(40)} ${"Name".padEnd(24)} ${"Plan"}`;
}

/** The closing "Resources:" block: counts per operation, planned or done. */
export function summaryLines(steps: Step[], done: boolean): string[] {
  const count = (kind: StepKind) => steps.filter((s) => s.kind === kind).length;
  const verb = (planned: string, past: string) => (done ? past : planned);
  const lines = ["Resources:"];
  const rows: [StepKind, string, string, string][] = [
    ["create", "+ ", "to create", "created"],
    ["update", "~ ", "to update", "updated"],
    ["replace", "+-", "to replace", "replaced"],
    ["delete", "- ", "to delete", "deleted"],
  ];
  for (const [kind, mark, planned, past] of rows) {
    const n = count(kind);
    if (n > 0) lines.push(`    ${mark}${n} ${verb(planned, past)}`);
  }
  const same = count("same");
  if (same > 0) lines.push(`    ${same} unchanged`);
  if (lines.length === 1) lines.push("    no resources");
  return lines;
}

/** Whether a step is a change, for `--expect-no-changes`. */
export function isChange(step: Step): boolean {
  return step.kind !== "same" && step.kind !== "read";
}

/** "~ Group payments: description" — names the resource and what changed, one line per step. */
export function changeSummary(step: Step): string {
  const what =
    step.kind === "create"
      ? "would be created (it is missing)"
      : step.kind === "delete"
        ? "would be deleted"
        : step.changes.map((c) => c.path).join(", ") || "(no visible property change)";
  return `    ${MARK[step.kind].trim()} ${step.type} "${step.name}": ${what}`;
}
