/** Security advisories: `getAdvisories({ descendantsOf: orgUid, artifactNames: ["nginx"] })`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../core/common/lazyZod";
import { Collection, defineLookup, InputArgs, listArgs, listRecords } from "../../core/program/lookup";

export const advisorySchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    advisoryId: z.string().optional(),
    /** The id it had in a GitHub advisory repository, for advisories migrated from one. */
    legacyAdvisoryId: z.string().optional(),
    artifactName: z.string().optional(),
    artifactType: z.string().optional(),
    artifactArchitecture: z.string().optional(),
    componentName: z.string().optional(),
    componentType: z.string().optional(),
    componentLocation: z.string().optional(),
    author: z.string().optional(),
    aliases: z.array(z.string()).optional(),
    // Documented events: createTime, author, reviewState and exactly one kind field (fixed, detection, …).
    events: z.array(z.looseObject({ createTime: z.string().optional() })).optional(),
    severities: z.array(z.looseObject({})).optional(),
    createTime: z.string().optional(),
    updateTime: z.string().optional(),
    deleteTime: z.string().optional(),
  }),
);
export type Advisory = z.infer<ReturnType<typeof advisorySchema>>;
const advisories: Collection<Advisory> = {
  domain: "vulnerabilities",
  collection: "advisories",
  noun: "advisory",
  schema: advisorySchema,
};

/** Argument → wire name of the advisory filters. */
const ADVISORY_FILTERS = {
  advisoryIds: "advisory_ids",
  legacyAdvisoryIds: "legacy_advisory_ids",
  artifactNames: "artifact_names",
  artifactTypes: "artifact_types",
  artifactArchitectures: "artifact_architectures",
  componentNames: "component_names",
  componentTypes: "component_types",
  componentLocations: "component_locations",
  aliases: "aliases",
  eventTypes: "event_types",
  query: "query",
  latestEventType: "latest_event_type",
};

const getAdvisoriesArgs = lazily((z) => {
  const names = (words: string) => z.array(z.string().min(1, "must not be empty")).describe(words).optional();
  const text = (words: string) => z.string().min(1, "must not be empty").describe(words).optional();
  return z.strictObject({
    ...listArgs(),
    advisoryIds: names("Only these advisory ids (CGA-…)."),
    legacyAdvisoryIds: names("Advisories migrated from a GitHub advisory repository, by the id they had there."),
    artifactNames: names("Only advisories of artifacts of these exact names."),
    artifactTypes: names("Only advisories of artifacts of these types."),
    artifactArchitectures: names("Only advisories of artifacts of these architectures (x86_64, aarch64, …)."),
    componentNames: names("Only advisories of components of these exact names."),
    componentTypes: names("Only advisories of components of these types."),
    componentLocations: names("Only advisories of components found in these locations (./PKGINFO, …)."),
    aliases: names("Any of these aliases (CVE or GHSA ids)."),
    eventTypes: names("Any event of these types."),
    query: text("Free text, matched case-insensitively in artifact names, component names and aliases."),
    latestEventType: text('The most recent event is of this type (e.g. "fixed").'),
  });
});
export type GetAdvisoriesArgs = z.input<ReturnType<typeof getAdvisoriesArgs>>;
export type GetAdvisoriesOutputArgs = InputArgs<GetAdvisoriesArgs>;
export interface GetAdvisoriesResult {
  advisories: Advisory[];
}

export const advisoriesLookup = defineLookup(
  "getAdvisories",
  getAdvisoriesArgs,
  async (args, client): Promise<GetAdvisoriesResult> => ({
    advisories: await listRecords(client, advisories, args, ADVISORY_FILTERS),
  }),
);

export function getAdvisories(
  args: GetAdvisoriesArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetAdvisoriesResult> {
  return advisoriesLookup.get(args, options);
}

export function getAdvisoriesOutput(
  args: GetAdvisoriesOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetAdvisoriesResult> {
  return advisoriesLookup.output(args, options);
}
