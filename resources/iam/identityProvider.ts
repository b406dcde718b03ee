/**
 * The Identity provider. This module's exports ARE the provider object, so when the package
 * is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/identityProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import { z } from "zod";
import {
  CheckFailure,
  ResourceKind,
  defineProvider,
  expecting,
  oneOf,
  parentOfUid,
  shown,
  uidSchema,
} from "../../provider/resource";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An issuer is an https URL; plain http only on loopback (local emulators and test issuers). */
const issuerUrl = z.string(expecting("an https URL")).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}, "must be an https URL (plain http only for localhost)");

const text = () => z.string(expecting("a string")).min(1, "must not be empty");

const pattern = () =>
  text().refine((value) => {
    try {
      new RegExp(value);
      return true;
    } catch {
      return false;
    }
  }, "must be a valid regular expression");

const stringMap = () => z.record(z.string(), z.string(expecting("a string")), expecting("an object of strings"));

const claimMatch = z.strictObject(
  {
    issuer: issuerUrl.optional(),
    issuerPattern: pattern().optional(),
    subject: text().optional(),
    subjectPattern: pattern().optional(),
    audience: text().optional(),
    audiencePattern: pattern().optional(),
    claims: stringMap().optional(),
    claimPatterns: stringMap().optional(),
  },
  expecting("an object with issuer (or issuerPattern) and subject (or subjectPattern)"),
);

const rules = (inputs: Record<string, unknown>): CheckFailure[] => [
  ...oneOf(inputs.claimMatch, "claimMatch", "issuer", "issuerPattern", true),
  ...oneOf(inputs.claimMatch, "claimMatch", "subject", "subjectPattern", true),
  ...oneOf(inputs.claimMatch, "claimMatch", "audience", "audiencePattern", false),
];

const label = (props: Record<string, unknown>) =>
  `identity${props.name ? ` "${shown(props.name)}"` : ""}${props.uid ? ` (${shown(props.uid)})` : props.parentUid ? ` under "${shown(props.parentUid)}"` : ""}`;

const identity: ResourceKind = {
  typeName: "Identity",
  noun: "identity",
  collection: "identities",
  inputs: z.strictObject({
    parentUid: uidSchema("a group", "path"),
    name: text(),
    description: z.string(expecting("a string")).optional(),
    claimMatch,
  }),
  rules,
  parentField: "parentUid",
  writable: ["name", "description", "claimMatch"],
  nested: ["claimMatch"],
  replaceOn: ["parentUid"],
  toOutputs: (record) => ({ ...record, parentUid: parentOfUid(record.uid) }),
  label,
  adoptionQuery: (inputs) => ({ "uidp.children_of": String(inputs.parentUid), name: String(inputs.name) }),
  alreadyExistsHint:
    "choose another name, delete the existing identity, or refer to it with platform.iam.Identity.get(name, uid) instead of creating it",
};

export = defineProvider(identity);
