// Tests are compiled by tsc with the rest of the project, so jest runs plain CommonJS:
// what the tests exercise is byte for byte what the package ships.
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/dist/**/*.test.js"],
  testPathIgnorePatterns: ["/node_modules/", "/.work/"],
  // Staged programs and packages under .work/, and the SDKs `npm run sdks` writes to sdk/, are not
  // part of the project jest should map.
  modulePathIgnorePatterns: ["<rootDir>/.work/", "<rootDir>/sdk/"],
  testEnvironment: "node",
  testTimeout: 60000,
  maxWorkers: 2,
};
