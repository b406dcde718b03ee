/**
 * The AccountAssociation provider. This module's exports ARE the provider object, so when the
 * package is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/accountAssociationProvider.js")`: a shim that
 * loads the package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";

/** The documented blocks of iam.AccountAssociation, one per kind of account a group trusts. */
const ACCOUNT_BLOCKS = ["amazon", "azure", "chainguard", "github", "google"] as const;

/** Entries of a map block (client ids, service bindings, app installations), like every other map input. */
const MAX_ENTRIES = 64;
/** The longest name in a map block (a GitHub organization's). */
const MAX_NAME = 256;

const accountAssociation: ResourceKind = {
  typeName: "AccountAssociation",
  noun: "account association",
  domain: "iam",
  collection: "accountAssociations",
  message: "iam.AccountAssociation",
  inputs: (f) => {
    const z = f.z;
    const digits = (what: string, max: number) =>
      z
        .string(f.expecting(`${what} (a string of digits)`))
        .regex(new RegExp(`^\\d{1,${max}}$`), `must be ${what}: digits only, at most ${max}`);
    const block = <T extends Parameters<typeof z.strictObject>[0]>(shape: T, what: string) =>
      z.strictObject(shape, f.expecting(what)).optional();
    const installation = z.strictObject(
      { installationId: digits("a GitHub App installation id", 19), name: f.text().optional() },
      f.expecting("an object with installationId and an optional name"),
    );
    return z.strictObject({
      groupUid: f.uid("a group"),
      name: f.name(),
      description: f.optionalText().optional(),
      amazon: block(
        {
          account: z
            .string(f.expecting("a 12-digit AWS account id"))
            .regex(/^\d{12}$/, "must be a 12-digit AWS account id"),
        },
        "an object with account",
      ),
      azure: block({ tenantId: f.text(), clientIds: f.stringMap(f.text()) }, "an object with tenantId and clientIds"),
      chainguard: block({ serviceBindings: f.stringMap(f.text()) }, "an object with serviceBindings"),
      github: block(
        {
          appInstallations: f
            .map(
              z.strictObject(
                {
                  installations: z
                    .array(installation, f.expecting("a list of installations"))
                    .max(256, "must have at most 256 entries")
                    .optional(),
                },
                f.expecting("an object with installations"),
              ),
              "an object of app installations by GitHub organization",
            )
            // Reported on the map, so a message never carries an oversized name itself.
            .superRefine((map, ctx) => {
              const names = Object.keys(map);
              if (names.length > MAX_ENTRIES)
                ctx.addIssue({ code: "custom", message: `must have at most ${MAX_ENTRIES} entries` });
              if (names.some((name) => name === "" || name.length > MAX_NAME))
                ctx.addIssue({ code: "custom", message: `names must be 1 to ${MAX_NAME} characters` });
            })
            .optional(),
        },
        "an object with appInstallations",
      ),
      google: block(
        { projectId: f.text(), projectNumber: digits("a Google Cloud project number", 20) },
        "an object with projectId and projectNumber",
      ),
    });
  },
  // The create path names the group, and the association's uid is the group's: one per group.
  parentField: "groupUid",
  keyedByParent: true,
  writable: ["name", "description", ...ACCOUNT_BLOCKS],
  // Each block is a message of its own: an update masks only its changed members (`amazon.account`).
  nested: ACCOUNT_BLOCKS,
  replaceOn: ["groupUid"],
  alreadyExistsHint:
    "a group has one account association: declare that one (its uid is the group's), refer to it with " +
    "platform.iam.AccountAssociation.get(name, groupUid) or platform.iam.getAccountAssociation({ uid: groupUid }), " +
    "or delete it first",
};

export = defineProvider(accountAssociation);
