// Tests are compiled by tsc with the rest of the project, so jest runs plain CommonJS:
// what the tests exercise is byte for byte what the package ships.
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/dist/**/*.test.js"],
  testPathIgnorePatterns: ["/node_modules/", "/.work/"],
  testEnvironment: "node",
  testTimeout: 60000,
  maxWorkers: 2,
};
