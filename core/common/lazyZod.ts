/**
 * zod (95 files), loaded where a schema is first used (a check, a look-up, an error to decode), not
 * when a program requires the package. Types stay exact: modules `import type { z } from "zod"`.
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
