/**
 * The account association of a group: everything the package knows about the kind, and the
 * only place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";

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
  docs: {
    summary:
      "The account association of a group: the cloud and source-control accounts (AWS, Azure,\n" +
      "Google Cloud, GitHub, Chainguard) the group trusts, managed by Pulumi. A group has one, and\n" +
      "its uid, the resource's id, is the group's uid. (A state written by earlier versions holds a\n" +
      "uid of its own below the group as the id; refresh, update and destroy still find the record\n" +
      "through the group, and a refresh replaces the id with the group's uid.)\n" +
      "\n" +
      "Every field updates in place with one PATCH; a block's update masks only its changed members\n" +
      "(`amazon.account`, `azure.clientIds`). Moving it to another group replaces it.",
    example: {
      name: "aws",
      inputs: { groupUid: { $uidOf: "Group" }, name: "aws-production", amazon: { account: "123456789012" } },
    },
    fields: {
      uid: "The association's uid: its group's uid. Same as `id`.",
      adopted: "true when the record existed and was taken over (`adopt`) rather than created.",
      groupUid: "The group whose associations these are. Changing it replaces the association.",
      name: "The association's name (a group has one association).",
      description: '"" when none was given.',
      amazon: "An AWS account the group trusts.",
      "amazon.account": "The 12-digit account id.",
      azure: "An Azure tenant and the application (client) ids the group trusts there.",
      "azure.clientIds": "Client ids by name.",
      chainguard: "Bindings of Chainguard services to the group's identities, by service.",
      github: "GitHub App installations the group trusts, by GitHub organization.",
      "github.appInstallations.installations.installationId":
        "The GitHub App installation's id (digits, as a string: an int64 on the wire).",
      google: "A Google Cloud project the group trusts.",
      "google.projectNumber": "Digits, as a string.",
      adopt:
        "Take over the group's existing association instead of failing (then\n" +
        "one PATCH brings it to the declared values; see the adoption guide, docs/guides/existing-organization.md). Never sent to the API.\n" +
        "Defaults to the stack-wide `platform:adopt`.",
    },
    replacedWhen:
      "`groupUid` changes; everything else updates in place, a block's update masking only its changed members " +
      "(`amazon.account`, `azure.clientIds`). A second association for a group fails with ALREADY_EXISTS (adopt the " +
      "existing one with `adopt: true`). A state written by 0.1.x, whose id is a uid of its own below the group, " +
      "still refreshes (the id becomes the group's uid), updates and destroys",
  },
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
                  installations: f.list(installation).optional(),
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
  parentCollection: "groups",
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

export default accountAssociation;
