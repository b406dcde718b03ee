import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./host/stage";
import { EngineRun, runEngine } from "./engine/run";

/** The example program as the end-to-end tests and the demo run it. */
export const exampleDir = path.join(repoRoot, "examples", "org-hierarchy");

/**
 * The single sign-on client secret the tests and the demo give the example, as secret config:
 * no output, display or message of a run may show it.
 */
export const EXAMPLE_SSO_CLIENT_SECRET = "sso-client-secret-7f3a9c2e5b";

export interface OrgStack {
  stateFile: string;
  /** Runs one operation with the API settings plus `settings` (the program's own config keys). */
  run(operation: string[], settings?: Record<string, string>, options?: { killAfter?: string }): Promise<EngineRun>;
  remove(): void;
}

/**
 * A stack of the example against an API: the URL and root uid as plain config, the token as
 * secret config, as `pulumi config set [--secret]` would store them.
 */
export function orgStack(options: {
  url: string;
  token: string;
  rootUid: string;
  cwd: string;
  label: string;
  esm?: boolean;
}): OrgStack {
  const dir = path.join(
    repoRoot,
    ".work",
    `e2e-${options.label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
  fs.mkdirSync(dir, { recursive: true });
  const stateFile = path.join(dir, "state.json");
  return {
    stateFile,
    run: (operation, settings = {}, runOptions = {}) =>
      runEngine(
        [
          ...operation,
          ...(options.esm ? ["--esm"] : []),
          "--config",
          `platform:apiUrl=${options.url}`,
          "--secret-config",
          `platform:token=${options.token}`,
          "--config",
          `rootUid=${options.rootUid}`,
          "--secret-config",
          `ssoClientSecret=${EXAMPLE_SSO_CLIENT_SECRET}`,
          ...Object.entries(settings).flatMap(([key, value]) => ["--config", `${key}=${value}`]),
        ],
        { cwd: options.cwd, state: stateFile, env: withoutPlatformEnv(), killAfter: runOptions.killAfter },
      ),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Settings come from config only, so a developer's own PLATFORM_* variables cannot leak in. */
export function withoutPlatformEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
}
