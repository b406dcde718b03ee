/**
 * Look-ups of tags: `getTag({ uid })` or by name in a repo, `getTags({ repoUid })` narrowed by
 * name, digest or update time.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../../core/common/lazyZod";
import { collectionOf, kindLookups } from "../../../core/program/kindLookups";
import { defineLookup, InputArgs, listArgs, listRecords, OneByUidOrNameArgs } from "../../../core/program/lookup";
import tag from "./description";
import type { TagRecord } from "./resource";

/** What a look-up needs of a tag record; its type is the generated TagRecord (resource.ts). */
export const tagSchema = lazily((z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<TagRecord>);
const tags = collectionOf<TagRecord>(tag, tagSchema);

const getTagsArgs = lazily((z) => {
  const { childrenOf: _tagsUseRepoUid, ...sharedArgs } = listArgs();
  return z.strictObject({
    ...sharedArgs,
    repoUid: z
      .string()
      .min(1, "must not be empty")
      .describe("The repo whose tags to list (its direct children).")
      .optional(),
    digest: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: followed by 64 lowercase hex characters")
      .describe("Only tags of this digest (sha256: and 64 lowercase hex characters).")
      .optional(),
    updatedSince: z
      .preprocess(
        (v) => (v instanceof Date ? v.toISOString() : v),
        z.iso.datetime({
          offset: true,
          message: "must be an RFC 3339 timestamp such as 2024-05-01T00:00:00Z, or a Date",
        }),
      )
      .describe("Only tags updated at or after this time (RFC 3339, or a Date).")
      .optional(),
    includeReferrers: z.boolean().describe('Include tags of the form "sha256-*".').optional(),
    includeDates: z.boolean().describe('Include tags of the form "*-20yymmdd".').optional(),
    includeEpochs: z.boolean().describe('Include tags of the form "*-r[0-9]+".').optional(),
  });
});
/** updatedSince is an RFC 3339 string or a Date. */
export type GetTagsArgs = Omit<z.input<ReturnType<typeof getTagsArgs>>, "updatedSince"> & {
  updatedSince?: string | Date;
};
export type GetTagsOutputArgs = InputArgs<GetTagsArgs>;
export interface GetTagsResult {
  tags: TagRecord[];
}

const TAG_FILTERS = {
  repoUid: "uidp.children_of",
  digest: "digest",
  updatedSince: "updated_since",
  includeReferrers: "include_referrers",
  includeDates: "include_dates",
  includeEpochs: "include_epochs",
};

export const tagsLookup = defineLookup<ReturnType<typeof getTagsArgs>, GetTagsResult, GetTagsArgs>(
  "getTags",
  getTagsArgs,
  async (args, client): Promise<GetTagsResult> => ({
    tags: await listRecords(client, tags, args, TAG_FILTERS),
  }),
);

export function getTags(args: GetTagsArgs = {}, options?: pulumi.InvokeOptions): Promise<GetTagsResult> {
  return tagsLookup.get(args, options);
}

export function getTagsOutput(
  args: GetTagsOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetTagsResult> {
  return tagsLookup.output(args, options);
}

export type GetTagArgs = OneByUidOrNameArgs;
export type GetTagOutputArgs = InputArgs<GetTagArgs>;

const tagLookup = kindLookups<TagRecord, never>(tag, tagSchema).one;

/** One tag by uid, or by exact name within a repo (`childrenOf: repo.uid`); an error on none or several. */
export function getTag(args: GetTagArgs, options?: pulumi.InvokeOptions): Promise<TagRecord> {
  return tagLookup.get(args, options);
}

export function getTagOutput(args: GetTagOutputArgs, options?: pulumi.InvokeOutputOptions): pulumi.Output<TagRecord> {
  return tagLookup.output(args, options);
}
