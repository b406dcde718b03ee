/** The kinds derived from an API document: what makes a collection a kind, and what is refused. */
import { ApiDocument, DocOperation, loadApiDocument } from "../apiDocument";
import { kindsOf } from "./registry";

const doc = loadApiDocument();

/** The document with a collection `/iam/v2/gadgets` of message iam.Gadget (fields given), and these capabilities. */
function withGadgets(properties: Record<string, { type: "string" }>, capabilities: string[]): ApiDocument {
  const uid = [{ name: "uid", in: "path" as const, required: true, type: "string" }];
  const op = (operation: string, method: string, suffix: string): DocOperation => ({
    operation: `GadgetsService_${operation}`,
    method,
    path: `/iam/v2/gadgets${suffix}`,
    parameters: suffix ? uid : [],
    answer: { ref: suffix ? "iam.Gadget" : "iam.ListGadgetsResponse" },
  });
  const capability = doc.schemas["capabilities.Capability"];
  return {
    ...doc,
    operations: [...doc.operations, op("ListGadgets", "GET", ""), op("GetGadget", "GET", "/{uid}")],
    schemas: {
      ...doc.schemas,
      "iam.Gadget": { type: "object", properties: { uid: { type: "string" }, ...properties } },
      "capabilities.Capability": { ...capability, enum: [...capability.enum!, ...capabilities] },
    },
  };
}

test("a collection the document serves a record of is a kind; a list-only one (served by its own handler) is not", () => {
  const kinds = kindsOf(doc);
  expect(kinds.groups).toMatchObject({ domain: "iam", message: "iam.Group", singular: "group", uniqueNames: true });
  expect(kinds.overlayBindings).toMatchObject({
    createBody: "registry.OverlayBindingsService.CreateOverlayBindingBody",
    operations: ["list", "get", "create", "delete"],
  });
  // Terms acceptances have no collection in the document: their file says where they live.
  expect(kinds.termsAcceptances).toMatchObject({ domain: "iam", operations: [] });
  for (const listOnly of ["documents", "metadata", "artifacts", "ping", "requestedLibraries"])
    expect([listOnly, kinds[listOnly]]).toEqual([listOnly, undefined]);
});

test("a generic kind: read-only operations as documented, names not unique when the message has none", () => {
  const caps = ["LIST", "CREATE", "UPDATE", "DELETE"].map((verb) => `CAP_IAM_GADGETS_${verb}`);
  expect(kindsOf(withGadgets({ label: { type: "string" } }, caps)).gadgets).toMatchObject({
    singular: "gadget",
    parentKind: "groups",
    uniqueNames: false,
    operations: ["list", "get"],
    capabilities: { LIST: "CAP_IAM_GADGETS_LIST", UPDATE: "CAP_IAM_GADGETS_UPDATE" },
  });
});

test("a collection whose capabilities the document's enum lacks is refused, naming the kind, the capability and the file", () => {
  expect(() => kindsOf(withGadgets({ name: { type: "string" } }, ["CAP_IAM_GADGETS_LIST"]))).toThrow(
    "emulator kind gadgets: CREATE needs CAP_IAM_GADGETS_CREATE, which capabilities.Capability does not name: " +
      "give the kind its capabilities in emulator/kinds/gadgets.ts",
  );
});
