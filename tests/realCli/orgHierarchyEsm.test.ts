/**
 * The example organization's stories under the real Pulumi CLI (tests/support/realCliOrgStories.ts),
 * its program compiled to an ES module (index.mjs) that the Automation API runner loads with
 * import(), as the Node.js language host loads a program whose package is `"type": "module"`.
 */
import { describeRealCliOrgStories } from "../support/realCliOrgStories";

jest.setTimeout(300_000);

describeRealCliOrgStories({
  title: "the example organization as an ES module under the real Pulumi CLI (Automation API, file backend)",
  esm: true,
  label: "org-esm",
});
