/**
 * What an instance lacks that the vendor's provider requires, read from the provider's schema as
 * vendorProvider.ts restates it: every required attribute of every type, and the one-of blocks.
 */
import { MANAGED_TYPES, missingRequired } from "./vendorProvider";

/** An instance of the type with every required attribute (and the first of a one-of) set. */
function complete(type: string): Record<string, unknown> {
  const managed = MANAGED_TYPES[type];
  const attributes: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(managed.attributes))
    if (attribute.use === "required") attributes[name] = typeof attribute.value === "string" ? "x" : ["x"];
  if (managed.oneOf) attributes[managed.oneOf.attributes[0]] = { set: "x" };
  return attributes;
}

test("each required attribute of each type, absent, null or an empty text, is named", () => {
  for (const [type, managed] of Object.entries(MANAGED_TYPES)) {
    expect([type, missingRequired(managed, complete(type))]).toEqual([type, []]);
    for (const [name, attribute] of Object.entries(managed.attributes)) {
      if (attribute.use !== "required") continue;
      for (const lacking of [undefined, null, ...(attribute.value === "string" ? [""] : [])])
        expect([type, missingRequired(managed, { ...complete(type), [name]: lacking })]).toEqual([type, [name]]);
    }
  }
  // A required set may be empty (a role with no capabilities); optional attributes may be unset.
  expect(missingRequired(MANAGED_TYPES.chainguard_role, { ...complete("chainguard_role"), capabilities: [] })).toEqual(
    [],
  );
  expect(missingRequired(MANAGED_TYPES.chainguard_group, { name: "a", parent_id: null, description: null })).toEqual(
    [],
  );
});

test("the issue's cases: a group, a binding, an identity, a subscription, a role", () => {
  expect(missingRequired(MANAGED_TYPES.chainguard_group, { id: "g", name: null })).toEqual(["name"]);
  expect(missingRequired(MANAGED_TYPES.chainguard_rolebinding, { id: "b" })).toEqual(["group", "identity", "role"]);
  expect(
    missingRequired(MANAGED_TYPES.chainguard_identity, {
      parent_id: null,
      name: null,
      claim_match: null,
      description: "d",
    }),
  ).toEqual(["parent_id", "name", "exactly one of service_principal, aws_identity, claim_match, static"]);
  expect(missingRequired(MANAGED_TYPES.chainguard_subscription, { parent_id: "p", sink: null })).toEqual(["sink"]);
  expect(missingRequired(MANAGED_TYPES.chainguard_role, { name: "r", capabilities: ["repo.list"] })).toEqual([
    "parent_id",
  ]);
});

test("one-of blocks: exactly one for an identity, at least one for an association; an empty list sets none", () => {
  const identity = { parent_id: "p", name: "n" };
  expect(missingRequired(MANAGED_TYPES.chainguard_identity, { ...identity, static: { issuer: "i" } })).toEqual([]);
  expect(
    missingRequired(MANAGED_TYPES.chainguard_identity, { ...identity, static: { issuer: "i" }, claim_match: {} }),
  ).toEqual(["exactly one of service_principal, aws_identity, claim_match, static (it has claim_match, static)"]);
  const association = { name: "n", group: "g" };
  expect(
    missingRequired(MANAGED_TYPES.chainguard_account_associations, { ...association, github_installation: [] }),
  ).toEqual(["at least one of amazon, google, azure, chainguard, github, github_installation"]);
  expect(
    missingRequired(MANAGED_TYPES.chainguard_account_associations, {
      ...association,
      amazon: { account: "1" },
      google: { project_id: "p" },
    }),
  ).toEqual([]);
});
