/**
 * The example organization under the real Pulumi CLI (tests/support/realCliOrgStories.ts), its
 * program compiled to an ES module (index.mjs) that the Automation API runner loads with import(),
 * as the Node.js language host loads a program whose package is `"type": "module"`: it creates and
 * destroys the organization (orgHierarchy.test.ts tells the rest of the story on CommonJS); and
 * the example type-checked against the package's published declarations.
 */
import { exampleDir } from "../../tools/orgProject";
import { describeRealCliOrgStories } from "../support/realCliOrgStories";
import { typeErrors } from "../support/typeCheck";

jest.setTimeout(300_000);

describeRealCliOrgStories({
  title: "the example organization as an ES module under the real Pulumi CLI (Automation API, file backend)",
  esm: true,
  wholeStory: false,
  label: "org-esm",
});

describe("the example program's types", () => {
  test("the example type-checks against the package's published declarations", () => {
    expect(typeErrors(exampleDir, "typecheck")).toEqual([]);
  });
});
