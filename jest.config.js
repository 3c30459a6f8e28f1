export default {
  testEnvironment: "node",
  roots: ["<rootDir>/tests/js"],
  testMatch: ["**/*.test.js"],
  setupFilesAfterEnv: ["<rootDir>/tests/js/fast-expect.js"],
  transform: {},
  testTimeout: 120000,
};
