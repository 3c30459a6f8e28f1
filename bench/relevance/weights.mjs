// The vector weight the cache's calibration chooses beside what each weight scores on real queries
// (issue 39; not part of run.mjs): per corpus and embedding, cache.calibrate({ seed }) (its
// pseudo-query table), then the lexical and vector arms read once per query of the split (default
// `tune`: the rule of docs/RELEVANCE.md) and every weight of GRID fused as search() fuses them
// (compose.js buildArms + fold, lambda 1): MRR@10 / nDCG@10 per weight, and at the chosen one.
//   node --max-old-space-size=8192 bench/relevance/weights.mjs man,python,kernel lsa,hash,oracle [tune|test] [seed]
// It reads the cache's pipeline state (cache._io), so it measures this repository's build only.
import { loadCorpus, openCorpusCache, withEmbedding, ndcgAt, reciprocalRank } from "./lib.mjs";
import { cacheVector } from "./systems.mjs";
import { buildArms, fold, querySettings, retrieve } from "../../js/cache/compose.js";

const [corporaArg = "man,python,kernel", embArg = "lsa,hash,oracle", split = "tune", seed = "1"] = process.argv.slice(2);
const GRID = [0, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3];
const f3 = (x) => x.toFixed(3);
for (const name of corporaArg.split(",")) for (const emb of embArg.split(",")) {
  const corpus = await withEmbedding(await loadCorpus(name), emb);
  const { cache } = await openCorpusCache(corpus, { calibrate: false });
  const t = performance.now();
  const calibration = await cache.calibrate({ seed: Number(seed) });
  const ms = performance.now() - t;
  const io = cache._io;
  const qs = split === "tune" ? corpus.queries.tune : corpus.queries.test.slice(0, 1000);
  const s0 = querySettings("x", { calibrated: false });
  const raws = [];
  for (const q of qs) raws.push(await retrieve(io, s0, q.text, cacheVector(q.vector), 50, undefined, true));
  const at = (w) => {
    const s = querySettings("x", { weights: { vector: w }, lambda: 1 });
    let mrr = 0, nd = 0;
    raws.forEach((raw, i) => {
      const paths = fold(io, s, buildArms(io, s, raw)).picked.map((h) => h.path);
      mrr += reciprocalRank(paths, qs[i].target);
      nd += ndcgAt(paths, qs[i].relevant);
    });
    return [mrr / qs.length, nd / qs.length];
  };
  const vec = (() => { const s = querySettings("x", { weights: { lexical: 0, vector: 1, salience: 0, lateral: 0 }, lambda: 1 }); let m = 0, n = 0;
    raws.forEach((raw, i) => { const p = fold(io, s, buildArms(io, s, raw)).picked.map((h) => h.path); m += reciprocalRank(p, qs[i].target); n += ndcgAt(p, qs[i].relevant); });
    return [m / qs.length, n / qs.length]; })();
  const row = GRID.map((w) => { const [m, n] = at(w); return `${w}:${f3(m)}/${f3(n)}`; });
  const c = at(calibration.vector);
  console.log(`${name} ${emb}: calibrated ${calibration.vector} (${(ms / 1000).toFixed(1)} s; plateau ${calibration.plateau.join(",")}) -> ${f3(c[0])}/${f3(c[1])}; ` +
    `lexical ${row[0].slice(2)}, vector alone ${f3(vec[0])}/${f3(vec[1])}`);
  console.log(`  pseudo ${calibration.table.map((r) => `${r.vector}:${f3(r.mrr)}`).join(" ")}`);
  console.log(`  ${split}   ${row.join(" ")}`);
  await cache.close();
}
