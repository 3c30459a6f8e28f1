// The order in which memdomain/workers hands out the tiles of one pass (also
// imported by bench/allpairs.mjs, so the benchmark runs the package's
// schedule): one contiguous run of tiles per worker, taken from its front (a
// pass that adds neighbouring sources prunes better, its own lists holding
// the pairs its next rows are bounded by, than one taking every other tile);
// a worker whose run is done takes the last tile of the longest run left, so
// the runs end together however the workers' speeds differ.
//
// The schedule's state is an Int32Array: [stop, workers, count, then per run
// its front and back (the next tile its owner takes, and one past the last
// tile left), then a claim flag per tile]. Every tile is claimed by one
// compare-and-swap of its flag, so the same schedule works on this thread
// (take called by the pool as workers answer) and in shared memory, where
// the workers take their tiles themselves (tileRunsOf(state) in each), with
// no message per tile and no tile held in waiting that another could have
// taken. An owner takes its run front to back and a thief from the back, so a
// tile an owner finds claimed means the rest of its run was stolen, and one a
// thief finds claimed means its owner has reached it: either way the run is
// done.

const HEAD = 3;

/** A schedule of `count` tiles over `workers` workers (in shared memory when `shared`). */
export function tileRuns(count, workers, shared = false) {
  const words = HEAD + 2 * workers + count;
  const state = new Int32Array(shared ? new SharedArrayBuffer(4 * words) : words);
  state[1] = workers;
  state[2] = count;
  for (let q = 0; q < workers; q++) {
    state[HEAD + 2 * q] = Math.floor((q * count) / workers);
    state[HEAD + 2 * q + 1] = Math.floor(((q + 1) * count) / workers);
  }
  return tileRunsOf(state);
}

/** The schedule kept in `state` (tileRuns(...).state, possibly from another thread). */
export function tileRunsOf(state) {
  const workers = state[1], flags = HEAD + 2 * workers;
  const front = (q) => HEAD + 2 * q, back = (q) => HEAD + 2 * q + 1;
  const start = (q) => Math.floor((q * state[2]) / workers);
  const claim = (t) => Atomics.compareExchange(state, flags + t, 0, 1) === 0;
  return {
    state,
    /** The next tile for worker i, or -1; ahead: a tile to hold in waiting, given only from the worker's own run. */
    take(i, ahead) {
      if (Atomics.load(state, 0)) return -1;
      const t = Atomics.load(state, front(i));
      if (t < Atomics.load(state, back(i))) {
        Atomics.store(state, front(i), t + 1); // only the owner moves its front
        if (claim(t)) return t; // else stolen, and so is the rest of the run
      }
      if (ahead) return -1;
      for (;;) { // the last tile of the longest run left
        let v = -1, most = 0;
        for (let q = 0; q < workers; q++) {
          const left = Atomics.load(state, back(q)) - Atomics.load(state, front(q));
          if (left > most) { most = left; v = q; }
        }
        if (v < 0 || Atomics.load(state, 0)) return -1;
        const s = Atomics.sub(state, back(v), 1) - 1;
        if (s >= start(v) && claim(s)) return s;
        // its owner has it (and every tile before it): that run is done
      }
    },
    /**
     * The next tiles for worker i, [first, end), or null: from its own run
     * about half of what is left in it (a pass adds a long range of sources
     * about as fast as its tiles one by one, and shares less often), else
     * one tile stolen as take steals, so the runs still end within a tile
     * of each other.
     */
    span(i) {
      const first = this.take(i, false);
      if (first < 0) return null;
      let end = first + 1;
      if (first >= start(i) && first < start(i + 1)) { // from its own run: claim more of it while they are its
        const goal = first + Math.ceil((Atomics.load(state, back(i)) - first) / 2);
        while (end < goal && end < Atomics.load(state, back(i))) { // the front is at end: only its owner moves it
          Atomics.store(state, front(i), end + 1);
          if (!claim(end)) break;
          end++;
        }
      }
      return [first, end];
    },
    /** Hand out nothing more. */
    stop() {
      Atomics.store(state, 0, 1);
    },
  };
}
