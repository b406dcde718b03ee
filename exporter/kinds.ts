/**
 * The kinds an export reads and declares: every provider module the package has
 * (`resources/<domain>/<kind>Provider`), each carrying the description it was made from. A
 * kind added to resources/ is exported without a change here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Kind } from "../provider/kind";

export interface ExportedKind {
  /** The namespace a program reaches it through: `platform.<domain>.<typeName>`. */
  domain: string;
  kind: Kind;
}

const resourcesDir = path.join(__dirname, "..", "resources");

/** Every managed kind, in a stable order (domain, then the order of their folder listing by name). */
export function exportedKinds(): ExportedKind[] {
  const kinds: ExportedKind[] = [];
  for (const domain of fs.readdirSync(resourcesDir).sort()) {
    const dir = path.join(resourcesDir, domain);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir).sort()) {
      if (!/Provider\.js$/.test(file)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the kinds are found on disk
      const provider = require(path.join(dir, file)) as { kind?: Kind };
      // A part of another kind's record (a SCIM token) has no records of its own to export.
      if (provider.kind && !provider.kind.partOf) kinds.push({ domain, kind: provider.kind });
    }
  }
  return kinds;
}
