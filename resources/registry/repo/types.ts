/**
 * The names earlier versions exported for the shapes inside a Repo (its sync configuration, the
 * service's additions to it, its custom overlay), now derived from the generated class: the
 * description is the only place they are written.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RepoArgs, RepoState } from "./resource";

/** A value of an Args or State property, without its Promise and Output forms. */
type Plain<T> = Exclude<NonNullable<T>, Promise<unknown> | pulumi.OutputInstance<unknown>>;

/** Where a repo's images are synced from and to, as a program gives it (`sync_config` on the wire). */
export type SyncConfigArgs = Plain<RepoArgs["syncConfig"]>;
/** Where a repo's images are synced from and to, as its outputs hold it. */
export type SyncConfig = Plain<RepoState["syncConfig"]>;
/** What the service adds to a repo's sync configuration (read-only). */
export type SyncState = Plain<RepoState["syncState"]>;
/** The documented registry.CustomOverlay message: what is layered onto a repo's images. */
export type CustomOverlay = Plain<RepoState["customOverlay"]>;
/** A named piece of text of a custom overlay (a certificate, a keyring key). */
export type NamedContent = NonNullable<NonNullable<CustomOverlay["certificates"]>["additional"]>[number];
