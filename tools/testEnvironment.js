// The environment of every test file (jest.config.js `testEnvironment`): Node's own, with two changes.
//
// Each file's `fetch` has a connection pool of its own, destroyed when the file ends, so no file is
// handed a connection an earlier file kept alive to a server since closed, whose port may be in use again.
//
// A worker ends as soon as nothing is left to run. Left to end by itself, Node first frees the
// worker's heap (600 to 800 MB after a tier), which outlasts jest's 500 ms grace; jest then kills it
// and reports "a worker process has failed to exit gracefully ... tests leaking", when nothing leaked.
const { TestEnvironment } = require("jest-environment-node");
const { Agent, setGlobalDispatcher } = require("undici");

// `beforeExit`: the event loop is empty, so no test, timer or write is pending.
process.once("beforeExit", (code) => process.exit(code));

class FileEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.pool = new Agent();
    setGlobalDispatcher(this.pool);
  }

  async teardown() {
    await this.pool?.destroy();
    await super.teardown();
  }
}

module.exports = FileEnvironment;
