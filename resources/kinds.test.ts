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
  ref?: string;
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
  "iam/idpProvider",
  "iam/roleBindingProvider",
  "iam/roleProvider",
  "iam/groupInviteProvider",
  "iam/accountAssociationProvider",
  "iam/externalGroupRoleMappingProvider",
  "registry/repoProvider",
];

/** The documented property at a dotted path of the message (`oidc.clientSecret`), following refs. */
function propertyAt(message: string, path: string): Property | undefined {
  let current: Message | undefined = documents.schemas[message];
  let property: Property | undefined;
  for (const key of path.split(".")) {
    property = current?.properties?.[key];
    current = property?.ref ? documents.schemas[property.ref] : undefined;
  }
  return property;
}

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
    for (const field of kind.secrets ?? [])
      expect([field, propertyAt(kind.message, field)]).toEqual([field, expect.anything()]);
    // Write-only members are members of writable message inputs, documented and not read-only.
    for (const path of kind.writeOnly) {
      expect(kind.nested).toContain(path.split(".")[0]);
      expect([path, propertyAt(kind.message, path)?.readOnly]).toEqual([path, undefined]);
      expect([path, propertyAt(kind.message, path)]).toEqual([path, expect.anything()]);
    }
  });

  test("each companion document is a documented message with its field, read and written at its path", () => {
    for (const companion of kind.companions) {
      expect(propertyAt(companion.message, companion.field)).toBeDefined();
      const path = `/${kind.domain}/v2/${kind.collection}/{${companion.message.split(".")[1].replace(/^./, (c) => c.toLowerCase())}.uid}/${companion.suffix}`;
      const methods = documents.operations.filter((o) => o.path === path).map((o) => o.method);
      expect([path, methods.sort()]).toEqual([path, ["GET", "PATCH"]]);
    }
  });
});
