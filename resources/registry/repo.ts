/**
 * Look-ups of repos that already exist: `getRepo({ uid })` or by name, `getRepos({ descendantsOf })`.
 * Where repos live in the API comes from the Repo kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../provider/kindLookups";
import { lazily } from "../../provider/lazyZod";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../provider/lookup";
import repoProvider = require("./repoProvider");

// Repo is the name of the managed resource class; what a look-up returns is a plain record
// of the service's fields, hence RepoRecord.
export const repoSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    description: z.string().optional(),
    catalogTier: z.string().optional(),
    bundles: z.array(z.string()).optional(),
    aliases: z.array(z.string()).optional(),
    activeTags: z.array(z.string()).optional(),
    sync_config: z.record(z.string(), z.unknown()).optional(),
    customOverlay: z.record(z.string(), z.unknown()).optional(),
    createTime: z.string().optional(),
    updateTime: z.string().optional(),
  }),
);
export type RepoRecord = z.infer<ReturnType<typeof repoSchema>>;

export type GetReposArgs = ListArgs;
export type GetReposOutputArgs = InputArgs<GetReposArgs>;
export interface GetReposResult {
  repos: RepoRecord[];
}

const repos = kindLookups<RepoRecord, GetReposResult>(repoProvider.kind, repoSchema);

export function getRepos(args: GetReposArgs = {}, options?: pulumi.InvokeOptions): Promise<GetReposResult> {
  return repos.many.get(args, options);
}

export function getReposOutput(
  args: GetReposOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetReposResult> {
  return repos.many.output(args, options);
}

export type GetRepoArgs = OneByUidOrNameArgs;
export type GetRepoOutputArgs = InputArgs<GetRepoArgs>;

/** One repo by uid, or by exact name within an optional scope; an error on none or several. */
export function getRepo(args: GetRepoArgs, options?: pulumi.InvokeOptions): Promise<RepoRecord> {
  return repos.one.get(args, options);
}

export function getRepoOutput(
  args: GetRepoOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<RepoRecord> {
  return repos.one.output(args, options);
}
