/**
 * The account association of a group: the cloud accounts (AWS, Azure, Google, GitHub, …) it
 * trusts. One per group, and its uid is the group's.
 */
import { KindRules } from "./kind";

export const PROVIDERS = ["amazon", "azure", "chainguard", "github", "google"] as const;

export const accountAssociations: KindRules = {
  // The documents key an association by its group: every path takes the group's uid.
  keyedByParent: true,
  idempotentDelete: true,
  check: (values) => {
    const amazon = values.amazon as Record<string, unknown> | undefined;
    return typeof amazon?.account === "string" && !/^\d{12}$/.test(amazon.account)
      ? [{ field: "amazon.account", description: "must be a 12-digit AWS account id" }]
      : [];
  },
  defaults: { description: "" },
};
