/**
 * Every kind's description agrees with the API documents: its message is documented, every
 * field it sends is a writable property of that message (under its wire name), every field the
 * message requires is among them. Every kind the package has is checked: the provider modules
 * are found on disk, as the exporter finds them.
 */
import { DocSchema, loadApiDocument } from "../emulator/apiDocument";
import { exportedKinds } from "../exporter/kinds";

/** The documents the emulator serves from (the repository's api/api-v2-schema.json, copied by the build). */
const documents = loadApiDocument();
/** Every documented operation, GA and v2beta1-only, with the version segment written `v2`. */
const operations = [...documents.operations, ...documents.v2beta1Only].map((o) => ({
  ...o,
  path: o.path.replace(/^(\/[^/]+)\/v2beta1\//, "$1/v2/"),
}));

/** Every kind the package has: each provider module under resources/ (as the exporter finds them). */
const KINDS = new Map(exportedKinds().map(({ domain, kind }) => [`${domain}/${kind.typeName}`, kind]));

/** The documented property at a dotted path of the message (`oidc.clientSecret`), following refs. */
function propertyAt(message: string, path: string): DocSchema | undefined {
  let current: DocSchema | undefined = documents.schemas[message];
  let property: DocSchema | undefined;
  for (const key of path.split(".")) {
    property = current?.properties?.[key];
    current = property?.ref ? documents.schemas[property.ref] : undefined;
  }
  return property;
}

describe.each([...KINDS.keys()])("%s", (module) => {
  const kind = KINDS.get(module)!;

  /** What the create operation takes: the record's message, or a documented body of its own (an overlay binding's). */
  const createBody = () =>
    operations.find((o) => o.method === "POST" && o.path === `/${kind.domain}/v2/${kind.collection}/{uid}`)?.body?.ref;

  test("its message is documented and the create operation takes it or a create body of its own", () => {
    expect(documents.schemas[kind.message]).toBeDefined();
    expect([kind.message, `${kind.message}sService.Create${kind.typeName}Body`]).toContain(createBody());
  });

  test("it sends only writable properties of what the create takes, and every required one", () => {
    const message = documents.schemas[createBody()!];
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

  test("its List takes uidp.ids and answers, under the collection's name, the message its Get answers (reads that overlap are answered by one List: core/runtime/readBatches.ts)", () => {
    const at = `/${kind.domain}/v2/${kind.collection}`;
    const list = operations.find((o) => o.method === "GET" && o.path === at);
    const get = operations.find((o) => o.method === "GET" && o.path === `${at}/{uid}`);
    expect(list?.parameters?.find((p) => p.name === "uidp.ids")).toMatchObject({ in: "query", type: "array" });
    const listed = documents.schemas[list!.answer.ref!].properties?.[kind.collection];
    expect(listed).toMatchObject({ type: "array", items: { ref: get!.answer.ref } });
    // A part of another kind's record (a SCIM token) reads that record: its Get answers the other message.
    if (!kind.partOf) expect(get!.answer.ref).toBe(kind.message);
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

  test("its parent collection is a documented collection of some domain (groups live in iam)", () => {
    const gets = operations.filter((o) => o.method === "GET").map((o) => o.path);
    expect(gets).toContainEqual(expect.stringMatching(new RegExp(`^/[a-z]+/v2/${kind.parentCollection}/\\{uid\\}$`)));
  });

  test("the time a lost create is recognised by is its message's own; a kind whose message has none lists first", () => {
    const properties = documents.schemas[kind.message].properties ?? {};
    if (kind.createdAtField === null) {
      expect(properties.createTime).toBeUndefined();
      expect(properties.updateTime).toBeUndefined();
    } else {
      expect(properties[kind.createdAtField]).toMatchObject({ readOnly: true });
      // updateTime stands in only where the message has no createTime and the API no update.
      if (kind.createdAtField !== "createTime") {
        expect(properties.createTime).toBeUndefined();
        expect(
          operations.some((o) => o.method === "PATCH" && o.path === `/${kind.domain}/v2/${kind.collection}/{uid}`),
        ).toBe(false);
      }
    }
  });

  test("each companion document is a documented message with its field, read and written at its path", () => {
    for (const companion of kind.companions) {
      expect(propertyAt(companion.message, companion.field)).toBeDefined();
      const path = `/${kind.domain}/v2/${kind.collection}/{${companion.message.split(".")[1].replace(/^./, (c) => c.toLowerCase())}.uid}/${companion.suffix}`;
      const methods = operations.filter((o) => o.path === path).map((o) => o.method);
      expect([path, methods.sort()]).toEqual([path, ["GET", "PATCH"]]);
    }
  });
});
