/**
 * zod, loaded where a schema is first used instead of when the package is required. Every
 * `pulumi preview` requires this package, yet its schemas run only later: a check inside the
 * provider host, a look-up's first call, an error answer to decode. Loading zod (95 files) at
 * require time would cost every program about 80 ms for nothing; the first use pays it once.
 *
 * Types stay exact: modules `import type { z } from "zod"` and build values through these.
 */
import type * as Zod from "zod";

export type Z = typeof Zod.z;

let loaded: Z | undefined;

/** The zod namespace, required on the first call. */
export function zod(): Z {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
  return (loaded ??= (require("zod") as typeof Zod).z);
}

/** A value built with zod on its first use and kept: `const schema = lazily((z) => z.object(…))`. */
export function lazily<T>(build: (z: Z) => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build(zod()) }).value;
}
