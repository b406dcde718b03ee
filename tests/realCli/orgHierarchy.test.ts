/**
 * The example organization's stories under the real Pulumi CLI (tests/support/realCliOrgStories.ts),
 * its program compiled to CommonJS as ts-node would.
 */
import { describeRealCliOrgStories } from "../support/realCliOrgStories";

jest.setTimeout(300_000);

describeRealCliOrgStories({
  title: "the example organization under the real Pulumi CLI (Automation API, file backend)",
  esm: false,
  label: "org",
});
