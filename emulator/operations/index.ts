/** Handlers of the operations that are not a collection's List/Get/Create/Update/Delete, by documented name. */
import { OperationHandler } from "../dispatch";

export const OPERATIONS: Record<string, OperationHandler> = {};
