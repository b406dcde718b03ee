// What the process running the program gives it: its environment, its id, what it printed; and
// outputs of every JSON shape, which the runner reads from the state rather than asking the CLI.
console.log(`runner story mark: ${process.env.RUNNER_STORY_MARK ?? "(unset)"}`);
module.exports = {
  mark: process.env.RUNNER_STORY_MARK ?? "(unset)",
  pid: process.pid,
  shapes: { count: 3, ratio: 0.5, on: true, off: false, none: null, list: ["a", { nested: "b" }], text: 'x\ny "z"' },
};
