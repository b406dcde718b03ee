#!/usr/bin/env node
/**
 * `platform-pulumi emulator --port N [--state FILE] [--no-seed] [--require-patch-fields] [--latency-ms N]
 * [--rate-limit N]`: runs the local Platform
 * API v2 emulator until interrupted, printing the base URL and the dev owner token.
 * `platform-pulumi export --under <group uid> [--out DIR] [--import-file FILE] [--language LANGUAGE] [--js]
 * [--manage-deletes] [--partial]`: writes a Pulumi project declaring everything below that group, in
 * TypeScript, JavaScript, YAML or Python, or Pulumi's import file for the native provider (exporter/).
 * `platform-pulumi export --from-terraform FILE [FILE…]` with the same options: the records the vendor's Terraform
 * provider manages in those states, named after their Terraform addresses (exporter/terraform/).
 * `platform-pulumi drift --under <group uid> [--stack NAME]… [--stack-file FILE]… [--terraform-state FILE]…`:
 * what changed, what is gone and what no source manages below that group (drift/).
 */
import { parseArgs } from "node:util";

const USAGE = `Usage: platform-pulumi emulator [--port N] [--state FILE] [--no-seed] [--token-ttl SECONDS] [--require-patch-fields]
                                 [--latency-ms N] [--rate-limit N] [--quiet]
       platform-pulumi export --under GROUP_UID [--out DIR] [--import-file FILE] [--language typescript|javascript|yaml|python]
                              [--js] [--manage-deletes] [--name PROJECT] [--partial]
       platform-pulumi export --from-terraform FILE [FILE...] [the same options but --under]
       platform-pulumi drift --under GROUP_UID [--stack NAME]... [--stack-file FILE]... [--terraform-state FILE]...
                             [--cwd DIR] [--format text|json|markdown] [--fail-on changed,deleted,unmanaged,conflicts]
                             [--import-file FILE] [--ignore FILE]

emulator:
  --port N             port on 127.0.0.1 (default 8080; 0 picks a free port)
  --state FILE         keep the emulator's data in FILE across restarts
  --no-seed            start without the sample repos, tags and advisories
  --token-ttl SECONDS  lifetime of tokens from /sts/exchange (default 3600)
  --require-patch-fields
                       the vendor documents' stricter reading of updates: every field they mark
                       required in every PATCH body (default: the spec's rules, a PATCH carries
                       only what it changes)
  --latency-ms N       answer every request N milliseconds late, as a service far away does
  --rate-limit N       let each token send N requests a second (a burst of N), then answer 429
                       RESOURCE_EXHAUSTED with Retry-After, as a rate-limited service does
  --quiet              do not log internal errors

export (settings from the environment: PLATFORM_API_URL, and PLATFORM_TOKEN or PLATFORM_IDENTITY
with PLATFORM_IDENTITY_TOKEN_FILE, as the provider reads them):
  --under GROUP_UID    export every record below this group (the group itself is not declared)
  --from-terraform FILE [FILE...]
                       export the records the vendor's Terraform provider (registry.terraform.io/chainguard-dev/
                       chainguard) manages in these states instead: each a terraform.tfstate (format 4, what
                       \`terraform state pull\` prints) or the output of \`terraform show -json\`, in UTF-8 (a byte
                       order mark is fine; UTF-16 or other bytes are refused, named by offset). Each resource is
                       named after its Terraform address; the command then prints the \`terraform state rm\` lines
                       that let Terraform forget them (docs/guides/migrate-from-terraform.md)
  --out DIR            the project folder to write (default: platform-export, unless only --import-file is given); new or empty
  --import-file FILE   write Pulumi's import file for the native provider \`platform\` (type tokens, names, ids) for
                       \`pulumi import --file FILE\`; records no import can bring in (an invite: its code) are left out
                       as --partial says
  --language LANGUAGE  the program's language (default typescript):
                         typescript  index.ts, tsconfig.json and package.json, on this package's classes
                         javascript  index.js (CommonJS) and package.json, on this package's classes
                         yaml        Pulumi.yaml is the program (runtime yaml), on the native provider \`platform\`
                         python      __main__.py and requirements.txt (runtime python), on the native provider's
                                     Python SDK
                       YAML and Python projects run on the native provider's plugin, installed once from its
                       release archive: pulumi plugin install resource platform VERSION --file ARCHIVE
  --js                 the same as --language javascript
  --manage-deletes     leave out retainOnDelete: removing a resource from the program deletes its record
  --name PROJECT       the Pulumi project name (default: platform-<last segment of the uid>)
  --partial            write the program even if some records cannot be declared as they are (the provider
                       would refuse them, or a program cannot carry them; from Terraform, also a type this
                       package does not manage, a root organization, an id that is no uid, an instance lacking an
                       attribute the vendor's provider requires, or a record gone from the organization; never a
                       tainted or deposed instance, a record under two addresses or a file it cannot read): they
                       are left out, each named in a comment and on stderr; without it such an export writes nothing
                       and exits 1. Under PLATFORM_API_VERSION=v2 it also leaves out unread the kinds only v2beta1
                       serves (overlays, overlay bindings), which without it refuse the export

drift (settings from the environment as for export): reads every record below the group (one paginated List per
kind) and compares it with what the given stacks and states last applied, record by record:
  changed     a managed record whose live value of a field its source declares differs (each field named with the
              recorded and the live value; a secret field only named)
  deleted     a managed record that is gone
  unmanaged   a record below the group that no source manages (with coverage: managed / all, per kind)
  conflicts   a record two sources (or two resources of one) manage
  pending     resources of a stack's pending operations (an interrupted up), with the way back
              (docs/guides/interrupted-up.md)
  --under GROUP_UID    the group whose descendants are read (every source's records must be below it)
  --stack NAME         a stack of the Pulumi project in --cwd: runs \`pulumi stack export --stack NAME --show-secrets\`
                       with your backend and credentials (secrets are compared, never shown); repeatable
  --stack-file FILE    the output of \`pulumi stack export\` (version 3); repeatable. Native resources (platform:*) and
                       this package's dynamic ones are read; other providers' resources are skipped and counted.
                       Values the file keeps encrypted are not compared
  --terraform-state FILE
                       a terraform.tfstate (format 4) or \`terraform show -json\` of the vendor's Terraform provider,
                       read as export --from-terraform reads it; repeatable
  --cwd DIR            where --stack runs pulumi (default: the current folder)
  --format FORMAT      text (default: a short tree by parent, coloured on a terminal), json (one object: under,
                       requests, coverage, changed, deleted, unmanaged, conflicts, pending) or markdown (a
                       pull-request comment or $GITHUB_STEP_SUMMARY)
  --fail-on LIST       which findings make the exit code 3 (default: changed,deleted,unmanaged,conflicts)
  --import-file FILE   write Pulumi's import file for the unmanaged records (as export --import-file writes one):
                       \`pulumi import --file FILE\` brings them in
  --ignore FILE        records meant to stay unmanaged, never reported as such: JSON or YAML with any of
                         uids:  [<uid>, ...]                   those records
                         types: [platform:iam:Identity, ...]   every record of those kinds
                         names: ["ci-*", "sandbox-?"]          records whose name matches (* any run, ? one character)
  Built-in roles and the records of groups above are never read, so never reported.
  Exit codes: 0 nothing --fail-on counts was found; 3 something was; 1 an error (no report is printed, nothing is
  called clean); 2 a usage error`;

function fail(message: string): never {
  console.error(`platform-pulumi: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integerFlag(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) fail(`--${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

async function runEmulator(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: "string" },
        state: { type: "string" },
        "no-seed": { type: "boolean" },
        "token-ttl": { type: "string" },
        "require-patch-fields": { type: "boolean" },
        "latency-ms": { type: "string" },
        "rate-limit": { type: "string" },
        quiet: { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const port = integerFlag("port", values.port, 8080);
  if (port > 65535) fail(`--port must be at most 65535, got ${port}`);
  const rateLimit = values["rate-limit"] === undefined ? undefined : integerFlag("rate-limit", values["rate-limit"], 0);
  if (rateLimit === 0) fail("--rate-limit must be at least 1 request a second");
  // Each command loads only its own modules: the emulator is no part of an export or a drift.
  const { startEmulator } = await import("./emulator");
  let emulator;
  try {
    emulator = await startEmulator({
      port,
      statePath: values.state,
      seed: !values["no-seed"],
      tokenTtlSeconds: integerFlag("token-ttl", values["token-ttl"], 3600),
      requirePatchFields: values["require-patch-fields"],
      latencyMs: integerFlag("latency-ms", values["latency-ms"], 0),
      rateLimit,
      quiet: values.quiet,
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    fail(
      e.code === "EADDRINUSE"
        ? `port ${port} is already in use; pick another with --port, or --port 0 for any free port`
        : e.message,
    );
  }
  console.log(`Platform API emulator listening on ${emulator.url}`);
  console.log(`PLATFORM_API_URL=${emulator.url}`);
  console.log(`PLATFORM_TOKEN=${emulator.token}`);
  console.log(`Root organization: ${emulator.rootUid}`);
  console.log(`OIDC issuer: ${emulator.issuer}`);
  if (values.state) console.log(`State file: ${values.state}`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

async function runExport(args: string[]): Promise<void> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: {
        under: { type: "string" },
        "from-terraform": { type: "string", multiple: true },
        out: { type: "string" },
        "import-file": { type: "string" },
        language: { type: "string" },
        js: { type: "boolean", default: false },
        "manage-deletes": { type: "boolean", default: false },
        name: { type: "string" },
        partial: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const states = values["from-terraform"];
  if (states && values.under) fail("give --under or --from-terraform, not both");
  if (!states && !values.under) fail("export needs --under <group uid> or --from-terraform <state file>");
  // More state files may follow the first: `--from-terraform a.tfstate b.json`.
  if (positionals.length > 0 && !states) fail(`unexpected argument "${positionals[0]}"`);
  // Loaded here: the emulator command needs none of the provider.
  const { exportOrganization, leftOutLine, LANGUAGES, pluginInstallCommand } = await import("./exporter");
  const language = values.language;
  if (language !== undefined && !(LANGUAGES as readonly string[]).includes(language))
    fail(`--language must be one of ${LANGUAGES.join(", ")}, got "${language}"`);
  if (values.js && language !== undefined && language !== "javascript")
    fail(`--js is --language javascript: it cannot go with --language ${language}`);
  const { sharedClient } = await import("./core/transport/client");
  const started = Date.now();
  // The project folder by default; with only --import-file, the import file alone.
  const out = values.out ?? (values["import-file"] === undefined ? "platform-export" : undefined);
  const common = {
    out,
    importFile: values["import-file"],
    language: (language as (typeof LANGUAGES)[number] | undefined) ?? (values.js ? "javascript" : undefined),
    manageDeletes: values["manage-deletes"],
    name: values.name,
    partial: values.partial,
    client: sharedClient(),
    progress: (line: string) =>
      process.stderr.write(`platform-pulumi export: ${line} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`),
  };
  let after: string[] = [];
  const result = states
    ? await (async () => {
        const { exportFromTerraform } = await import("./exporter/terraform");
        const { terraformReport } = await import("./exporter/terraform/report");
        const migrated = await exportFromTerraform({ ...common, states: [...states, ...positionals] });
        const report = terraformReport(migrated);
        if (report.stderr.length > 0) process.stderr.write(report.stderr.join("\n") + "\n");
        after = report.stdout;
        return migrated;
      })()
    : await exportOrganization({ ...common, under: values.under! });
  if (result.leftOut.length > 0) {
    process.stderr.write(
      `platform-pulumi export: left out ${result.leftOut.length} record(s) that cannot be declared as they are ` +
        `(named in a comment at the top of the program):\n${result.leftOut.map(leftOutLine).join("\n")}\n`,
    );
  }
  const counts = Object.entries(result.counts).map(([type, n]) => `${n} ${type}`);
  const found = counts.join(", ") || "nothing below that group";
  if (out !== undefined) console.log(`Wrote ${result.files.join(", ")} to ${out}: ${found}.`);
  if (out !== undefined && (common.language === "yaml" || common.language === "python"))
    console.log(`Install the native provider's plugin once (its release archive): ${pluginInstallCommand()}`);
  if (values["import-file"] !== undefined)
    console.log(
      `Wrote the import file ${values["import-file"]}: ${found}. ` +
        (out === undefined
          ? `In a project whose Pulumi.yaml points at the native provider: pulumi import --file ${values["import-file"]}`
          : `In ${out}, whose program already declares them: pulumi import --file ${values["import-file"]} --generate-code=false`),
    );
  // From Terraform: each secret with where Terraform kept it, then the lines that let Terraform forget.
  if (states) for (const line of after) console.log(line);
  else
    for (const key of result.secretKeys)
      console.log(`Set the secret ${key}: pulumi config set --secret ${key} <value>`);
}

async function runDrift(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        under: { type: "string" },
        stack: { type: "string", multiple: true },
        "stack-file": { type: "string", multiple: true },
        "terraform-state": { type: "string", multiple: true },
        cwd: { type: "string" },
        format: { type: "string" },
        "fail-on": { type: "string" },
        "import-file": { type: "string" },
        ignore: { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (!values.under) fail("drift needs --under <group uid>");
  const drift = await import("./drift");
  const format = values.format ?? "text";
  if (!(drift.FORMATS as readonly string[]).includes(format))
    fail(`--format must be one of ${drift.FORMATS.join(", ")}, got "${format}"`);
  const failOn = (values["fail-on"] ?? drift.FINDINGS.join(",")).split(",").map((word) => word.trim());
  const unknown = failOn.find((word) => !(drift.FINDINGS as readonly string[]).includes(word));
  if (unknown !== undefined)
    fail(`--fail-on takes a comma-separated list of ${drift.FINDINGS.join(", ")}, got "${unknown}"`);
  const { sharedClient } = await import("./core/transport/client");
  const { report, leftOut } = await drift.driftOrganization({
    under: values.under,
    stacks: values.stack,
    stackFiles: values["stack-file"],
    terraformStates: values["terraform-state"],
    cwd: values.cwd,
    importFile: values["import-file"],
    ignoreFile: values.ignore,
    client: sharedClient(),
  });
  for (const left of leftOut)
    process.stderr.write(
      `platform-pulumi drift: not in the import file: ${left.noun} ${left.uid}: ${left.reasons.join("; ")}\n`,
    );
  process.stdout.write(
    format === "json"
      ? drift.jsonReport(report)
      : format === "markdown"
        ? drift.markdownReport(report)
        : drift.textReport(report, process.stdout.isTTY === true),
  );
  if (drift.found(report, failOn as Array<(typeof drift.FINDINGS)[number]>)) process.exitCode = 3;
}

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  emulator: runEmulator,
  export: runExport,
  drift: runDrift,
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) fail(`unknown command "${command}"`);
  // `drift --help` is asking, not a typo: the usage, exit 0, as at the top level.
  const options = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (options.includes("--help") || options.includes("-h")) {
    console.log(USAGE);
    return;
  }
  return run(rest);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`platform-pulumi: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
