// Fusion (fuseArms + rankFused) and single cosine calls: memdomain vs a
// plain-JavaScript implementation of the reference, side by side.
import { refCosine as jsCosine, refFuse as jsFuse, refRank as jsRank } from "../tests/oracles/baseline-fusion.js";
import { load, row, rng, time } from "./lib.mjs";

const md = await load();
const rand = rng(1);

for (const n of [100, 1000, 10000]) {
  const paths = Array.from({ length: n * 2 }, (_, i) => `areas/topic${i % 97}/memory-${i}.html`);
  const arms = Array.from({ length: 4 }, () =>
    Array.from({ length: n }, (_, r) => ({ path: paths[Math.floor(rand() * paths.length)], rank: r + 1 })));
  const w = [1, 0.8, 0.5, 0.3];
  const check = md.rankFused(md.fuseArms(arms, w));
  const ref = jsRank(jsFuse(arms, w));
  if (check.length !== ref.length || check.some((x, i) => x.path !== ref[i].path || !Object.is(x.score, ref[i].score)))
    throw new Error("fusion mismatch");
  row(`fuseArms+rankFused, 4 arms x ${n} hits`, time(() => jsRank(jsFuse(arms, w))), time(() => md.rankFused(md.fuseArms(arms, w))));
}
const a = new Float32Array(384).map(() => rand() - 0.5), b = new Float32Array(384).map(() => rand() - 0.5);
row("cosine, one pair of Float32Array(384), x1000", time(() => { for (let i = 0; i < 1000; i++) jsCosine(a, b); }),
  time(() => { for (let i = 0; i < 1000; i++) md.cosine(a, b); }));
console.log("(single small calls pay the boundary crossing; the batch APIs are where wasm pays)");
