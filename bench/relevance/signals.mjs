// What a cache could see of its vector arm's strength without labels, beside what labels show
// (issue 39; not part of run.mjs). Per corpus and embedding, on a split's real queries:
//   - per-query signals read from the two arms' own lists: the vector arm's best cosine, its gap
//     to the second, its z-score over the list; the lexical arm's second bm25 over its first; and
//     the arms' agreement (the same first hit, the vector arm's first in the lexical top 10, the
//     overlap of the two top 10s), all label-free; beside them each arm's first-hit accuracy
//     (labels: what the signals would have to predict);
//   - the weights at which the composition meets the rule of docs/RELEVANCE.md (at least 0.98 of
//     the best single arm on MRR@10 and nDCG@10; FTS5 is not run here) with the vector arm's
//     scores normalised three ways: as search does ((1 + cos) / (1 + best)), min-max over the
//     arm's list, and max(0, cos) / best. The fusion is search's (compose.js buildArms + fold,
//     lambda 1); only the vector hits' scores are replaced.
//   node --max-old-space-size=8192 bench/relevance/signals.mjs man,python,kernel lsa,oracle,hash [tune|test]
// The last lines say, per corpus and normalisation, which weights meet the rule for every
// embedding run: a label-free rule gives embeddings its signals cannot tell apart one weight,
// so it can meet the rule on a corpus only if such a weight exists.
import { loadCorpus, openCorpusCache, withEmbedding, ndcgAt, reciprocalRank } from "./lib.mjs";
import { cacheVector } from "./systems.mjs";
import { buildArms, fold, querySettings, retrieve } from "../../js/cache/compose.js";

const [corporaArg = "man,python,kernel", embArg = "lsa,oracle,hash", split = "tune"] = process.argv.slice(2);
const GRID = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 5];
const NORMS = {
  "(1+cos)/(1+best)": null,
  "min-max": (s, i, lo) => (s[0] > lo ? (s[i] - lo) / (s[0] - lo) : 1),
  "max(0,cos)/best": (s, i) => (s[0] > 0 ? Math.max(0, s[i]) / s[0] : 1),
};
const f3 = (x) => x.toFixed(3);
const median = (xs) => { const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b); return s.length ? s[s.length >> 1] : NaN; };

for (const name of corporaArg.split(",")) {
  const passing = {}; // norm -> embedding -> weights meeting the rule
  for (const emb of embArg.split(",")) {
    const corpus = await withEmbedding(await loadCorpus(name), emb);
    const { cache } = await openCorpusCache(corpus, { calibrate: false });
    const io = cache._io;
    const qs = split === "tune" ? corpus.queries.tune : corpus.queries.test.slice(0, 1000);
    const s0 = querySettings("x", { calibrated: false });
    const raws = [];
    for (const q of qs) raws.push(await retrieve(io, s0, q.text, cacheVector(q.vector), 50, undefined, true));

    // label-free signals, and each arm's accuracy (labels)
    const sig = { s1: [], gap: [], z: [], lr: [] };
    let same = 0, vInL = 0, overlap = 0, both = 0, vHit = 0, lHit = 0;
    raws.forEach((raw, i) => {
      const V = raw.vector, L = raw.lexical;
      if (V?.sims.length) {
        const s = Array.from(V.sims), mean = s.reduce((a, b) => a + b, 0) / s.length;
        const sd = Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / s.length);
        sig.s1.push(s[0]); sig.gap.push(s.length > 1 ? s[0] - s[1] : NaN); sig.z.push(sd > 0 ? (s[0] - mean) / sd : NaN);
        if (V.paths[0] === qs[i].target) vHit++;
      }
      if (L?.scores.length) {
        sig.lr.push(L.scores.length > 1 ? L.scores[1] / L.scores[0] : NaN);
        if (L.paths[0] === qs[i].target) lHit++;
      }
      if (V?.paths.length && L?.paths.length) {
        both++;
        const l10 = L.paths.slice(0, 10), v10 = V.paths.slice(0, 10);
        if (l10[0] === v10[0]) same++;
        if (l10.includes(v10[0])) vInL++;
        overlap += v10.filter((p) => l10.includes(p)).length / 10;
      }
    });
    console.log(`${name} ${emb} (${qs.length} ${split} queries): vector best cosine ${f3(median(sig.s1))}, gap ${f3(median(sig.gap))}, ` +
      `z ${f3(median(sig.z))}; lexical 2nd/1st ${f3(median(sig.lr))} (medians); same first hit ${f3(same / both)}, vector's first in ` +
      `lexical's 10 ${f3(vInL / both)}, overlap@10 ${f3(overlap / both)}; first hit right: vector ${f3(vHit / qs.length)}, lexical ${f3(lHit / qs.length)}`);

    const measure = (weights, norm) => {
      const s = querySettings("x", { weights, lambda: 1 });
      let mrr = 0, nd = 0;
      raws.forEach((raw, i) => {
        const arms = buildArms(io, s, raw);
        if (norm && arms.vector.length) {
          const sims = raw.vector.sims, lo = sims[arms.vector.length - 1];
          arms.vector.forEach((h, j) => { h.score = norm(sims, j, lo); });
        }
        const paths = fold(io, s, arms).picked.map((h) => h.path);
        mrr += reciprocalRank(paths, qs[i].target);
        nd += ndcgAt(paths, qs[i].relevant);
      });
      return [mrr / qs.length, nd / qs.length];
    };
    const lex = measure({ lexical: 1, vector: 0, salience: 0, lateral: 0 }, null);
    const vec = measure({ lexical: 0, vector: 1, salience: 0, lateral: 0 }, null);
    const floor = [0.98 * Math.max(lex[0], vec[0]), 0.98 * Math.max(lex[1], vec[1])];
    console.log(`  lexical alone ${f3(lex[0])}/${f3(lex[1])}, vector alone ${f3(vec[0])}/${f3(vec[1])}; the rule: ${f3(floor[0])}/${f3(floor[1])}`);
    for (const [label, norm] of Object.entries(NORMS)) {
      const cells = GRID.map((w) => [w, measure({ vector: w }, norm)]);
      (passing[label] ??= {})[emb] = cells.filter(([, r]) => r[0] >= floor[0] && r[1] >= floor[1]).map(([w]) => w);
      console.log(`  ${label.padEnd(17)} ${cells.map(([w, r]) => `${w}:${f3(r[0])}/${f3(r[1])}`).join(" ")}`);
    }
    await cache.close();
  }
  for (const [label, byEmb] of Object.entries(passing)) {
    const sets = Object.values(byEmb), all = GRID.filter((w) => sets.every((s) => s.includes(w)));
    console.log(`${name}, ${label}: the rule holds at ${Object.entries(byEmb).map(([e, ws]) => `${e} {${ws.join(", ")}}`).join("; ")}; ` +
      `for every embedding at {${all.join(", ")}}`);
  }
}
