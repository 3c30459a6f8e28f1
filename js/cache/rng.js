// The one seeded generator (mulberry32): the package's fold assignment (tune.js) draws from it,
// and so do the tests, the benchmarks, the cross-runtime corpus and the demo's synthetic corpus
// (through tests/oracles/rng.js), so a failure reproduces and every runtime draws the same numbers.

/** mulberry32: a tiny 32-bit PRNG, identical in every JavaScript runtime: unsigned 32-bit integers. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Doubles in [0, 1): mulberry32's integers over 2^32. */
export function rng(seed) {
  const u32 = mulberry32(seed);
  return () => u32() / 2 ** 32;
}
