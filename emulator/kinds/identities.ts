/**
 * Identities: who may assume them, as exactly one of claimMatch (OIDC issuer and subject),
 * awsIdentity, staticKeys (an issuer's keys given inline) or servicePrincipal.
 */
import { FieldViolation } from "../errors";
import { patternViolations } from "../patterns";
import { crud, iso, KindRules } from "./kind";

export const IDENTITY_KINDS = ["claimMatch", "awsIdentity", "staticKeys", "servicePrincipal"] as const;

const isSet = (key: string, value: unknown) =>
  value !== undefined && value !== null && !(key === "servicePrincipal" && value === "SERVICE_PRINCIPAL_UNSPECIFIED");

/** Exactly one of an exact field and its pattern (or at most one when optional); patterns are RE2. */
function pair(
  prefix: string,
  value: Record<string, unknown>,
  exact: string,
  pattern: string,
  required: boolean,
): FieldViolation[] {
  const has = [exact, pattern].filter((k) => value[k] !== undefined && value[k] !== "");
  if (has.length === 2)
    return [{ field: `${prefix}.${exact}`, description: `set either ${exact} or ${pattern}, not both` }];
  if (has.length === 0 && required)
    return [{ field: `${prefix}.${exact}`, description: `is required (or ${pattern})` }];
  return patternViolations(`${prefix}.${pattern}`, value[pattern]);
}

function checkClaimMatch(value: Record<string, unknown>): FieldViolation[] {
  const out = [
    ...pair("claimMatch", value, "issuer", "issuerPattern", true),
    ...pair("claimMatch", value, "subject", "subjectPattern", true),
    ...pair("claimMatch", value, "audience", "audiencePattern", false),
  ];
  for (const [claim, pattern] of Object.entries((value.claimPatterns ?? {}) as Record<string, unknown>))
    out.push(...patternViolations(`claimMatch.claimPatterns.${claim}`, pattern));
  return out;
}

function checkAwsIdentity(value: Record<string, unknown>): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (typeof value.awsAccount === "string" && !/^\d{12}$/.test(value.awsAccount))
    out.push({ field: "awsIdentity.awsAccount", description: "must be a 12-digit AWS account id" });
  out.push(...pair("awsIdentity", value, "arn", "arnPattern", false));
  out.push(...pair("awsIdentity", value, "userId", "userIdPattern", false));
  return out;
}

function checkStaticKeys(value: Record<string, unknown>): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const key of ["issuer", "subject"])
    if (value[key] === "") out.push({ field: `staticKeys.${key}`, description: "must not be empty" });
  let keys: unknown;
  try {
    keys = JSON.parse(String(value.issuerKeys));
  } catch {
    keys = undefined;
  }
  if (!keys || typeof keys !== "object" || !Array.isArray((keys as { keys?: unknown }).keys))
    out.push({ field: "staticKeys.issuerKeys", description: 'must be a JSON Web Key Set: {"keys": [...]}' });
  return out;
}

function checkIdentity(values: Record<string, unknown>): FieldViolation[] {
  const set = IDENTITY_KINDS.filter((k) => isSet(k, values[k]));
  if (set.length !== 1)
    return [
      {
        field: set[1] ?? "claimMatch",
        description: `an identity has exactly one of ${IDENTITY_KINDS.join(", ")}${set.length ? ` (got ${set.join(", ")})` : ""}`,
      },
    ];
  const object = (key: string) => values[key] as Record<string, unknown>;
  switch (set[0]) {
    case "claimMatch":
      return checkClaimMatch(object("claimMatch"));
    case "awsIdentity":
      return checkAwsIdentity(object("awsIdentity"));
    case "staticKeys":
      return checkStaticKeys(object("staticKeys"));
    default:
      return [];
  }
}

export const identities: KindRules = {
  capabilities: crud("CAP_IAM_IDENTITY"),
  editable: true,
  check: checkIdentity,
  initialData: (_ctx, _values, now) => ({ lastSeenTime: now }),
  defaults: { description: "" },
  derived: (rec) => ({
    // An empty company is none, and so is the unspecified service principal.
    company: rec.data.company || undefined,
    servicePrincipal: isSet("servicePrincipal", rec.data.servicePrincipal) ? rec.data.servicePrincipal : undefined,
    // A record without a sign-in time (an older state file's) was last seen when it was created.
    lastSeenTime: iso(Number(rec.data.lastSeenTime ?? rec.createTime)),
  }),
  filters: (params) => {
    const wanted = params.get("relationship_type")?.at(-1);
    const field: Record<string, string> = {
      RELATIONSHIP_TYPE_CLAIM_MATCH: "claimMatch",
      RELATIONSHIP_TYPE_STATIC: "staticKeys",
      RELATIONSHIP_TYPE_AWS_IDENTITY: "awsIdentity",
      RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: "servicePrincipal",
    };
    const key = wanted ? field[wanted] : undefined;
    return { predicates: key ? [(r) => isSet(key, r.data[key])] : [], signature: [key] };
  },
};
