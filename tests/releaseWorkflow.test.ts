/**
 * The release workflow (.github/workflows/release.yml): it passes actionlint (tools/actionlint, as
 * the GitHub Actions example does), runs on a version tag, builds the plugin archive (`npm run
 * plugin`) and the command-line tool's (`npm run cli-archive`) on a runner of each of the five
 * platforms, the SDK packages with `npm run sdks`, attaches what they print and write to the tag's
 * release, and publishes the npm package with provenance. Nothing in it runs here: no GitHub; the
 * linux-amd64 archives are the ones the real-CLI tests build and run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { repoRoot } from "../tools/host/stage";
import { actionlint } from "./support/actionlint";

const WORKFLOW = path.join(repoRoot, ".github", "workflows", "release.yml");

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<
    string,
    {
      steps: Step[];
      needs?: string[];
      permissions?: Record<string, string>;
      "runs-on"?: string;
      strategy?: { matrix: { include: Array<{ platform: string; runner: string }> } };
    }
  >;
}

describe("the release workflow", () => {
  const workflow = YAML.parse(fs.readFileSync(WORKFLOW, "utf8")) as Workflow;
  const runs = (job: string) => workflow.jobs[job].steps.flatMap((step) => (step.run ? [step.run] : []));

  test("passes actionlint", () => {
    expect(actionlint(WORKFLOW)).toEqual({ status: 0, findings: "", stderr: "" });
  });

  test("on a version tag, builds the plugin's and the CLI's archives on a runner of each platform, and the SDK packages, and attaches them to the release", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*"] } });
    const executables = workflow.jobs.executables;
    expect(executables["runs-on"]).toBe("${{ matrix.runner }}");
    expect(executables.strategy?.matrix.include).toEqual([
      { platform: "linux-amd64", runner: "ubuntu-24.04" },
      { platform: "linux-arm64", runner: "ubuntu-24.04-arm" },
      { platform: "darwin-amd64", runner: "macos-15-intel" },
      { platform: "darwin-arm64", runner: "macos-15" },
      { platform: "windows-amd64", runner: "windows-2022" },
    ]);
    // The plugin's front (native/front) is built by the plugin build with the runner's Go.
    const go = executables.steps.find((step) => step.uses?.startsWith("actions/setup-go"));
    expect(go?.with).toEqual({ "go-version": "1.26", "cache-dependency-path": "native/front/go.sum" });
    expect(executables.steps.indexOf(go!)).toBeLessThan(executables.steps.findIndex((step) => step.id === "plugin"));
    expect(runs("executables").join("\n")).toContain("npm run -s plugin | tail -n 1");
    expect(runs("executables").join("\n")).toContain("npm run -s cli-archive | tail -n 1");
    expect(runs("executables").join("\n")).toContain('require("./package.json").version');
    const built = executables.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"));
    expect(built?.with?.path.split("\n").filter(Boolean)).toEqual([
      "${{ steps.plugin.outputs.file }}",
      "${{ steps.cli.outputs.file }}",
    ]);
    expect(runs("sdks")).toContain("npm run sdks");
    const uploaded = workflow.jobs.sdks.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"));
    expect(uploaded?.with?.path.split("\n").filter(Boolean)).toEqual([
      "sdk/dist/*.tgz",
      "sdk/dist/*.whl",
      "sdk/schema.json",
    ]);
    expect(workflow.jobs.release.needs).toEqual(["executables", "sdks"]);
    expect(workflow.jobs.release.permissions).toEqual({ contents: "write" });
    expect(runs("release").join("\n")).toContain('gh release upload "$GITHUB_REF_NAME" artifacts/* --clobber');
  });

  test("macOS executables are unsigned before the blob goes in and signed ad hoc after, as Node's documentation says", () => {
    const sea = fs.readFileSync(path.join(repoRoot, "tools", "plugin", "sea.ts"), "utf8");
    const order = ['["--remove-signature", output]', '"--macho-segment-name", "NODE_SEA"', '["--sign", "-", output]'];
    const at = order.map((text) => sea.indexOf(text));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  test("publishes the npm package with provenance, with the workflow's OIDC token, after the release", () => {
    expect(workflow.jobs.npm.needs).toEqual(["release"]);
    expect(workflow.jobs.npm.permissions).toEqual({ contents: "read", "id-token": "write" });
    expect(runs("npm")).toContain("npm publish --provenance --access public");
  });
});
