/**
 * Look-ups of repos that already exist: `getRepo({ uid })` or by name, `getRepos({ descendantsOf })`.
 * Where repos live in the API comes from the Repo kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../../core/program/lookup";
import repo from "./description";
import type { RepoRecord } from "./resource";

// Repo is the name of the managed resource class; what a look-up returns is a plain record
// of the service's fields, hence RepoRecord.
/** What a look-up needs of a repo record; its type is the generated RepoRecord (resource.ts). */
export const repoSchema = lazily((z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<RepoRecord>);

export type GetReposArgs = ListArgs;
export type GetReposOutputArgs = InputArgs<GetReposArgs>;
export interface GetReposResult {
  repos: RepoRecord[];
}

const repos = kindLookups<RepoRecord, GetReposResult>(repo, repoSchema);

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
