/**
 * The example organization's user stories (tests/support/orgStories.ts) with the program compiled
 * as CommonJS, run through the root Pulumi.yaml (`main: examples/org-hierarchy/`), as `pulumi up`
 * at the repository root runs it: create the hierarchy; re-run unchanged; rename a group (one
 * PATCH); move a group (a replacement); drift made in the console is detected and repaired;
 * destroy leaves the organization as it was. The same stories as an ES module: tests/e2e-esm.test.ts.
 */
import { describeOrgStories } from "./support/orgStories";
import { repoRoot } from "../tools/host/stage";

jest.setTimeout(180_000);

describeOrgStories({
  title: "the example organization, CommonJS, through the root Pulumi.yaml",
  cwd: repoRoot,
  esm: false,
  label: "cjs",
});
