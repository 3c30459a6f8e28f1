// Jest setup (jest.config.js setupFilesAfterEnv): a passing toBe / toEqual on
// primitives costs nanoseconds instead of ~70 microseconds.
//
// Jest's expect(x) builds six closures per registered matcher and a
// JestAssertionError (with its stack) on every call, about 70 us each on
// these machines; property tests that assert inside loops of thousands of
// cases spent most of make test's Jest time there (a 5,000-case property of
// retention.test.js: 23 s under Jest, 0.6 s for the same work outside it).
// This wrapper answers the two matchers those loops use when they pass:
// toBe when Object.is(actual, expected) (toBe's own pass condition) and
// toEqual when both sides are primitives and Object.is holds (toEqual compares
// primitives with Object.is). Everything else, every failure and every other
// matcher, .not, .resolves and .rejects, goes to Jest's own expect, so a
// failing assertion reports exactly what it would without this file, and the
// assertion count (expect.assertions) is kept.
const jestExpect = globalThis.expect;
const isPrimitive = (v) => v === null || (typeof v !== "object" && typeof v !== "function");

function countAssertion() {
  jestExpect.setState({ assertionCalls: jestExpect.getState().assertionCalls + 1 });
}

class Expectation {
  constructor(actual) { this.actual = actual; }
  toBe(expected) {
    if (Object.is(this.actual, expected)) return countAssertion();
    return jestExpect(this.actual).toBe(expected);
  }
  toEqual(expected) {
    if (isPrimitive(expected) && isPrimitive(this.actual) && Object.is(this.actual, expected)) return countAssertion();
    return jestExpect(this.actual).toEqual(expected);
  }
}

function expect(actual, ...rest) {
  if (rest.length > 0) return jestExpect(actual, ...rest);
  return new Proxy(new Expectation(actual), {
    get(target, key) {
      if (key === "toBe" || key === "toEqual") return target[key].bind(target);
      return jestExpect(target.actual)[key];
    },
  });
}

globalThis.expect = new Proxy(expect, {
  get(target, key) { return key in target && key !== "prototype" ? target[key] : jestExpect[key]; },
});
