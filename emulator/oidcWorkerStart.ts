/**
 * Starts ./oidcWorker.ts, the thread that runs jose. The single executable (tools/plugin/bundle.ts)
 * replaces this module: it has no files beside it, so it starts the worker from its bundled code.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";

export function startOidcWorker(): Worker {
  return new Worker(path.join(__dirname, "oidcWorker.js"));
}
