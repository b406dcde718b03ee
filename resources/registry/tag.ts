/** Tags of repos: `getTags({ repoUid })`, narrowed by name, digest or update time. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../provider/lazyZod";
import { Collection, defineLookup, InputArgs, listArgs, listRecords, LookupOptions } from "../../provider/lookup";

export const tagSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    digest: z.string(),
    deprecated: z.boolean().optional(),
    bundles: z.array(z.string()).optional(),
    updateTime: z.string().optional(),
  }),
);
export type Tag = z.infer<ReturnType<typeof tagSchema>>;
const tags: Collection<Tag> = { domain: "registry", collection: "tags", noun: "tag", schema: tagSchema };

const getTagsArgs = lazily((z) => {
  const { childrenOf: _tagsUseRepoUid, ...sharedArgs } = listArgs();
  return z.strictObject({
    ...sharedArgs,
    /** The repo whose tags to list (its direct children). */
    repoUid: z.string().min(1, "must not be empty").optional(),
    digest: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: followed by 64 lowercase hex characters")
      .optional(),
    /** Only tags updated at or after this time (RFC 3339, or a Date). */
    updatedSince: z
      .preprocess(
        (v) => (v instanceof Date ? v.toISOString() : v),
        z.iso.datetime({
          offset: true,
          message: "must be an RFC 3339 timestamp such as 2024-05-01T00:00:00Z, or a Date",
        }),
      )
      .optional(),
    includeReferrers: z.boolean().optional(),
    includeDates: z.boolean().optional(),
    includeEpochs: z.boolean().optional(),
  });
});
/** updatedSince is an RFC 3339 string or a Date. */
export type GetTagsArgs = Omit<z.input<ReturnType<typeof getTagsArgs>>, "updatedSince"> & {
  updatedSince?: string | Date;
};
export type GetTagsOutputArgs = InputArgs<GetTagsArgs>;
export interface GetTagsResult {
  tags: Tag[];
}

const TAG_FILTERS = {
  repoUid: "uidp.children_of",
  digest: "digest",
  updatedSince: "updated_since",
  includeReferrers: "include_referrers",
  includeDates: "include_dates",
  includeEpochs: "include_epochs",
};

const tagsLookup = defineLookup<ReturnType<typeof getTagsArgs>, GetTagsResult, GetTagsArgs>(
  "getTags",
  getTagsArgs,
  async (args, client): Promise<GetTagsResult> => ({
    tags: await listRecords(client, tags, args, TAG_FILTERS),
  }),
);

export function getTags(args: GetTagsArgs = {}, options?: LookupOptions): Promise<GetTagsResult> {
  return tagsLookup.get(args, options);
}

export function getTagsOutput(args: GetTagsOutputArgs = {}, options?: LookupOptions): pulumi.Output<GetTagsResult> {
  return tagsLookup.output(args, options);
}
