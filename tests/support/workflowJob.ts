/**
 * A GitHub Actions job as the runner would run it for one event: the steps whose `if:` holds, with
 * `${{ … }}` expressions replaced from the event's context, `vars` and `secrets`, and each step's
 * environment (workflow `env:`, then the job's, then the step's). Only the expressions the
 * project's workflow uses are understood (`==`, `&&`, `||`, quoted strings and context paths);
 * anything else is an error naming it, never a guess.
 */
import * as fs from "node:fs";
import { parse } from "yaml";

export interface WorkflowContext {
  github: { event_name: string; ref: string };
  vars: Record<string, string>;
  secrets: Record<string, string>;
}

export interface JobStep {
  name: string;
  uses?: string;
  /** The step's script with its expressions replaced. */
  run?: string;
  env: Record<string, string>;
}

export interface Job {
  /** `permissions: id-token: write` (the job's, else the workflow's): GitHub then gives the job a token endpoint. */
  mayRequestIdToken: boolean;
  steps: JobStep[];
}

export function workflowJob(file: string, jobName: string, context: WorkflowContext): Job {
  const workflow = parse(fs.readFileSync(file, "utf8"));
  const job = workflow.jobs?.[jobName];
  if (!job) throw new Error(`${file} has no job "${jobName}"`);
  const env = (block: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(block ?? {}).map(([name, value]) => [name, substitute(String(value), context)]));
  const jobEnv = { ...env(workflow.env), ...env(job.env) };
  const permissions = job.permissions ?? workflow.permissions ?? {};
  const steps: JobStep[] = [];
  for (const [index, step] of (job.steps as Record<string, any>[]).entries()) {
    if (step.if !== undefined && !truthy(evaluate(String(step.if), context))) continue;
    steps.push({
      name: step.name ?? step.uses ?? `step ${index + 1}`,
      uses: step.uses,
      run: step.run === undefined ? undefined : substitute(String(step.run), context),
      env: { ...jobEnv, ...env(step.env) },
    });
  }
  return { mayRequestIdToken: permissions["id-token"] === "write", steps };
}

/** Replaces every `${{ expression }}` in `text` with its value. */
function substitute(text: string, context: WorkflowContext): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => String(evaluate(expression, context)));
}

type Value = string | boolean;

const truthy = (value: Value) => value !== "" && value !== false;

/** `a || b` (the first truthy operand), `a && b`, `a == b`, `'text'`, `github.ref`, `vars.NAME`, `secrets.NAME`. */
export function evaluate(expression: string, context: WorkflowContext): Value {
  const text = expression.trim();
  const either = split(text, "||");
  if (either.length > 1) {
    const values = either.map((part) => evaluate(part, context));
    return values.find(truthy) ?? values[values.length - 1];
  }
  const all = split(text, "&&");
  if (all.length > 1) return all.every((part) => truthy(evaluate(part, context)));
  const equal = split(text, "==");
  if (equal.length === 2) return evaluate(equal[0], context) === evaluate(equal[1], context);
  const quoted = /^'([^']*)'$/.exec(text);
  if (quoted) return quoted[1];
  const path = /^(github|vars|secrets)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
  if (path) return (context[path[1] as keyof WorkflowContext] as Record<string, string>)[path[2]] ?? "";
  throw new Error(`the workflow expression "${text}" is not one this reader understands`);
}

/** `text` split on `operator` outside quotes. */
function split(text: string, operator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "'") quoted = !quoted;
    else if (!quoted && text.startsWith(operator, i)) {
      parts.push(text.slice(start, i));
      start = i + operator.length;
      i += operator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
