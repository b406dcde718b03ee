/**
 * The example organization's stories under the real Pulumi CLI (tests/support/realCliOrgStories.ts),
 * its program compiled to CommonJS as ts-node would; and the repository root's Pulumi.yaml, which
 * runs the same program for a `pulumi up` at the root.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { exampleDir } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { describeRealCliOrgStories } from "../support/realCliOrgStories";

jest.setTimeout(300_000);

describeRealCliOrgStories({
  title: "the example organization under the real Pulumi CLI (Automation API, file backend)",
  esm: false,
  wholeStory: true,
  label: "org",
});

test("the root Pulumi.yaml is the example's project, its main the example's folder", () => {
  const field = (file: string, name: string) =>
    new RegExp(`^${name}: (.+)$`, "m").exec(fs.readFileSync(file, "utf8"))?.[1];
  const root = path.join(repoRoot, "Pulumi.yaml");
  const example = path.join(exampleDir, "Pulumi.yaml");
  for (const name of ["name", "runtime", "description"]) expect(field(root, name)).toBe(field(example, name));
  expect(path.resolve(repoRoot, field(root, "main")!)).toBe(exampleDir);
  expect(fs.existsSync(path.join(exampleDir, "index.ts"))).toBe(true);
});
