// The order in which memdomain/workers hands out the tiles of one pass (also
// imported by bench/allpairs.mjs, so the benchmark runs the package's
// schedule): one contiguous run of tiles per worker, taken from its front (a
// pass that adds neighbouring sources prunes better, its own lists holding
// the pairs its next rows are bounded by, than one taking every other tile);
// a worker whose run is done takes the last tile of the longest run left, so
// the runs end together however the workers' speeds differ.

/** A schedule of `count` tiles over `workers` workers: take(i, ahead) is the next tile for worker i, or -1. */
export function tileRuns(count, workers) {
  const runs = Array.from({ length: workers }, (_, q) =>
    ({ next: Math.floor((q * count) / workers), end: Math.floor(((q + 1) * count) / workers) }));
  return {
    /** ahead: a tile to hold in waiting, given only from the worker's own run. */
    take(i, ahead) {
      const own = runs[i];
      if (own.next < own.end) return own.next++;
      if (ahead) return -1;
      let v = null;
      for (const r of runs) if (r.next < r.end && (!v || r.end - r.next > v.end - v.next)) v = r;
      return v ? --v.end : -1;
    },
    /** Hand out nothing more. */
    stop() {
      for (const r of runs) r.next = r.end;
    },
  };
}
