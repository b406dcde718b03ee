/** Check: the kind's inputs validated before any request (core/model/check.ts); none is sent. */
import type * as CheckModule from "../../model/check";
import { refuseUnservedVersion } from "../callDeadlines";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import type { Props } from "../../common/values";

/** The validation library loads on the first check, not when a kind is described. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
const loadCheck = () => require("../../model/check") as typeof CheckModule;

export function check({ kind, registerSecrets }: KindContext): Lifecycle["check"] {
  return async (olds: Props, news: Props) => {
    registerSecrets(olds, news);
    refuseUnservedVersion(kind);
    return loadCheck().checkInputs(kind, news);
  };
}
