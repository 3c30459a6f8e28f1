// The fast expect of tests/js/fast-expect.js passes exactly what Jest's passes
// and fails with Jest's own error.
test("toBe and toEqual pass on Object.is and fail with Jest's message otherwise", () => {
  expect.assertions(13); // nine here and the four failing ones inside toThrow, as Jest counts them
  expect(NaN).toBe(NaN);
  expect("a").toEqual("a");
  expect(() => expect(0).toBe(-0)).toThrow(/toBe/);
  expect(() => expect(1).toBe("1")).toThrow(/Expected: "1"/);
  expect(() => expect(null).toEqual(undefined)).toThrow(/toEqual/);
  expect(() => expect({ a: 1 }).toBe({ a: 1 })).toThrow(/serializes to the same string/);
  expect({ a: [1, 2] }).toEqual({ a: [1, 2] });
  expect(1).not.toBe(2);
  expect(3).toEqual(expect.any(Number));
});

test("every other matcher is Jest's", () => {
  expect(expect(1).toBeGreaterThan).toBeInstanceOf(Function);
  expect(() => expect(1).toBeGreaterThan(2)).toThrow(/toBeGreaterThan/);
  return expect(Promise.resolve(4)).resolves.toBe(4);
});
