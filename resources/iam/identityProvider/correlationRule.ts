/** The documented iam.IdentityProvider.OIDC.CorrelationRule values (tests hold them equal to the API documents). */
export const CORRELATION_RULES = [
  "CORRELATION_RULE_UNSPECIFIED",
  "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
  "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
] as const;

export type CorrelationRule = (typeof CORRELATION_RULES)[number];

/** The enum's zero value: what the service answers for a rule never set, and what a program leaves out. */
export const UNSPECIFIED_RULE = "CORRELATION_RULE_UNSPECIFIED";
