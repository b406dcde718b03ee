/** Repos are read-only here: `getRepo({ uid })` or by name, `getRepos({ descendantsOf })`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../provider/lazyZod";
import {
  Collection,
  defineLookup,
  findOne,
  InputArgs,
  listArgs,
  listRecords,
  LookupOptions,
  oneByUidOrName,
  OneByUidOrNameArgs,
} from "../../provider/lookup";

export const repoSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    description: z.string().optional(),
    catalogTier: z.string().optional(),
    bundles: z.array(z.string()).optional(),
    aliases: z.array(z.string()).optional(),
    activeTags: z.array(z.string()).optional(),
    sync: z.record(z.string(), z.unknown()).optional(),
    overlay: z.record(z.string(), z.unknown()).optional(),
    createTime: z.string().optional(),
    updateTime: z.string().optional(),
  }),
);
export type Repo = z.infer<ReturnType<typeof repoSchema>>;
const repos: Collection<Repo> = { domain: "registry", collection: "repos", noun: "repo", schema: repoSchema };

const getReposArgs = lazily((z) => z.strictObject({ ...listArgs() }));
export type GetReposArgs = z.input<ReturnType<typeof getReposArgs>>;
export type GetReposOutputArgs = InputArgs<GetReposArgs>;
export interface GetReposResult {
  repos: Repo[];
}

const reposLookup = defineLookup("getRepos", getReposArgs, async (args, client): Promise<GetReposResult> => ({
  repos: await listRecords(client, repos, args),
}));

export function getRepos(args: GetReposArgs = {}, options?: LookupOptions): Promise<GetReposResult> {
  return reposLookup.get(args, options);
}

export function getReposOutput(args: GetReposOutputArgs = {}, options?: LookupOptions): pulumi.Output<GetReposResult> {
  return reposLookup.output(args, options);
}

export type GetRepoArgs = OneByUidOrNameArgs;
export type GetRepoOutputArgs = InputArgs<GetRepoArgs>;

const repoLookup = defineLookup("getRepo", oneByUidOrName, (args, client): Promise<Repo> =>
  findOne(client, repos, args),
);

/** One repo by uid, or by exact name within an optional scope; an error on none or several. */
export function getRepo(args: GetRepoArgs, options?: LookupOptions): Promise<Repo> {
  return repoLookup.get(args, options);
}

export function getRepoOutput(args: GetRepoOutputArgs, options?: LookupOptions): pulumi.Output<Repo> {
  return repoLookup.output(args, options);
}
