/** Groups: the organization's hierarchy; the root organization is a group with a one-segment uid. */
import groupDescription, { GROUP_NAME_PATTERN } from "../../resources/iam/group/description";
import { failedPrecondition } from "../errors";
import { Store } from "../store";
import { ResourceDef, servedAs } from "./kind";
import { removeRecord } from "./registry";

export { GROUP_NAME_PATTERN };

/** Kinds whose records below a group keep it from being deleted. */
const BLOCKING: Array<[Parameters<Store["of"]>[0], string]> = [
  ["repos", "repos"],
  ["groups", "child groups"],
  ["identities", "identities"],
];

export const groups: ResourceDef = {
  ...servedAs(groupDescription),
  uniqueNames: true,
  operations: ["list", "get", "create", "update", "delete"],
  check: (values) =>
    typeof values.name === "string" && !GROUP_NAME_PATTERN.test(values.name)
      ? [{ field: "name", description: `must match ${GROUP_NAME_PATTERN.source}` }]
      : [],
  defaults: { description: "", resourceLimits: {}, verified: false },
  onDelete: (ctx, rec) => {
    const { store } = ctx;
    const blockers = BLOCKING.flatMap(([kind, label]) => {
      const count = store.of(kind).byParent.get(rec.uid)?.size ?? 0;
      return count > 0
        ? [
            {
              type: "RESOURCE_NOT_EMPTY",
              subject: rec.uid,
              description: `group "${rec.uid}" still has ${count} ${label}; delete them first`,
            },
          ]
        : [];
    });
    if (blockers.length) throw failedPrecondition(blockers);
    // What is defined on the group goes with it: access granted there, its roles, settings.
    for (const kind of [
      "roleBindings",
      "groupInvites",
      "identityProviders",
      "accountAssociations",
      "subscriptions",
      "overlays",
    ] as const)
      for (const child of store.of(kind).children(rec.uid)) removeRecord(ctx, kind, child);
    for (const role of store.of("roles").children(rec.uid)) removeRecord(ctx, "roles", role);
  },
};
