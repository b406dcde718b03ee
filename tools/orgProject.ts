import * as path from "node:path";
import { repoRoot } from "./host/stage";

/** The example program as the end-to-end tests and the demo run it. */
export const exampleDir = path.join(repoRoot, "examples", "org-hierarchy");

/**
 * The single sign-on client secret the tests and the demo give the example, as secret config:
 * no output, display or message of a run may show it.
 */
export const EXAMPLE_SSO_CLIENT_SECRET = "sso-client-secret-7f3a9c2e5b";

/** Settings come from config only, so a developer's own PLATFORM_* variables cannot leak in. */
export function withoutPlatformEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
}
