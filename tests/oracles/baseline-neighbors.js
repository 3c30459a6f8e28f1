// A plain-JavaScript implementation of topNeighborPairs and rankCandidatePairs
// written the way the design describes the reference: norms cached once, one
// sequential double sum per pair, per-source bounded insertion, the final
// sim DESC, src ASC, dst ASC sort and the limit. Used by the benchmarks as
// the baseline, and by the tests as an independent oracle.

/** The reference's cosine: in-order sums, zero norm -> 0, NaN -> 0, clamp. */
export function cosine(a, b) {
  const n = Math.min(a.length, b.length);
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i], y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  const s = dot / (Math.sqrt(na) * Math.sqrt(nb));
  if (Number.isNaN(s)) return 0;
  return Math.max(-1, Math.min(1, s));
}

function norm(v) {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

// Hoisted-norm similarity: no NaN -> 0, so a NaN or infinite component keeps a pair out.
function hoisted(a, b, na, nb) {
  if (a.length !== b.length) return cosine(a, b);
  if (na === 0 || nb === 0) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return Math.max(-1, Math.min(1, dot / (na * nb)));
}

const cmpStr = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// Per-source bounded insertion: sim DESC then dst ASC; an equal pair goes after.
function offer(lists, k, src, dst, sim) {
  let list = lists.get(src);
  if (list === undefined) { list = []; lists.set(src, list); }
  if (list.length >= k) {
    const last = list[list.length - 1];
    if (last === undefined || !(sim > last.sim || (sim === last.sim && dst < last.dst))) return;
  }
  let at = list.length;
  while (at > 0) {
    const p = list[at - 1];
    if (sim > p.sim || (sim === p.sim && dst < p.dst)) at--;
    else break;
  }
  list.splice(at, 0, { src, dst, sim });
  if (list.length > k) list.pop();
}

function finish(lists, limit) {
  const all = [];
  for (const list of lists.values()) for (const p of list) all.push(p);
  all.sort((a, b) => (a.sim !== b.sim ? (b.sim > a.sim ? 1 : -1) : cmpStr(a.src, b.src) || cmpStr(a.dst, b.dst)));
  return all.slice(0, limit);
}

export function topNeighborPairs(vectors, options) {
  const { floor, perSourceK, limit } = options;
  const norms = vectors.map((v) => norm(v.vec));
  const lists = new Map();
  for (let i = 0; i < vectors.length; i++) {
    const a = vectors[i];
    for (let j = i + 1; j < vectors.length; j++) {
      const b = vectors[j];
      const sim = hoisted(a.vec, b.vec, norms[i], norms[j]);
      if (!(sim >= floor)) continue;
      offer(lists, perSourceK, a.key, b.key, sim);
      offer(lists, perSourceK, b.key, a.key, sim);
    }
  }
  return finish(lists, limit);
}

export function rankCandidatePairs(pairs, vectors, options) {
  const { floor, perSourceK, limit } = options;
  const byKey = new Map();
  for (const v of vectors) byKey.set(v.key, { vec: v.vec, norm: norm(v.vec) });
  const lists = new Map();
  for (const p of pairs) {
    const a = byKey.get(p.src), b = byKey.get(p.dst);
    if (a === undefined || b === undefined) continue;
    const sim = hoisted(a.vec, b.vec, a.norm, b.norm);
    if (!(sim >= floor)) continue;
    offer(lists, perSourceK, p.src, p.dst, sim);
  }
  return finish(lists, limit);
}
