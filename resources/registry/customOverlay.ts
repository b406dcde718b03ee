/**
 * The documented `registry.CustomOverlay` message as an input schema: what an overlay layers
 * onto images (accounts, certificates, packages, annotations, environment). An Overlay's
 * `config` and a Repo's `customOverlay` are both this message.
 *
 * Built from the toolkit the core passes to a kind's `inputs`, so loading it loads no zod.
 */
import type { Fields } from "../../core/model/fields";

/** A documented int32 id (a uid or gid of an account): 0 to 2^31-1. */
const accountId = (f: Fields) =>
  f.z
    .number(f.expecting("a whole number"))
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .max(2 ** 31 - 1, "must be at most 2147483647");

/** A named piece of text (a certificate, a keyring key): both required. */
const namedContent = (f: Fields) =>
  f.z.strictObject(
    { name: f.text(), content: f.text(f.limits.content) },
    f.expecting("an object with name and content"),
  );

export function customOverlay(f: Fields) {
  const { z } = f;
  return z.strictObject(
    {
      accounts: z
        .strictObject(
          {
            groups: f
              .list(
                z.strictObject(
                  { groupname: f.text(), gid: accountId(f).optional(), members: f.list(f.text()).optional() },
                  f.expecting("an object with groupname"),
                ),
              )
              .optional(),
            runAs: f.text().optional(),
            users: f
              .list(
                z.strictObject(
                  {
                    username: f.text(),
                    uid: accountId(f).optional(),
                    gid: accountId(f).optional(),
                    groupName: f.text().optional(),
                    homeDir: f.text().optional(),
                    shell: f.text().optional(),
                  },
                  f.expecting("an object with username"),
                ),
              )
              .optional(),
          },
          f.expecting("an object"),
        )
        .optional(),
      annotations: f.stringMap().optional(),
      certificates: z
        .strictObject(
          { additional: f.list(namedContent(f)).optional(), providers: f.list(f.text()).optional() },
          f.expecting("an object"),
        )
        .optional(),
      contents: z
        .strictObject(
          {
            packages: f.list(f.text()).optional(),
            runtimeKeyring: f.list(namedContent(f)).optional(),
            runtimeRepositories: f.list(f.text()).optional(),
          },
          f.expecting("an object"),
        )
        .optional(),
      environment: f.stringMap().optional(),
    },
    f.expecting("an object (accounts, annotations, certificates, contents, environment)"),
  );
}
