// rrf module: the reference reciprocal-rank fusion fold.
import { arr, exportsOf, map, num, numOr, obj, str, typeError, views, withFrame } from "./core.js";
import { RRF_K } from "./ranking.js";

/** weight / (rank + k). */
export function rrfScore(rank, weight, k = RRF_K) {
  const fn = "rrfScore";
  return exportsOf().md_rrf_score(num(fn, "rank", rank), num(fn, "weight", weight), numOr(fn, "k", k, RRF_K));
}

/** Read a fused result block ([f64 scores][u32 key indices]) into a Map. */
function readFused(f, keys) {
  const block = f.result(f.outU32(0));
  const len = f.outU32(1);
  const { f64, u32 } = views();
  const s0 = block >>> 3;
  const i0 = (block + ((len * 8 + 7) & ~7)) >>> 2;
  const out = new Map();
  for (let i = 0; i < len; i++) out.set(keys[u32[i0 + i]], f64[s0 + i]);
  return out;
}

/** Fuse per-arm ranked lists into one path -> score map by summing contributions. */
export function fuseArms(armResults, weights, k = RRF_K) {
  const fn = "fuseArms";
  arr(fn, "armResults", armResults);
  arr(fn, "weights", weights);
  k = numOr(fn, "k", k, RRF_K);
  const paths = [], ranks = [], lens = new Array(armResults.length), ws = new Array(armResults.length);
  for (let i = 0; i < armResults.length; i++) {
    const hits = arr(fn, `armResults[${i}]`, armResults[i]);
    lens[i] = hits.length;
    const w = weights[i] ?? 0;
    ws[i] = num(fn, `weights[${i}]`, w);
    for (let j = 0; j < hits.length; j++) {
      const h = obj(fn, `armResults[${i}][${j}]`, hits[j]);
      paths.push(str(fn, `armResults[${i}][${j}].path`, h.path));
      ranks.push(num(fn, `armResults[${i}][${j}].rank`, h.rank));
    }
  }
  return withFrame(fn, (f) => {
    const kt = f.keys(paths), pr = f.f64(ranks.length), pl = f.u32(lens.length), pw = f.f64(ws.length);
    f.alloc();
    f.writeF64(pr, ranks);
    f.writeU32(pl, lens);
    f.writeF64(pw, ws);
    f.check(exportsOf().mdw_fuse_arms(f.at(kt.bytes), f.at(kt.offs), paths.length, f.at(pr), f.at(pl),
      lens.length, f.at(pw), ws.length, k, f.out()));
    return readFused(f, paths);
  });
}

function fusedEntries(fn, fused) {
  map(fn, "fused", fused);
  const paths = [], scores = [];
  for (const [p, s] of fused) {
    paths.push(str(fn, "fused key", p));
    scores.push(num(fn, `fused.get(${JSON.stringify(p)})`, s));
  }
  return { paths, scores };
}

/** Fused scores as a ranked list, best first; ties break on path ascending. */
export function rankFused(fused) {
  const fn = "rankFused";
  const { paths, scores } = fusedEntries(fn, fused);
  return withFrame(fn, (f) => {
    const kt = f.keys(paths), ps = f.f64(scores.length), po = f.u32(paths.length);
    f.alloc();
    f.writeF64(ps, scores);
    f.check(exportsOf().mdw_rank_fused(f.at(kt.bytes), f.at(kt.offs), paths.length, f.at(ps), f.at(po)));
    const { u32 } = views();
    const o0 = f.at(po) >>> 2;
    const out = new Array(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const j = u32[o0 + i];
      out[i] = { path: paths[j], score: scores[j] };
    }
    return out;
  });
}

/** Fold a graph walk's best-first order into fused scores as one more arm. */
export function fuseLateral(fused, order, weight, k = RRF_K) {
  const fn = "fuseLateral";
  const { paths, scores } = fusedEntries(fn, fused);
  arr(fn, "order", order);
  num(fn, "weight", weight);
  k = numOr(fn, "k", k, RRF_K);
  const keys = paths.slice();
  for (let i = 0; i < order.length; i++) keys.push(str(fn, `order[${i}]`, order[i]));
  return withFrame(fn, (f) => {
    const kt = f.keys(keys), ps = f.f64(scores.length);
    f.alloc();
    f.writeF64(ps, scores);
    f.check(exportsOf().mdw_fuse_lateral(f.at(kt.bytes), f.at(kt.offs), paths.length, f.at(ps),
      order.length, weight, k, f.out()));
    return readFused(f, keys);
  });
}
