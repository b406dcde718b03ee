/** Security token service operations besides the exchange (sts.ts): headless login sessions. */
import { OperationHandler } from "../dispatch";
import { invalidField } from "../errors";
import { getString } from "../params";

/**
 * A headless login session is polled by its code until the user completes the login in a
 * browser; the emulator has no browser login, so a session never completes: the empty message.
 */
const headlessSession: OperationHandler = (_ctx, { params }) => {
  if (!getString(params, "code")) throw invalidField("code", "is required: the code of the headless login session");
  return {};
};

export const STS_OPERATIONS: Record<string, OperationHandler> = {
  Auth_GetHeadlessSession: headlessSession,
};
