// md_js_exp / md_js_log1p / md_js_round of the wasm build tests/js/build.js
// picks (make test-js runs both) against Node's
// Math.exp / Math.log1p / Math.round over 2^20 seeded inputs per function
// (every exponent, subnormals, NaN payloads, the algorithms' branch
// boundaries): zero differing bits. The native build is checked by
// `make test-jsmath` with the same vectors.
import { BUILD, TEST_WASM_PATH as WASM_PATH } from "./build.js";
import { COUNT, FUNCS, compare, generate, loadWasm, sameBits } from "./jsmath-vectors.mjs";

const inputs = Object.fromEntries(FUNCS.map(({ name, js }) => {
  const xs = generate(name);
  return [name, { xs, want: xs.map(js) }];
}));

test("the vectors are seeded (deterministic) and cover the special values", () => {
  expect(COUNT).toBeGreaterThanOrEqual(1000000);
  for (const { name } of FUNCS) {
    const { xs } = inputs[name];
    expect(xs.length).toBe(COUNT);
    expect(generate(name, 1000)).toEqual(xs.slice(0, 1000));
    for (const s of [0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MAX_VALUE])
      expect(xs.some((x) => sameBits(x, s))).toBe(true);
    let subnormals = 0, huge = 0;
    for (const x of xs) {
      if (x !== 0 && Math.abs(x) < 2.2250738585072014e-308) subnormals++;
      if (Math.abs(x) > 1e300 && Number.isFinite(x)) huge++;
    }
    expect(subnormals).toBeGreaterThan(1000);
    expect(huge).toBeGreaterThan(100);
  }
});

describe(`${BUILD} build`, () => {
  const ex = loadWasm(WASM_PATH);
  test.each(FUNCS.map((f) => [f.wasm, f]))("%s equals Node bit for bit", (_, { name, wasm }) => {
    const { xs, want } = inputs[name];
    const { count, first } = compare(xs, want, ex[wasm]);
    expect(first).toEqual([]);
    expect(count).toBe(0);
  });
});
