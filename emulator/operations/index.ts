/** Handlers of the operations that are not a collection's List/Get/Create/Update/Delete, by documented name. */
import { OperationHandler } from "../dispatch";
import { ADVISORY_OPERATIONS } from "./advisory";
import { IAM_OPERATIONS } from "./iam";
import { LIBRARIES_OPERATIONS } from "./libraries";
import { REGISTRY_OPERATIONS } from "./registry";
import { STS_OPERATIONS } from "./sts";

export const OPERATIONS: Record<string, OperationHandler> = {
  ...IAM_OPERATIONS,
  ...REGISTRY_OPERATIONS,
  ...ADVISORY_OPERATIONS,
  ...LIBRARIES_OPERATIONS,
  ...STS_OPERATIONS,
};
