/**
 * Every kind's description agrees with the API documents: its message is documented, every
 * field it sends is a writable property of that message (under its wire name), every field the
 * message requires is among them, and its `__provider` module path is where the class loads it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Provider } from "../provider/lifecycle";
import { repoRoot } from "../tools/host/stage";

interface Property {
  readOnly?: boolean;
}
interface Message {
  required?: string[];
  properties?: Record<string, Property>;
}

const documents = JSON.parse(
  fs.readFileSync(path.join(repoRoot, "..", "shared", "reference", "api-v2-schema.json"), "utf8"),
) as { schemas: Record<string, Message>; operations: Array<{ method: string; path: string; body?: { ref?: string } }> };

const MODULES = [
  "iam/groupProvider",
  "iam/identityProvider",
  "iam/roleBindingProvider",
  "iam/roleProvider",
  "iam/groupInviteProvider",
  "iam/accountAssociationProvider",
  "iam/externalGroupRoleMappingProvider",
];

describe.each(MODULES)("%s", (module) => {
  const { kind } = require(`./${module}`) as Provider;

  test("its message is documented and is what the create operation takes", () => {
    expect(documents.schemas[kind.message]).toBeDefined();
    const create = documents.operations.find(
      (o) => o.method === "POST" && o.path === `/${kind.domain}/v2/${kind.collection}/{uid}`,
    );
    expect(create?.body?.ref).toBe(kind.message);
  });

  test("it sends only writable properties of the message, and every required one", () => {
    const message = documents.schemas[kind.message];
    const wire = (field: string) => kind.wireNames?.[field] ?? field;
    for (const field of kind.writable) {
      const property = message.properties?.[wire(field)];
      expect({ field, documented: property !== undefined, readOnly: property?.readOnly === true }).toEqual({
        field,
        documented: true,
        readOnly: false,
      });
    }
    for (const required of message.required ?? []) expect(kind.writable.map(wire)).toContain(required);
    expect(kind.writable).not.toContain(kind.parentField);
  });

  test("nested, replace-on, exclusive, secret fields name its own inputs or outputs", () => {
    for (const field of [...(kind.nested ?? []), ...(kind.exclusive ?? []), ...(kind.unordered ?? [])])
      expect(kind.writable).toContain(field);
    for (const field of kind.replaceOn) expect(kind.compared).toContain(field);
    for (const field of kind.secrets ?? []) expect(documents.schemas[kind.message].properties).toHaveProperty(field);
  });
});
