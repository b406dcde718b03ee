/**
 * A throwaway Pulumi program (TypeScript source written to a folder under .work) that the local
 * engine runs against an emulator with the API's settings as config, the token as secret
 * config, as `pulumi config set [--secret]` would store them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { EngineRun, runEngine } from "../../tools/engine/run";
import { repoRoot } from "../../tools/host/stage";

export interface ProgramProject {
  stateFile: string;
  /**
   * One engine operation (`up`, `refresh`, or one with flags: `["preview", "--refresh"]` or
   * `"preview --refresh"`) with the API settings plus the program's `config`.
   */
  run(operation: string | string[], config?: Record<string, string>): Promise<EngineRun>;
  remove(): void;
}

export function programProject(options: {
  /** The Pulumi project name; it also names the scratch folder. */
  name: string;
  source: string;
  api: { url: string; token: string };
}): ProgramProject {
  const dir = path.join(repoRoot, ".work", `${options.name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  const program = path.join(dir, "program");
  fs.mkdirSync(program, { recursive: true });
  fs.writeFileSync(path.join(program, "Pulumi.yaml"), `name: ${options.name}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(program, "index.ts"), options.source);
  const stateFile = path.join(dir, "state.json");
  return {
    stateFile,
    run: (operation, config = {}) =>
      runEngine(
        [
          ...(Array.isArray(operation) ? operation : operation.split(" ")),
          "--config",
          `platform:apiUrl=${options.api.url}`,
          "--secret-config",
          `platform:token=${options.api.token}`,
          ...Object.entries(config).flatMap(([key, value]) => ["--config", `${key}=${value}`]),
        ],
        { cwd: program, state: stateFile, env: withoutPlatformEnv() },
      ),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
