// What the process running the program gives it: its environment, its id, what it printed.
console.log(`runner story mark: ${process.env.RUNNER_STORY_MARK ?? "(unset)"}`);
module.exports = { mark: process.env.RUNNER_STORY_MARK ?? "(unset)", pid: process.pid };
