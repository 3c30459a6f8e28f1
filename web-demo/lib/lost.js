// Why a memory was or was not returned, in words: memdomain/cache's explain() answer for one
// path ({ rank, fused, mmr, duplicateOf, lostAt }) with the search's resolved settings and the
// size of the window MMR saw.

/** One sentence for explain()'s answer `p` under `settings` (trace.settings) with a window of `window` candidates. */
export function lostWords(p, settings, window) {
  const fr = p.fused?.rank;
  switch (p.lostAt) {
    case null:
      return `returned at #${p.rank}${fr ? ` (fused rank ${fr}${p.mmr ? `, MMR place ${p.mmr}` : ""})` : ""}`;
    case "absent":
      return "not in the cache";
    case "superseded":
      return "merged away by sleep (superseded)";
    case "arms":
      return `lost before fusion: no arm lists it (each arm lists its top ${settings.depth})`;
    case "fusion":
      return `lost at fusion: fused rank ${fr}, below the window of ${window} that MMR reorders (limit ${settings.limit})`;
    case "limit":
      return `lost at the limit: fused rank ${fr}, window ${window}, limit ${settings.limit}`;
    case "mmr":
      return `lost at MMR: fused rank ${fr} is within the limit ${settings.limit}, but MMR (λ ${settings.lambda}) placed it ` +
        (p.mmr ? `${p.mmr}` : `below the limit`);
    case "duplicate":
      return `skipped as a near-duplicate of ${p.duplicateOf} (cosine above ${settings.duplicate}; fused rank ${fr})`;
    default:
      return `lost at ${p.lostAt}`;
  }
}
