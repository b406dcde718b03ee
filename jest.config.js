// Tests are compiled by tsc with the rest of the project, so jest runs plain CommonJS:
// what the tests exercise is byte for byte what the package ships.
//
// One jest project a tier (unit, cli, release), its files chosen by the rules of tools/tiers.js;
// `--selectProjects <tier>` runs one (npm run test:unit, test:cli, test:release), none runs all.
const { tiers } = require("./tools/tiers");

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const byTier = tiers();

const project = (tier) => ({
  displayName: tier,
  rootDir: __dirname,
  // The tier's files exactly; a tier with none matches nothing rather than falling back to a glob.
  testRegex: byTier[tier].length > 0 ? byTier[tier].map((file) => `^${escape(file)}$`) : ["^$"],
  testPathIgnorePatterns: ["/node_modules/", "/.work/"],
  // Staged programs and packages under .work/, and the SDKs `npm run sdks` writes to sdk/, are not
  // part of the project jest should map.
  modulePathIgnorePatterns: ["<rootDir>/.work/", "<rootDir>/sdk/"],
  testEnvironment: "<rootDir>/tools/testEnvironment.js",
  // Plain CommonJS from tsc needs no transform; without one, V8 coverage maps through tsc's own
  // source maps instead of babel's (under which every file counted one line). The unit tier, which
  // `npm run coverage` measures, runs so; the others keep jest's default until measured so too.
  ...(tier === "unit" ? { transform: {} } : {}),
});

module.exports = {
  rootDir: __dirname,
  projects: ["unit", "cli", "release"].map(project),
  maxWorkers: 2,
  // Slowest first by tests/durations.json where jest's cache has no time (a fresh clone): a run-wide option.
  testSequencer: "<rootDir>/tools/testSequencer.js",
  // A run-wide option: jest ignores it inside a project.
  testTimeout: 60000,
  // `npm run coverage`: jest's own V8 coverage of the shipped code (the compiled JavaScript).
  coverageProvider: "v8",
  collectCoverageFrom: ["<rootDir>/dist/{core,native,exporter,emulator}/**/*.js", "!<rootDir>/dist/**/*.test.js"],
  coverageDirectory: "<rootDir>/.work/coverage",
  coverageReporters: ["text-summary", "json-summary", "json"],
};
