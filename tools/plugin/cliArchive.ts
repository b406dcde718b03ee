/**
 * `npm run cli-archive`: the command-line tool `platform-pulumi`, every subcommand of cli.ts, as one
 * executable that needs no Node.js, in `platform-pulumi-v<version>-<os>-<arch>.tar.gz`, built the way
 * the plugin's archive is (./build.ts) and cached the same way. Written to dist/plugin/ beside the
 * plugin's; its path is the last line printed.
 */
import { cliArchive, publish } from "./build";

publish("cli-archive", "plugin", cliArchive());
