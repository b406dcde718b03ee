/**
 * The release workflow (.github/workflows/release.yml): it passes actionlint (tools/actionlint, as
 * the GitHub Actions example does), runs on a version tag, builds the plugin archive with `npm run
 * plugin` and the SDK packages with `npm run sdks`, and attaches what they print and write to the
 * tag's release. Nothing in it runs here: no GitHub.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { repoRoot } from "../tools/host/stage";

const WORKFLOW = path.join(repoRoot, ".github", "workflows", "release.yml");

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<string, { steps: Step[]; needs?: string[]; permissions?: Record<string, string> }>;
}

describe("the release workflow", () => {
  const workflow = YAML.parse(fs.readFileSync(WORKFLOW, "utf8")) as Workflow;
  const runs = (job: string) => workflow.jobs[job].steps.flatMap((step) => (step.run ? [step.run] : []));

  test("passes actionlint", () => {
    const answer = spawnSync("go", ["tool", "actionlint", "-no-color", WORKFLOW], {
      cwd: path.join(repoRoot, "tools", "actionlint"),
      encoding: "utf8",
      env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly" },
    });
    if (answer.error) throw new Error(`actionlint needs Go >= 1.26 (go tool actionlint): ${answer.error.message}`);
    // actionlint prints its findings on stdout and exits 1 with any; stderr is go's, which on a machine
    // whose module cache lacks actionlint says what it downloads first.
    expect({
      status: answer.status,
      findings: answer.stdout,
      stderr: answer.status === 0 ? "" : answer.stderr,
    }).toEqual({
      status: 0,
      findings: "",
      stderr: "",
    });
  });

  test("on a version tag, builds the plugin archive and the SDK packages and attaches them to the release", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*"] } });
    expect(runs("plugin").join("\n")).toContain("npm run -s plugin | tail -n 1");
    expect(runs("plugin").join("\n")).toContain('require("./package.json").version');
    expect(runs("sdks")).toContain("npm run sdks");
    const uploaded = workflow.jobs.sdks.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"));
    expect(uploaded?.with?.path.split("\n").filter(Boolean)).toEqual([
      "sdk/dist/*.tgz",
      "sdk/dist/*.whl",
      "sdk/schema.json",
    ]);
    expect(workflow.jobs.release.needs).toEqual(["plugin", "sdks"]);
    expect(workflow.jobs.release.permissions).toEqual({ contents: "write" });
    expect(runs("release").join("\n")).toContain('gh release upload "$GITHUB_REF_NAME" artifacts/* --clobber');
  });
});
