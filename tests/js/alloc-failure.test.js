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
  // ~37 MB of keys fit in the exchange region; the union-find's own tables do not.
  const edges = Array.from({ length: 700_000 }, (_, i) => [`a${i}-abcdefghijklmnop`, `b${i}-abcdefghijklmnop`]);
  let err;
  try {
    md.connectedComponents(edges);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RangeError);
  expect(err.message).toMatch(/^connectedComponents: out of memory/); // from C, not from the glue's region
  // Usable afterwards, and the memory freed (the big exchange region too): a big block can be had again.
  const small = md.connectedComponents(edges.slice(0, 1000));
  expect(small.length).toBe(1000);
  const p = ex.md_alloc(40 * 1024 * 1024);
  expect(p).not.toBe(0);
  ex.md_free(p);
  expect(md.rankFused(md.fuseArms([[{ path: "k0", rank: 1 }]], [1]))[0].path).toBe("k0");
});
