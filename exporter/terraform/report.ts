/**
 * What `export --from-terraform` tells its user besides what it wrote: on stderr, the instances
 * skipped (data sources, other providers) and left out (`--partial`), and what each migrated
 * state says otherwise than its record; on stdout, the secrets to set (never their values) and
 * the `terraform state rm` lines that let Terraform forget the migrated records, so that neither
 * tool deletes what the other now manages.
 */
import { oneLine } from "../text";
import { shellWord } from "./address";
import type { TerraformExportResult } from "./index";

export function terraformReport(result: TerraformExportResult): { stdout: string[]; stderr: string[] } {
  const several = result.forget.length > 1;
  // With several states, one address can be in two of them: each line names its file.
  const where = (p: { file: string; address: string }) => `${oneLine(p.address)}${several ? ` (${p.file})` : ""}`;
  const stderr: string[] = [];
  if (result.skipped.length > 0)
    stderr.push(
      `platform-pulumi export: skipped ${result.skipped.length} instance(s) that are not the vendor's provider's records:`,
      ...result.skipped.map((p) => `  ${where(p)}: ${oneLine(p.why)}`),
    );
  if (result.passed.length > 0)
    stderr.push(
      `platform-pulumi export: left out ${result.passed.length} instance(s) (--partial; Terraform still manages them):`,
      ...result.passed.map((p) => `  ${where(p)}: ${oneLine(p.why)}`),
    );
  if (result.notes.length > 0)
    stderr.push(
      "platform-pulumi export: what Terraform's state says that the program does not declare (also in a comment above each resource):",
      ...result.notes.flatMap((note) => note.lines.map((line) => `  ${where(note)}: ${oneLine(line)}`)),
    );

  const stdout: string[] = [];
  for (const secret of result.secrets)
    stdout.push(
      `Set the secret ${secret.key} (the ${secret.attribute} of ${where(secret)}: the value Terraform applied is in ` +
        `its state): pulumi config set --secret ${secret.key} <value>`,
    );
  stdout.push(
    "Once `pulumi import` or `pulumi up` has brought them in and `pulumi preview --refresh --expect-no-changes` is clean, " +
      "let Terraform forget them (it deletes nothing), then remove their resource blocks from the configuration:",
  );
  for (const { file, addresses } of result.forget) {
    if (addresses.length === 0) continue;
    if (several) stdout.push(`  # in the configuration whose state is ${oneLine(file)}:`);
    for (const address of addresses) stdout.push(`  terraform state rm ${shellWord(address)}`);
  }
  return { stdout, stderr };
}
