import type { PackageSchema } from "../../../native/schema";
import { enumsPage, longEnums, NamedTypes } from "./tables";

const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ value: `${prefix}_${i}` }));

/** A schema holding only types: two long enums with the same values, one long enum of its own and a short one. */
const schema = {
  types: {
    "p:m:Zeta": { type: "string", enum: many("Z", 30) },
    "p:m:Alpha": { type: "string", enum: many("A", 25) },
    "p:m:AlphaAgain": { type: "string", enum: many("A", 25) },
    "p:m:Short": { type: "string", enum: many("S", 3) },
  },
} as unknown as PackageSchema;

test("a long enum is listed once on the enums page, types with the same values under one heading", () => {
  expect(longEnums(schema).map((group) => [group.heading, group.tokens])).toEqual([
    ["Alpha", ["p:m:Alpha", "p:m:AlphaAgain"]],
    ["Zeta", ["p:m:Zeta"]],
  ]);
  const page = enumsPage(schema, "<!-- note -->");
  expect(page.match(/^## .*/gm)).toEqual(["## Alpha", "## Zeta"]);
  expect(page.match(/^- `A_0`$/gm)).toHaveLength(1);
  expect(page).toContain("`p:m:Alpha`, `p:m:AlphaAgain`: an enum (a string) of 25 values.");
  expect(page).not.toContain("S_0");
});

test("a page links a long enum to its heading on the enums page and writes a short one out", () => {
  const named = new NamedTypes(schema);
  named.visit({ $ref: "#/types/p:m:AlphaAgain" }, "kinds");
  named.visit({ $ref: "#/types/p:m:Short" }, "size");
  const sections = named.sections(() => undefined, "../enums.md").join("\n");
  expect(sections).toContain(
    "### AlphaAgain\n\nAn enum (a string) of 25 values: [Alpha](../enums.md#alpha) lists them.",
  );
  expect(sections).toContain("### Short\n\nAn enum (a string) of 3 values: `S_0`, `S_1`, `S_2`.");
  expect(sections).not.toContain("A_0");
});
