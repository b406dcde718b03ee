/**
 * The entry point of the native provider plugin `platform` as this npm package runs it: the
 * launcher `native/pulumi-resource-platform` requires it (native/plugin.ts serves).
 */
import { startPlugin } from "./plugin";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own version, read at start-up
const { version } = require("../../package.json") as { version: string };

startPlugin(version);
