// The memdomain/cache fault-injection harness, runtime-neutral (no Node imports) so that
// tests/js/cache-faults.test.js runs it on sqlite-wasm and better-sqlite3 under Jest and
// tests/runtimes/cache-d1-worker.js runs it on D1 under miniflare (make test-cache-runtimes).
//
// Each scenario returns a list of problems (strings; empty when the cache held) and counts
// of what happened, so the caller asserts that the list is empty AND that the faults did
// fire (calls rejected, batches committed and then thrown). The invariant checked after
// every fault: search (several queries, every arm, and searchArms) answers exactly what a
// fresh cache opened over the same database answers, the database holds the state before
// or after the operation (never a mix), an operation that resolved is in the database,
// and retrying the operation without the fault resolves with the database in the after state.
//
// A backend is { name, create(): Promise<{ adapter(): adapter over the same database (a new
// connection where the backend has them, else a view of the same handle whose close() is a
// no-op), dispose(): Promise<void> }> }. A new adapter joins with one backend object.
import { makeCorpus, makeQueries, T0 } from "./cache-corpus.js";
import { rng } from "../oracles/rng.js";

export const D = 12, N = 48;
export const NOW = T0 + 300 * 86_400_000;
const DAY = 86_400_000;

const corpus = makeCorpus(N, D, 31, { dupEvery: 6 });
const extra = makeCorpus(N + 12, D, 31, { dupEvery: 6 }).slice(N).map((m, i) => ({ ...m, path: `new/${i}.html` }));
const base = makeQueries(corpus, 4, 32);
/** Every arm: text and vector, text only, vector only, a wide lateral, the lexical arm alone. */
export const QUERIES = [
  { ...base[0], limit: 8 },
  { text: base[1].text, limit: 6 },
  { vector: base[2].vector, limit: 6, weights: { lateral: 2 } },
  { ...base[3], depth: 30, seeds: 8, limit: 12, weights: { salience: 1, lateral: 1 } },
  { text: "deploy retry cache graph", weights: { vector: 0, salience: 0, lateral: 0 }, depth: 40 },
];

/** What search answers: every query's hits and arms. */
export async function view(cache) {
  const out = [];
  for (const q of QUERIES) out.push(await cache.search(q), await cache.searchArms(q));
  return JSON.stringify(out);
}

/** What the database holds (read directly: memories with every field, edges, count). */
export async function stored(cache) {
  return JSON.stringify([await cache.all(), await cache.edges(), await cache.count()]);
}

/** The state every fault scenario starts from: memories, links, a sleep (edges, a merge), reinforcements. */
export async function seed(cache) {
  await cache.put(corpus);
  await cache.link([{ src: corpus[0].path, dst: corpus[1].path, strength: 0.9 }, { src: corpus[2].path, dst: corpus[3].path, strength: 0.4 },
    { src: corpus[4].path, dst: corpus[0].path, strength: 0.7, type: "supports" }]);
  await cache.sleep({ now: NOW, floor: 0.3 });
  await cache.reinforce([corpus[5].path, corpus[6].path], { now: NOW, signal: "positive" });
}

/** The operations under test, each with an onProgress hook where it has one. */
export const OPS = {
  put: (c, onProgress) => c.put([...corpus.slice(7, 10).map((m) => ({ ...m, gist: `${m.gist} rewritten`, accessCount: 9 })), ...extra.slice(0, 4)],
    onProgress ? { onProgress } : {}),
  delete: (c) => c.delete([corpus[0].path, corpus[11].path, corpus[12].path, "not/there"]),
  link: (c) => c.link([{ src: corpus[13].path, dst: corpus[14].path, strength: 0.8 }, { src: corpus[0].path, dst: corpus[1].path, strength: 0.2 },
    { src: corpus[15].path, dst: corpus[2].path, strength: 1, type: "contradicts" }]),
  reinforce: (c) => c.reinforce([corpus[5].path, corpus[16].path, corpus[17].path], { now: NOW + DAY, signal: "negative" }),
  sleep: (c, onProgress) => c.sleep({ now: NOW + 900 * DAY, floor: 0.3, evict: true, policy: { minAgeDays: 0 }, ...(onProgress ? { onProgress } : {}) }),
};

/** An adapter that throws at call index `plan.at` (every call of all, numbers, batch, dataVersion counts), before or after the call runs. */
export function faulty(inner, plan) {
  const a = { kind: inner.kind, calls: 0, fired: null };
  for (const name of ["all", "numbers", "batch", "dataVersion"]) {
    if (typeof inner[name] !== "function") continue;
    a[name] = async (...args) => {
      const i = a.calls++;
      const armed = plan.armed && plan.at === i;
      if (armed && plan.when === "before") {
        a.fired = `${name} #${i} before`;
        throw new Error(`injected fault before ${name} #${i}`);
      }
      const r = await inner[name](...args);
      if (armed && plan.when === "after") {
        a.fired = `${name} #${i} after`;
        throw new Error(`injected fault after ${name} #${i}`);
      }
      return r;
    };
  }
  for (const name of ["busyTimeout", "exportBytes"]) if (typeof inner[name] === "function") a[name] = (...args) => inner[name](...args);
  a.close = () => inner.close();
  return a;
}

// The checks search the cache (its view): with access from searches counted, a retried sleep would write
// those hits too and differ from a clean run; the hits' own write is tested in cache-sleep-policy.test.js.
const QUIET = { searchAccess: false };

/** Compare a cache's view with a fresh cache's over the same database; push a problem when they differ. */
async function sameAsFresh(openMemoryCache, db, cache, label, problems) {
  const fresh = await openMemoryCache({ db: db.adapter(), ...QUIET });
  try {
    const [a, b] = [await view(cache), await view(fresh)];
    if (a !== b) problems.push(`${label}: search differs from a fresh cache over the same database (${firstDiff(a, b)})`);
    return await stored(fresh);
  } finally {
    await fresh.close();
  }
}

const firstDiff = (x, y) => {
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return `at ${i}: ${x.slice(Math.max(0, i - 60), i + 60)} | ${y.slice(Math.max(0, i - 60), i + 60)}`;
};

/**
 * A clean run over a new database: a cache (over `wrap(adapter)`), seeded; `run(cache)` is the
 * operation (its value is returned). Returns { before, after, value }: the stored states.
 */
async function cleanRun(openMemoryCache, backend, run, wrap = (a) => a) {
  const db = await backend.create();
  try {
    const cache = await openMemoryCache({ db: wrap(db.adapter()), ...QUIET });
    await seed(cache);
    const before = await stored(cache);
    const value = await run(cache);
    const after = await stored(cache);
    await cache.close();
    return { before, after, value };
  } finally {
    await db.dispose();
  }
}

/**
 * One fault case over a new database: a cache (over `wrap(adapter)`), seeded, then `inject(cache)`
 * runs the operation with its fault and returns "resolved" or the error. Then the checks every
 * scenario shares: search equals a fresh cache's over the same database; the database holds the
 * state before or after the operation, the after state if the call resolved; and, with `op`, a
 * retry without the fault completes it. Returns { outcome, now } (now: the stored state after
 * the fault), or null when the case itself threw (pushed as a problem).
 */
async function faultCase(openMemoryCache, backend, { label, op, before, after, inject, wrap = (a) => a }, problems) {
  const db = await backend.create();
  try {
    const cache = await openMemoryCache({ db: wrap(db.adapter()), ...QUIET });
    await seed(cache);
    const outcome = await inject(cache);
    const now = await sameAsFresh(openMemoryCache, db, cache, label, problems);
    if (outcome === "resolved" && now !== after) problems.push(`${label}: resolved, but the database does not hold the operation's result`);
    if (now !== before && now !== after) problems.push(`${label}: the database holds neither the state before nor the one after`);
    if (op) await retryClean(openMemoryCache, db, cache, op, label, after, problems);
    else await cache.close();
    return { outcome, now };
  } catch (e) {
    problems.push(`${label}: ${e?.stack ?? e}`);
    return null;
  } finally {
    await db.dispose();
  }
}

const settle = (p) => p.then(() => "resolved", (e) => e);

/**
 * Every operation with a fault at every call index, before and after the call (for a batch:
 * before it runs, and after it committed: a lost acknowledgement). Returns { problems, cases,
 * rejected, committedThenThrew }.
 */
export async function adapterFaults(openMemoryCache, backend, ops = Object.keys(OPS)) {
  const problems = [];
  let cases = 0, rejected = 0, committedThenThrew = 0;
  for (const op of ops) {
    // a clean run: how many calls the operation makes, and the database before and after it
    let ad;
    const { before, after, value: calls } = await cleanRun(openMemoryCache, backend, async (cache) => {
      const start = ad.calls;
      await OPS[op](cache);
      return ad.calls - start;
    }, (a) => (ad = faulty(a, { armed: false })));
    if (before === after) problems.push(`${backend.name} ${op}: the clean run changed nothing`);
    for (let at = 0; at < calls; at++) {
      for (const when of ["before", "after"]) {
        const label = `${backend.name} ${op}, fault ${when} call ${at} of ${calls}`;
        const plan = { armed: false, at: 0, when };
        const r = await faultCase(openMemoryCache, backend, {
          label, op, before, after, wrap: (a) => (ad = faulty(a, plan)),
          inject: async (cache) => {
            plan.at = ad.calls + at;
            plan.armed = true;
            const outcome = await settle(OPS[op](cache));
            plan.armed = false;
            if (!ad.fired) problems.push(`${label}: the fault did not fire`);
            return outcome;
          },
        }, problems);
        if (!r) continue;
        cases++;
        if (r.outcome !== "resolved") {
          rejected++;
          if (!/injected fault/.test(String(r.outcome?.message))) problems.push(`${label}: rejected with ${r.outcome} instead of the injected fault`);
          if (r.now === after && r.now !== before) committedThenThrew++;
        }
      }
    }
  }
  return { problems, cases, rejected, committedThenThrew };
}

/** Retry without the fault: it resolves, the database is in the `after` state, a fresh open sees the same; then close. */
async function retryClean(openMemoryCache, db, cache, op, label, after, problems) {
  const retry = await settle(OPS[op](cache));
  if (retry !== "resolved") problems.push(`${label}: the retry rejected: ${retry?.message ?? retry}`);
  else if (await stored(cache) !== after) problems.push(`${label}: after the retry the database differs from a clean run's`);
  await sameAsFresh(openMemoryCache, db, cache, `${label}, retried`, problems);
  await cache.close();
}

/** put and sleep with an onProgress that throws at each of its events in turn. */
export async function progressFaults(openMemoryCache, backend) {
  const problems = [];
  let cases = 0, afterCommit = 0;
  for (const op of ["put", "sleep"]) {
    let events = 0;
    const { before, after } = await cleanRun(openMemoryCache, backend, (cache) => OPS[op](cache, () => { events++; }));
    for (let k = 0; k < events; k++) {
      const label = `${backend.name} ${op}, onProgress throws at event ${k} of ${events}`;
      let seen = 0;
      const r = await faultCase(openMemoryCache, backend, {
        label, op, before, after,
        inject: (cache) => settle(OPS[op](cache, (p) => { if (seen++ === k) throw new Error(`callback threw at ${p.phase} ${p.done}/${p.total}`); })),
      }, problems);
      if (!r) continue;
      cases++;
      if (!/callback threw/.test(String(r.outcome?.message))) problems.push(`${label}: did not reject with the callback's error (${r.outcome})`);
      if (r.now === after) afterCommit++;
    }
  }
  return { problems, cases, afterCommit };
}

/**
 * Two caches over one database (two connections where the backend has them), writing and
 * searching alternately: after every step both answer as a fresh cache does. Then the
 * rowid case: the newest memory deleted and another put by A, B's search for the new
 * memory's unique word finds the new path. Returns { problems, steps }.
 */
export async function twoOpeners(openMemoryCache, backend, steps = 24) {
  const problems = [];
  const db = await backend.create();
  try {
    const a = await openMemoryCache({ db: db.adapter(), ...QUIET });
    const b = await openMemoryCache({ db: db.adapter(), ...QUIET });
    await seed(a);
    const r = rng(7);
    let fresh = 0, now = NOW;
    const live = async () => (await a.all()).filter((m) => m.supersededBy === null).map((m) => m.path);
    const pick = (xs) => xs[Math.floor(r() * xs.length)];
    for (let s = 0; s < steps; s++) {
      const who = s % 2 ? b : a, name = s % 2 ? "B" : "A";
      const paths = await live();
      const kind = ["put", "put", "delete", "link", "reinforce", "sleep"][Math.floor(r() * 6)];
      now += DAY;
      const other = who === a ? b : a;
      let lost = null; // what the other cache must read back once the call resolved
      if (kind === "put") {
        const m = extra[fresh % extra.length], path = `two/${fresh++}.html`;
        await who.put([{ ...m, path, gist: `${m.gist} ${name}${s}`, createdAt: now }]);
        if ((await other.get([path])).length !== 1) lost = `the put of ${path}`;
      } else if (kind === "delete" && paths.length > 10) {
        const gone = [pick(paths), pick(paths)];
        await who.delete(gone);
        if ((await other.get(gone)).length) lost = `the delete of ${gone}`;
      } else if (kind === "link" && paths.length > 1) {
        const l = { src: pick(paths), dst: pick(paths), strength: r() };
        await who.link([l]);
        if (!(await other.edges()).some((e) => e.src === l.src && e.dst === l.dst && e.strength === l.strength)) lost = "the link";
      } else if (kind === "reinforce" && paths.length) {
        const p = pick(paths);
        await who.reinforce([p], { now, signal: "positive" });
        if ((await other.get([p]))[0].accessedAt !== now) lost = `the reinforce of ${p}`;
      } else await who.sleep({ now, floor: 0.3, evict: r() < 0.5 });
      if (lost) problems.push(`${backend.name} two openers, step ${s}: ${lost} by ${name} resolved but is not in the database`);
      for (const [c, n] of [[a, "A"], [b, "B"]]) await sameAsFresh(openMemoryCache, db, c, `${backend.name} two openers, step ${s} (${name} ${kind}), ${n}`, problems);
    }
    // rowid reuse: A deletes the newest memory (the largest id) and puts another; B searches its unique word
    const newest = (await a.all()).filter((m) => m.supersededBy === null).sort((x, y) => y.createdAt - x.createdAt)[0];
    await b.search({ text: newest.gist }); // B keeps its term lists
    await a.delete([newest.path]);
    await a.put([{ ...corpus[0], path: "two/reused.html", gist: "zanzibar quokka", body: "unique words", createdAt: now }]);
    const hits = (await b.search({ text: "zanzibar quokka", weights: { vector: 0 } })).map((h) => h.path);
    if (JSON.stringify(hits) !== JSON.stringify(["two/reused.html"])) problems.push(`${backend.name} rowid reuse: B's search found ${JSON.stringify(hits)}`);
    const old = (await b.search({ text: newest.gist, weights: { vector: 0 }, limit: 50 })).map((h) => h.path);
    if (old.includes(newest.path)) problems.push(`${backend.name} rowid reuse: B still finds the deleted ${newest.path}`);
    await sameAsFresh(openMemoryCache, db, b, `${backend.name} rowid reuse, B`, problems);
    await a.close();
    await b.close();
  } catch (e) {
    problems.push(`${backend.name} two openers: ${e?.stack ?? e}`);
  } finally {
    await db.dispose();
  }
  return { problems, steps };
}

/**
 * Every operation followed by searches, and searches alone, with one of memdomain's wasm
 * allocations failed (the build's allocation hook: hook.arm(k) fails the k-th allocation from
 * now, hook.reached() says whether it was reached, hook.count() how many were made since arming,
 * hook.disarm() stops; tests/wasm/alloc_hook.c). Each operation's allocations are counted in a
 * clean run; at most `points` indices are failed, spread evenly from the first to the last. After
 * each: the call resolved with the clean run's answer, or rejected with a RangeError; then
 * faultCase's checks (a search has no retry). Returns { problems, cases, rejected, counts }.
 */
export async function allocFaults(openMemoryCache, backend, hook, ops = [...Object.keys(OPS), "search"], points = 40) {
  const problems = [];
  let cases = 0, rejected = 0;
  const counts = {};
  // A write's wasm work (resident rows, term lists, the graph) follows it at the next search:
  // each write is run with the searches after it.
  const run = (op, c) => (op === "search" ? view(c) : OPS[op](c).then(() => view(c)));
  for (const op of ops) {
    let count = 0;
    const { before, after, value: answer } = await cleanRun(openMemoryCache, backend, async (cache) => {
      hook.arm(1e9); // counts, fails nothing
      try {
        return await run(op, cache);
      } finally {
        count = hook.count();
        hook.disarm();
      }
    });
    counts[op] = count;
    if (count === 0) problems.push(`${backend.name} ${op}: no allocation to fail`);
    const m = Math.min(points, count);
    const at = [...new Set(Array.from({ length: m }, (_, i) => Math.round((i * (count - 1)) / Math.max(1, m - 1))))];
    for (const k of at) {
      const label = `${backend.name} ${op}, wasm allocation ${k} of ${count} failed`;
      const r = await faultCase(openMemoryCache, backend, {
        label, op: op === "search" ? null : op, before, after,
        inject: async (cache) => {
          let got;
          hook.arm(k);
          try {
            const outcome = await run(op, cache).then((v) => { got = v; return "resolved"; }, (e) => e);
            if (!hook.reached()) problems.push(`${label}: not reached (the clean run made ${count})`);
            if (outcome === "resolved" && got !== answer) problems.push(`${label}: resolved with another answer than the clean run's`);
            return outcome;
          } finally {
            hook.disarm();
          }
        },
      }, problems);
      if (!r) continue;
      cases++;
      if (r.outcome !== "resolved") {
        rejected++;
        if (!(r.outcome instanceof RangeError)) problems.push(`${label}: rejected with ${r.outcome?.stack ?? r.outcome} instead of a RangeError`);
      }
    }
  }
  return { problems, cases, rejected, counts };
}
