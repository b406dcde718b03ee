// The environment of every test file (jest.config.js `testEnvironment`): Node's own, and a worker that
// ends as soon as nothing is left to run. Left to end by itself, Node first frees the worker's heap
// (600 to 800 MB after a tier), which outlasts jest's 500 ms grace; jest then kills it and reports "a
// worker process has failed to exit gracefully ... tests leaking", when nothing leaked.
const { TestEnvironment } = require("jest-environment-node");

// `beforeExit`: the event loop is empty, so no test, timer or write is pending.
process.once("beforeExit", (code) => process.exit(code));

module.exports = TestEnvironment;
