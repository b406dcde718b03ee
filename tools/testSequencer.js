// The order jest starts test files in (jest.config.js `testSequencer`). Jest's own sequencer starts the
// files it has no time for first, by size, then the others slowest first, from its cache of the last
// run's times. A fresh clone has no such cache, so the slowest stories could start last and leave one
// worker alone at the end: here a file jest has no time for takes its time from tests/durations.json
// (seconds a file took in a whole run, refreshed by tools/durations.js). A file in neither still goes
// first, by size, as in jest's own order.
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const durations = JSON.parse(fs.readFileSync(path.join(root, "tests", "durations.json"), "utf8"));

class DurationsSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const source = path.relative(dist, test.path).replace(/\\/g, "/").replace(/\.js$/, ".ts");
    const seconds = durations[source];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = DurationsSequencer;
