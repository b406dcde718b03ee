/** The enums the checks use are the documented ones, nothing more or less. */
import { loadApiDocument } from "../emulator/apiDocument";
import { CORRELATION_RULES } from "./iam/identityProvider/correlationRule";
import { CAPABILITIES, SERVICE_PRINCIPALS } from "./iam/enums";
import { CATALOG_TIERS } from "./registry/catalogTier";

const documents = loadApiDocument();

/** The documented enum `name`, less its zero value `zero` when given. */
const documented = (name: string, zero?: string) => {
  const values = documents.schemas[name].enum ?? [];
  if (zero === undefined) return values;
  expect(values).toContain(zero);
  return values.filter((v) => v !== zero);
};

test("CAPABILITIES is the documented capabilities.Capability enum without UNKNOWN", () => {
  expect([...CAPABILITIES]).toEqual(documented("capabilities.Capability", "UNKNOWN"));
});

test("SERVICE_PRINCIPALS is the documented iam.ServicePrincipal enum without its zero value", () => {
  expect([...SERVICE_PRINCIPALS]).toEqual(documented("iam.ServicePrincipal", "SERVICE_PRINCIPAL_UNSPECIFIED"));
});

test("CORRELATION_RULES is the documented iam.IdentityProvider.OIDC.CorrelationRule enum", () => {
  expect([...CORRELATION_RULES]).toEqual(documented("iam.IdentityProvider.OIDC.CorrelationRule"));
});

test("CATALOG_TIERS is the documented registry.CatalogTier enum", () => {
  expect([...CATALOG_TIERS]).toEqual(documented("registry.CatalogTier"));
});
