/** Groups: the organization's hierarchy; the root organization is a group with a one-segment uid. */
import { KindRules } from "./kind";

/** The service's rule for a group's name (the documents give none): the emulator's own, not the provider's. */
export const GROUP_NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

export const groups: KindRules = {
  editable: true,
  // What is defined on a group goes with it (access granted there, its roles, settings); these must go first.
  blockedBy: [
    ["repos", "repos"],
    ["groups", "child groups"],
    ["identities", "identities"],
  ],
  check: (values) =>
    typeof values.name === "string" && !GROUP_NAME_PATTERN.test(values.name)
      ? [{ field: "name", description: `must match ${GROUP_NAME_PATTERN.source}` }]
      : [],
  defaults: { description: "", resourceLimits: {}, verified: false },
};
