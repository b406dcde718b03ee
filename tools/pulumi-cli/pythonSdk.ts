/**
 * A Python with Pulumi's Python SDK, for Python programs under the real CLI: a virtual
 * environment in the cache folder beside the built CLI, named by a hash of
 * python-sdk/requirements.txt (reused until the pin changes), installed from PyPI by pip.
 * No Python language host is built (the module proxy does not serve its module), so Python
 * programs run as Automation API inline programs: the Python process is their language runtime.
 */
import { spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../host/stage";

const REQUIREMENTS = path.join(repoRoot, "tools", "pulumi-cli", "python-sdk", "requirements.txt");
/** Written last: a folder without it is an install that did not finish. */
const COMPLETE = ".complete";

/** The venv's python, installed first when needed; throws with pip's or venv's own words. */
export function pythonWithPulumiSdk(): string {
  const requirements = fs.readFileSync(REQUIREMENTS);
  const hash = crypto.createHash("sha256").update(requirements).digest("hex").slice(0, 16);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const venv = path.join(base, "platform-pulumi", "python-sdk", hash);
  const python = path.join(venv, "bin", "python");
  if (fs.existsSync(path.join(venv, COMPLETE))) return python;
  fs.rmSync(venv, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(venv), { recursive: true });
  run("python3", ["-m", "venv", venv]);
  run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS]);
  fs.writeFileSync(path.join(venv, COMPLETE), "");
  return python;
}

function run(file: string, args: string[]): void {
  const answer = spawnSync(file, args, { encoding: "utf8", timeout: 600_000 });
  if (answer.error || answer.status !== 0)
    throw new Error(`${file} ${args.join(" ")} failed: ${answer.error?.message ?? answer.stderr.trim()}`);
}
