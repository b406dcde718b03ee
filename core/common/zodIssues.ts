/**
 * Turns zod issues into one line that names where the problem is (`roles[3].name: expected
 * string, received number`), because a look-up's error reaches the user as its message only.
 */
import type { z } from "zod";

export function formatPath(path: ReadonlyArray<PropertyKey>, root = ""): string {
  let out = root;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

function describe(issue: z.core.$ZodIssue): string {
  // zod's own text starts with a generic "Invalid input: "; the path already says where.
  return issue.message.replace(/^Invalid input: /, "");
}

/** At most `max` issues, each as `<path>: <problem>`; `root` prefixes every path. */
export function formatIssues(error: z.ZodError, root = "", max = 5): string {
  const lines = error.issues.slice(0, max).map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const where = formatPath(issue.path, root);
      return `${where ? `${where}: ` : ""}unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    }
    const where = formatPath(issue.path, root);
    return where ? `${where}: ${describe(issue)}` : describe(issue);
  });
  const more = error.issues.length - max;
  return lines.join("; ") + (more > 0 ? `; and ${more} more` : "");
}
