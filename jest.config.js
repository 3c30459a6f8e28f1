export default {
  testEnvironment: "node",
  roots: ["<rootDir>/tests/js"],
  testMatch: ["**/*.test.js"],
  transform: {},
  testTimeout: 120000,
};
