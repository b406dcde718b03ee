/** actionlint, run with `go tool` from its pinned module (tools/actionlint), on one workflow file. */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";

/**
 * What actionlint says of `workflow`: its exit status and its findings (stdout). Go's own stderr
 * counts only when actionlint fails: a first run on an empty module cache says what it downloads.
 */
export function actionlint(workflow: string): { status: number | null; findings: string; stderr: string } {
  const answer = spawnSync("go", ["tool", "actionlint", "-no-color", workflow], {
    cwd: path.join(repoRoot, "tools", "actionlint"),
    encoding: "utf8",
    env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly" },
  });
  if (answer.error) throw new Error(`actionlint needs Go >= 1.26 (go tool actionlint): ${answer.error.message}`);
  return { status: answer.status, findings: answer.stdout, stderr: answer.status === 0 ? "" : answer.stderr };
}
