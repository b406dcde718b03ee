/**
 * The example organization's user stories (tests/support/orgStories.ts) with the program compiled
 * to an ES module (index.mjs, loaded with import()), run from the example's own folder; and the
 * example type-checked against the package's published declarations.
 */
import { exampleDir } from "../tools/orgProject";
import { describeOrgStories } from "./support/orgStories";
import { typeErrors } from "./support/typeCheck";

jest.setTimeout(180_000);

describeOrgStories({
  title: "the example organization as an ES module, from its own folder",
  cwd: exampleDir,
  esm: true,
  label: "esm",
});

describe("the example program's types", () => {
  test("the example type-checks against the package's published declarations", () => {
    expect(typeErrors(exampleDir, "typecheck")).toEqual([]);
  });
});
