/** Repos are read-only here: `getRepo({ uid })` or by name, `getRepos({ descendantsOf })`. */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { defineLookup, exactlyOne, InputArgs, listArgs, listQuery, LookupOptions, oneByUidOrName, OneByUidOrNameArgs, parseResource, scopeText } from "../../provider/lookup";
import { listAll } from "../../provider/pagination";

export const repoSchema = z.looseObject({
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
});
export type Repo = z.infer<typeof repoSchema>;

const getReposArgs = z.strictObject({ ...listArgs });
export type GetReposArgs = z.input<typeof getReposArgs>;
export type GetReposOutputArgs = InputArgs<GetReposArgs>;
export interface GetReposResult {
  repos: Repo[];
}

const reposLookup = defineLookup("getRepos", getReposArgs, async (args, client): Promise<GetReposResult> => ({
  repos: await listAll(client, { domain: "registry", collection: "repos", query: listQuery(args), skip: args.skip, limit: args.limit, schema: repoSchema }),
}));

export function getRepos(args: GetReposArgs = {}, options?: LookupOptions): Promise<GetReposResult> {
  return reposLookup.get(args, options);
}

export function getReposOutput(args: GetReposOutputArgs = {}, options?: LookupOptions): pulumi.Output<GetReposResult> {
  return reposLookup.output(args, options);
}

export type GetRepoArgs = OneByUidOrNameArgs;
export type GetRepoOutputArgs = InputArgs<GetRepoArgs>;

const repoLookup = defineLookup("getRepo", oneByUidOrName, async (args, client): Promise<Repo> => {
  if (args.uid !== undefined) return parseResource("repo", repoSchema, await client.request({ method: "GET", domain: "registry", path: `repos/${args.uid}` }));
  const matches = await listAll(client, { domain: "registry", collection: "repos", query: listQuery(args), schema: repoSchema });
  return exactlyOne("repo", matches.filter((r) => r.name === args.name), `name "${args.name}"${scopeText(args)}`);
});

/** One repo by uid, or by exact name within an optional scope; an error on none or several. */
export function getRepo(args: GetRepoArgs, options?: LookupOptions): Promise<Repo> {
  return repoLookup.get(args, options);
}

export function getRepoOutput(args: GetRepoOutputArgs, options?: LookupOptions): pulumi.Output<Repo> {
  return repoLookup.output(args, options);
}
