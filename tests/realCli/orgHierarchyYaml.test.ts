/**
 * examples/org-hierarchy-yaml, the example organization as a YAML program on the native provider,
 * under the REAL Pulumi CLI by plain `pulumi` commands (pulumi-yaml's language host is built beside
 * the CLI), the plugin found through Pulumi.yaml plugins.providers in the package's native/ folder:
 * the story of tests/support/nativeOrgStory.ts. The CI role is looked up by the program with
 * `fn::invoke` of the schema's platform:iam:getRole. (tests/realCli/pluginArchive.test.ts runs the
 * same program on the plugin installed from its archive.)
 */
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { describeNativeOrgStory } from "../support/nativeOrgStory";
import { yamlProgram } from "../support/yamlProgram";

jest.setTimeout(600_000);

describeNativeOrgStory("the example organization as a YAML program on the native provider, under the real Pulumi CLI", {
  exampleDir: path.join(repoRoot, "examples", "org-hierarchy-yaml"),
  project: "org-hierarchy-yaml",
  prepare: yamlProgram,
});
