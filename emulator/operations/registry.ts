/**
 * Registry operations beyond the collections: a repo's readme, and the architectures and size
 * of an image digest that one of the repo's tags points at (derived from the digest, so the
 * same digest always answers the same).
 */
import { createHash } from "node:crypto";
import { capability } from "../capabilities";
import { Context } from "../context";
import { OperationHandler } from "../dispatch";
import { notFound } from "../errors";
import { getString } from "../params";
import { Rec } from "../store";
import { recordFor } from "./access";

export const ARCHITECTURES = ["amd64", "arm64"];

function readmeOf(repo: Rec): string {
  return typeof repo.data.readme === "string"
    ? repo.data.readme
    : `# ${repo.name}\n\n${typeof repo.data.description === "string" ? repo.data.description : ""}\n`;
}

const getReadme: OperationHandler = (ctx, { pathParams }) => {
  const repo = recordFor(ctx, "repos", pathParams["repoReadme.uid"], capability(ctx, "repos", "LIST"));
  return { uid: repo.uid, content: readmeOf(repo) };
};

const updateReadme: OperationHandler = (ctx, { pathParams, body }) => {
  const repo = recordFor(ctx, "repos", pathParams["repoReadme.uid"], capability(ctx, "repos", "UPDATE"));
  if (typeof body.content === "string" && body.content !== readmeOf(repo)) {
    ctx.store.of("repos").update(repo, (r) => {
      r.data.readme = body.content;
      r.updateTime = Math.max(ctx.clock.now(), r.updateTime);
    });
    ctx.store.changed();
  }
  return { uid: repo.uid, content: readmeOf(repo) };
};

/** The repo's tag pointing at the digest, or NOT_FOUND naming the digest. */
function taggedDigest(ctx: Context, repoUid: string, digest: string): Rec {
  recordFor(ctx, "repos", repoUid, capability(ctx, "tags", "LIST"));
  const tag = ctx.store
    .of("tags")
    .children(repoUid)
    .find((t) => t.data.digest === digest);
  if (!tag) throw notFound("digest", `${repoUid}@${digest}`);
  return tag;
}

/** A stable number from text (sizes derive from the digest). */
function stableNumber(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

const getArchitectures: OperationHandler = (ctx, { pathParams }) => {
  taggedDigest(ctx, pathParams.repoUid, pathParams.digest);
  return { architectures: ARCHITECTURES };
};

const getSize: OperationHandler = (ctx, { pathParams, params }) => {
  taggedDigest(ctx, pathParams.repoUid, pathParams.digest);
  const architecture = getString(params, "architecture") ?? ARCHITECTURES[0];
  if (!ARCHITECTURES.includes(architecture)) throw notFound("architecture", `${pathParams.digest} ${architecture}`);
  const size = 5_000_000 + (stableNumber(`${pathParams.digest}/${architecture}`) % 95_000_000);
  return { architecture, size: String(size) };
};

export const REGISTRY_OPERATIONS: Record<string, OperationHandler> = {
  ReposService_GetRepoReadme: getReadme,
  ReposService_UpdateRepoReadme: updateReadme,
  ImagesService_GetArchitectures: getArchitectures,
  ImagesService_GetSize: getSize,
};
