/**
 * One request to an Automation API runner run to its end: automation.js for a Node.js program,
 * inline_python.py for a Python one. The request is written beside its result file, the runner
 * reads it and writes the result; a runner that wrote none fails with what it printed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { runProcess } from "../runProcess";

export async function runnerRequest<Result>(
  command: string,
  runner: string,
  request: { resultFile: string },
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Result> {
  const requestFile = `${request.resultFile}.request`;
  fs.writeFileSync(requestFile, JSON.stringify(request));
  const run = await runProcess(command, [runner, requestFile], options);
  if (!fs.existsSync(request.resultFile))
    throw new Error(`${path.basename(runner)} failed (exit ${run.code}):\n${run.stdout}${run.stderr}`);
  return JSON.parse(fs.readFileSync(request.resultFile, "utf8")) as Result;
}
