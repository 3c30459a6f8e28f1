// A plain-JavaScript graph module written the way the reference is (Maps and
// Sets keyed by string, the design's rules as the project's facts sheet states them, section 7).
// It is the benchmark's baseline and a second opinion in tests; it folds
// parallel edges by the (src, dst) pair, like memdomain (the deliberate
// divergence), using a nested Map.

export const PAGERANK_DAMPING = 0.85;
export const PAGERANK_MAX_ITERATIONS = 100;
export const PAGERANK_TOLERANCE = 1e-6;
export const MIN_COMMUNITY_SIZE = 3;
export const LABEL_PROPAGATION_MAX_SWEEPS = 100;

const byString = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function normalize(nodes, edges) {
  const sorted = [...new Set(nodes)].sort();
  const present = new Set(sorted);
  const best = new Map(); // src -> Map(dst -> edge)
  for (const e of edges) {
    if (e.src === e.dst || !present.has(e.src) || !present.has(e.dst)) continue;
    let row = best.get(e.src);
    if (row === undefined) best.set(e.src, (row = new Map()));
    const prev = row.get(e.dst);
    if (prev === undefined || e.strength > prev.strength) row.set(e.dst, e);
  }
  const folded = [];
  for (const row of best.values()) for (const e of row.values()) folded.push(e);
  folded.sort((a, b) => byString(a.src, b.src) || byString(a.dst, b.dst));
  return { sorted, folded };
}

export function pagerank(nodes, edges, options = {}) {
  const damping = options.damping ?? PAGERANK_DAMPING;
  const maxIterations = options.maxIterations ?? PAGERANK_MAX_ITERATIONS;
  const tolerance = options.tolerance ?? PAGERANK_TOLERANCE;
  const { sorted, folded } = normalize(nodes, edges);
  const n = sorted.length;
  const out = new Map();
  if (n === 0) return out;
  const outEdges = new Map(sorted.map((k) => [k, []]));
  const outWeight = new Map(sorted.map((k) => [k, 0]));
  for (const e of folded) {
    outEdges.get(e.src).push(e);
    outWeight.set(e.src, outWeight.get(e.src) + e.strength);
  }
  let teleport = new Map(sorted.map((k) => [k, 1 / n]));
  if (options.seeds !== undefined) {
    let total = 0;
    for (const [k, w] of options.seeds) if (outWeight.has(k) && w > 0) total += w;
    if (total > 0) {
      teleport = new Map(sorted.map((k) => [k, 0]));
      for (const [k, w] of options.seeds) if (outWeight.has(k) && w > 0) teleport.set(k, w / total);
    }
  }
  let rank = new Map(teleport);
  for (let it = 0; it < maxIterations; it++) {
    const next = new Map(sorted.map((k) => [k, 0]));
    let dangling = 0;
    for (const k of sorted) {
      const mass = rank.get(k);
      const w = outWeight.get(k);
      if (w === 0) { dangling += mass; continue; }
      for (const e of outEdges.get(k)) next.set(e.dst, next.get(e.dst) + (mass * e.strength) / w);
    }
    let delta = 0;
    const updated = new Map();
    for (const k of sorted) {
      const t = teleport.get(k);
      const value = damping * (next.get(k) + dangling * t) + (1 - damping) * t;
      delta += Math.abs(value - rank.get(k));
      updated.set(k, value);
    }
    rank = updated;
    if (delta < tolerance * n) break;
  }
  for (const k of sorted) out.set(k, rank.get(k));
  return out;
}

export function labelPropagation(nodes, edges, options = {}) {
  const minCommunitySize = options.minCommunitySize ?? MIN_COMMUNITY_SIZE;
  const maxSweeps = options.maxSweeps ?? LABEL_PROPAGATION_MAX_SWEEPS;
  const { sorted, folded } = normalize(nodes, edges);
  const neighbours = new Map(sorted.map((k) => [k, []]));
  for (const e of folded) {
    neighbours.get(e.src).push([e.dst, e.strength]);
    neighbours.get(e.dst).push([e.src, e.strength]);
  }
  const label = new Map(sorted.map((k) => [k, k]));
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let changed = false;
    for (const k of sorted) {
      const list = neighbours.get(k);
      if (list.length === 0) continue;
      const weights = new Map();
      for (const [m, s] of list) {
        const l = label.get(m);
        weights.set(l, (weights.get(l) ?? 0) + s);
      }
      let bestLabel, bestWeight = -Infinity;
      for (const l of [...weights.keys()].sort()) {
        const w = weights.get(l);
        if (w > bestWeight) { bestWeight = w; bestLabel = l; }
      }
      if (bestLabel !== undefined && bestLabel !== label.get(k)) { label.set(k, bestLabel); changed = true; }
    }
    if (!changed) break;
  }
  const members = new Map();
  for (const k of sorted) {
    const l = label.get(k);
    if (!members.has(l)) members.set(l, []);
    members.get(l).push(k);
  }
  const out = new Map();
  for (const k of sorted) {
    const group = members.get(label.get(k));
    out.set(k, group.length >= minCommunitySize ? group[0] : undefined);
  }
  return out;
}

export function bridgeCounts(nodes, edges, communities) {
  const { sorted, folded } = normalize(nodes, edges);
  const count = new Map(sorted.map((k) => [k, 0]));
  for (const e of folded) {
    const a = communities.get(e.src), b = communities.get(e.dst);
    if (a !== undefined && b !== undefined && a !== b) {
      count.set(e.src, count.get(e.src) + 1);
      count.set(e.dst, count.get(e.dst) + 1);
    }
  }
  return count;
}
