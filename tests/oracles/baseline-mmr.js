// A plain-JavaScript applyMmr written the way the design describes the
// reference: greedy rounds, a cached per-candidate max similarity to the
// selected set that folds in only the newest selection (O(k * n) cosines).
import { cosine } from "./baseline-neighbors.js";

export const MMR_LAMBDA = 0.5;

export function applyMmr(candidates, limit, lambda = MMR_LAMBDA) {
  if (limit <= 0) return [];
  if (lambda >= 1 || candidates.length <= 1) return candidates.slice(0, limit);
  const remaining = candidates.map((_, i) => i);
  const penalty = new Array(candidates.length).fill(0);
  const selected = [];
  while (selected.length < limit && remaining.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    for (let r = 0; r < remaining.length; r++) {
      const c = candidates[remaining[r]];
      const value = lambda * c.score - (1 - lambda) * penalty[remaining[r]];
      if (value > bestValue) { bestValue = value; best = r; }
    }
    const chosen = remaining.splice(best, 1)[0];
    const picked = candidates[chosen];
    selected.push(picked);
    if (picked.vector === undefined) continue;
    for (const i of remaining) {
      const v = candidates[i].vector;
      if (v !== undefined) penalty[i] = Math.max(penalty[i], cosine(v, picked.vector));
    }
  }
  return selected;
}
