// Allocation failure: on a module whose memory cannot grow past 64 MiB, a call
// whose inputs or working memory do not fit fails with a RangeError naming
// the function, and the instance stays usable (and leaks nothing).
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";

const ex = md.initSync(readFileSync(`${ROOT}build/memdomain.small.wasm`));

test("an input too large for memory is a RangeError, and the next call answers", () => {
  const big = new Float64Array(10_000_000); // 80 MB: more than the module may ever hold
  expect(() => md.compensatedSum(big)).toThrow(RangeError);
  expect(() => md.compensatedSum(big)).toThrow(/compensatedSum: input/);
  expect(() => md.cosine(big, big)).toThrow(/cosine: input/);
  expect(md.compensatedSum([1, 2, 3])).toBe(6);
  expect(md.cosine([1, 0], [0.5, 0.5])).toBe(0.7071067811865475);
});

test("working memory exhausted inside C is a RangeError, and nothing leaks", () => {
  // ~40 MB of keys fit in the input frame; the fold's own tables do not.
  const paths = Array.from({ length: 1_300_000 }, (_, i) => `k${i}-abcdefghijklmnopq`);
  const arm = paths.map((path, i) => ({ path, rank: i + 1 }));
  let err;
  try {
    md.fuseArms([arm], [1]);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RangeError);
  expect(err.message).toMatch(/^fuseArms: out of memory/); // from C, not from the glue's input frame
  // Usable afterwards, and the memory freed: a big block can be had again.
  const small = md.fuseArms([arm.slice(0, 1000)], [1]);
  expect(small.size).toBe(1000);
  const p = ex.md_alloc(40 * 1024 * 1024);
  expect(p).not.toBe(0);
  ex.md_free(p);
  expect(md.rankFused(small)[0].path).toBe("k0-abcdefghijklmnopq");
});
