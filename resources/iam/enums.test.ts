/** The enums the checks use are the documented ones, nothing more or less. */
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { CAPABILITIES, SERVICE_PRINCIPALS } from "./enums";

const documented = (name: string, zero: string) => {
  const documents = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "..", "shared", "reference", "api-v2-schema.json"), "utf8"),
  ) as { schemas: Record<string, { enum?: string[] }> };
  const values = documents.schemas[name].enum ?? [];
  expect(values).toContain(zero);
  return values.filter((v) => v !== zero);
};

test("CAPABILITIES is the documented capabilities.Capability enum without UNKNOWN", () => {
  expect([...CAPABILITIES]).toEqual(documented("capabilities.Capability", "UNKNOWN"));
});

test("SERVICE_PRINCIPALS is the documented iam.ServicePrincipal enum without its zero value", () => {
  expect([...SERVICE_PRINCIPALS]).toEqual(documented("iam.ServicePrincipal", "SERVICE_PRINCIPAL_UNSPECIFIED"));
});
