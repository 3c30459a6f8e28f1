// The deterministic operations of the crash test (tests/js/cache-crash.test.js): operation k
// on a cache gives the same database from the same database, so a replica in memory
// replaying them tells what the killed child's file must hold: the state after its last
// acknowledged operation, or after the next one (the one the SIGKILL interrupted).
import { makeCorpus, T0 } from "./cache-corpus.js";

export const D = 24;
const DAY = 86_400_000;
const pool = makeCorpus(1200, D, 61, { dupEvery: 9 });

/** Operation k: puts of new and replaced memories, deletes, links, reinforcements and sleeps (some evicting). */
export async function op(cache, k) {
  const now = T0 + (200 + k) * DAY;
  const paths = (i, n) => Array.from({ length: n }, (_, j) => pool[(i + j * 7) % pool.length].path);
  switch (k % 6) {
    case 0: // a large put: new memories and replacements (a long transaction)
      return cache.put(Array.from({ length: 150 }, (_, j) => {
        const m = pool[(k * 37 + j) % pool.length];
        return { ...m, gist: `${m.gist} v${k}`, createdAt: now - j };
      }));
    case 1:
      return cache.sleep({ now, floor: 0.3, evict: k % 4 === 1 });
    case 2:
      return cache.delete(paths(k * 13, 20));
    case 3: {
      const stored = new Set((await cache.get(paths(k * 5, 12))).map((m) => m.path));
      const ends = [...stored];
      if (ends.length < 2) return null;
      return cache.link(ends.slice(1).map((dst, j) => ({ src: ends[0], dst, strength: ((k + j) % 10) / 10 })));
    }
    case 4: {
      const stored = (await cache.get(paths(k * 3, 30))).map((m) => m.path);
      return stored.length ? cache.reinforce(stored, { now, signal: k % 2 ? "positive" : "negative" }) : null;
    }
    default:
      return cache.sleep({ now, floor: 0.3, perSourceK: 8 });
  }
}

/** What the database holds (every stored field, the edges). */
export async function snapshot(cache) {
  return JSON.stringify([await cache.all(), await cache.edges()]);
}
