// memdomain/cache for Durable Objects (issue 29), in Node: the memory budget
// (options.maxResidentBytes: refused puts, imports, opens and sleeps; the UTF-8 count of text;
// the default on a Durable Object's storage) and the sleep schedule on the alarm (scheduleSleep,
// onAlarm: due or not, retried after the pass committed, one-shot, late by several periods)
// on a ctx.storage emulated over better-sqlite3. tests/runtimes/durable.test.mjs runs the same
// code in workerd.
import * as md from "../../js/index.js";
import {
  DURABLE_OBJECT_RESIDENT_BYTES, openMemoryCache, residentEstimate,
} from "../../js/cache/index.js";
import { wasmBytes } from "./build.js";
import { makeCorpus, T0 } from "./cache-corpus.js";
import { emulatedStorage as emulate } from "./durable-storage.js";

md.initSync(wasmBytes());
const storages = [];
const emulatedStorage = () => {
  const s = emulate();
  storages.push(s);
  return s;
};
afterAll(() => { for (const s of storages) s.db.close(); });
const D = 8, DAY = 86_400_000, HOUR = 3_600_000;
const corpus = makeCorpus(40, D, 51, { dupEvery: 7 });
const rejects = (p) => p.then(() => null, (e) => e);
const utf8 = (s) => new TextEncoder().encode(s).length;
const estimateOf = (mems) => residentEstimate({ live: mems.length, vectors: mems.filter((m) => m.embedding).length, dim: D,
  text: mems.reduce((n, m) => n + utf8(m.gist) + utf8(m.body), 0) });

describe("options.maxResidentBytes", () => {
  test("is checked: a TypeError or RangeError naming it", async () => {
    for (const [v, kind] of [["1", TypeError], [-1, RangeError], [1.5, RangeError], [Infinity, RangeError]]) {
      const e = await rejects(openMemoryCache({ maxResidentBytes: v }));
      expect(e).toBeInstanceOf(kind);
      expect(e.message).toMatch(/^openMemoryCache: options\.maxResidentBytes /);
    }
  });

  test("a put past it is refused before anything is written; a put that replaces counts once", async () => {
    const first = corpus.slice(0, 10);
    const cache = await openMemoryCache({ maxResidentBytes: estimateOf(first) });
    expect(await cache.put(first)).toEqual({ inserted: 10, replaced: 0 });
    expect(await cache.put(first.map((m) => ({ ...m, accessCount: 3 })))).toEqual({ inserted: 0, replaced: 10 });
    const e = await rejects(cache.put([corpus[10]]));
    expect(e).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(/^put: memories would bring the cache to 11 live memories \(11 with 8-element embeddings, .* over options\.maxResidentBytes \(\d+ bytes/);
    expect(await cache.count()).toBe(10);
    const imp = await rejects(cache.importJsonl(`${JSON.stringify({ ...corpus[11], embedding: Array.from(corpus[11].embedding) })}\n`));
    expect(imp).toBeInstanceOf(RangeError);
    expect(imp.message).toMatch(/^importJsonl: memories would bring the cache to 11 live memories/);
    expect(await cache.count()).toBe(10);
    // deleting makes room again
    await cache.delete([first[0].path]);
    expect(await cache.put([corpus[10]])).toEqual({ inserted: 1, replaced: 0 });
    expect((await cache.residentBytes()).max).toBe(estimateOf(first));
    await cache.close();
  });

  test("text counts as its UTF-8 bytes, as SQLite's octet_length: the budget holds to the byte", async () => {
    const mems = [{ ...corpus[0], gist: "é ü ø", body: "日本語 and 😀 and \u{10FFFF}" }, { ...corpus[1], gist: "plain", body: "ascii" }];
    const exact = estimateOf(mems);
    const tight = await openMemoryCache({ maxResidentBytes: exact - 1 });
    expect((await rejects(tight.put(mems)))?.message).toMatch(/over options\.maxResidentBytes/);
    await tight.close();
    const cache = await openMemoryCache({ maxResidentBytes: exact });
    await cache.put(mems);
    const r = await cache.residentBytes();
    expect(r).toEqual({ live: 2, vectors: 2, dim: D, text: mems.reduce((n, m) => n + utf8(m.gist) + utf8(m.body), 0), estimate: exact, max: exact,
      lexicalIndexMin: 20000 });
    await cache.close();
  });

  test("open refuses a database past it; sleep refuses when another writer grew the database past it", async () => {
    const storage = emulatedStorage();
    const big = await openMemoryCache({ storage, maxResidentBytes: null });
    await big.put(corpus.slice(0, 20));
    const small = estimateOf(corpus.slice(0, 20)) - 1;
    const e = await rejects(openMemoryCache({ storage, maxResidentBytes: small }));
    expect(e).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(/^openMemoryCache: the cache holds 20 live memories .* over options\.maxResidentBytes/);
    const fits = await openMemoryCache({ storage, maxResidentBytes: small + 1 });
    await big.put([corpus[20]]); // the other writer
    const s = await rejects(fits.sleep({ now: T0 + DAY }));
    expect(s).toBeInstanceOf(RangeError);
    expect(s.message).toMatch(/^sleep: the cache holds 21 live memories .* over options\.maxResidentBytes/);
    await fits.close();
    await big.close();
  });

  test("defaults to DURABLE_OBJECT_RESIDENT_BYTES on a Durable Object's storage, and to none elsewhere", async () => {
    const dobj = await openMemoryCache({ storage: emulatedStorage() });
    expect(dobj.backend).toBe("durable-object");
    expect((await dobj.residentBytes()).max).toBe(DURABLE_OBJECT_RESIDENT_BYTES);
    await dobj.close();
    const wasm = await openMemoryCache();
    expect((await wasm.residentBytes()).max).toBe(null);
    await wasm.close();
  });
});

describe("scheduleSleep and onAlarm", () => {
  const open = async () => {
    const storage = emulatedStorage();
    const cache = await openMemoryCache({ storage });
    await cache.put(corpus.slice(0, 30));
    return { storage, cache };
  };
  /** What sleep({ now }) reports on a fresh sqlite-wasm cache holding the same memories. */
  const reference = async (now, passes = 1) => {
    const c = await openMemoryCache();
    await c.put(corpus.slice(0, 30));
    let r;
    for (let i = 0; i < passes; i++) r = await c.sleep({ now });
    await c.close();
    return { ...r, timings: undefined };
  };

  test("needs a backend with an alarm, and checks its options as sleep does", async () => {
    const wasm = await openMemoryCache();
    const e = await rejects(wasm.scheduleSleep({ at: T0 }));
    expect(e).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(/^scheduleSleep: this is on a sqlite-wasm database, which has no alarm/);
    expect((await rejects(wasm.onAlarm()))?.message).toMatch(/^onAlarm: this is on a sqlite-wasm database, which has no alarm/);
    await wasm.close();
    const { cache, storage } = await open();
    for (const [options, re] of [[{}, /^scheduleSleep: options\.at /], [{ at: T0, every: 10 }, /^scheduleSleep: options\.every must be in \[1000/],
      [{ at: T0, floor: 2 }, /^scheduleSleep: options\.floor must be in/], [{ at: T0, now: T0 }, /^scheduleSleep: options\.now /],
      [{ at: T0, onProgress: () => {} }, /^scheduleSleep: options\.onProgress /]]) {
      expect((await rejects(cache.scheduleSleep(options)))?.message).toMatch(re);
    }
    expect(storage.alarm).toBe(null);
    expect((await rejects(cache.onAlarm({ when: 1 })))?.message).toMatch(/^onAlarm: options\.when /);
    await cache.close();
  });

  test("a due pass runs at the scheduled time, moves the schedule on and sets the alarm; a repeat finds nothing due", async () => {
    const { cache, storage } = await open();
    const at = T0 + 40 * DAY;
    expect(await cache.scheduleSleep({ at, every: DAY, floor: 0.5 })).toEqual({ at, every: DAY });
    expect(storage.alarm).toBe(at);
    // an early alarm: nothing due; the alarm is set again for the pass
    storage.alarm = null;
    expect(await cache.onAlarm({ now: at - 1 })).toEqual({ ran: false, at: null, report: null, next: at });
    expect(storage.alarm).toBe(at);
    // due (the clock a little past it): the pass runs with now = at, not the clock
    storage.alarm = null; // the runtime clears it while the handler runs
    const r = await cache.onAlarm({ now: at + 5000 });
    expect(r.ran).toBe(true);
    expect(r.at).toBe(at);
    expect(r.next).toBe(at + DAY);
    const ref = await (async () => {
      const c = await openMemoryCache();
      await c.put(corpus.slice(0, 30));
      const x = await c.sleep({ now: at, floor: 0.5 });
      await c.close();
      return { ...x, timings: undefined };
    })();
    expect({ ...r.report, timings: undefined }).toEqual(ref);
    expect(r.report.written.statements).toBeGreaterThan(0);
    expect(storage.alarm).toBe(at + DAY);
    // the runtime runs the handler again (a retry): the schedule has moved, nothing is due
    expect(await cache.onAlarm({ now: at + 6000 })).toEqual({ ran: false, at: null, report: null, next: at + DAY });
    await cache.close();
  });

  test("an alarm that threw after the pass committed runs again: the same pass writes nothing, then the schedule moves", async () => {
    const { cache, storage } = await open();
    const at = T0 + 40 * DAY;
    await cache.scheduleSleep({ at, every: DAY });
    const boom = (p) => { if (p.phase === "write" && p.done === 1) throw new Error("lost after the commit"); };
    storage.alarm = null; // the runtime clears it while the handler runs
    expect((await rejects(cache.onAlarm({ now: at, onProgress: boom })))?.message).toBe("lost after the commit");
    const once = await cache.all();
    const again = await cache.onAlarm({ now: at + 2000 });
    expect(again.ran).toBe(true);
    expect(again.report.written.statements).toBe(0);
    expect(again.next).toBe(at + DAY);
    expect(await cache.all()).toEqual(once);
    // what a second pass at the same time reports, but the calibration: the first run threw before it, so the retry calibrates
    expect({ ...again.report, timings: undefined, calibration: undefined }).toEqual({ ...(await reference(at, 2)), calibration: undefined });
    expect(again.report.calibration.ran).toBe(true);
    expect(storage.alarm).toBe(at + DAY);
    await cache.close();
  });

  test("an alarm that threw halfway through the pass wrote nothing; the retry runs the whole pass", async () => {
    const { cache } = await open();
    const at = T0 + 40 * DAY;
    await cache.scheduleSleep({ at, every: DAY });
    const before = await cache.all();
    const boom = (p) => { if (p.phase === "graph") throw new Error("halfway"); };
    expect((await rejects(cache.onAlarm({ now: at, onProgress: boom })))?.message).toBe("halfway");
    expect(await cache.all()).toEqual(before);
    const r = await cache.onAlarm({ now: at + 2000 });
    expect({ ...r.report, timings: undefined }).toEqual(await reference(at));
    await cache.close();
  });

  test("a one-shot schedule ends after its pass; a late alarm skips to the first period after the clock", async () => {
    const { cache, storage } = await open();
    const at = T0 + 40 * DAY;
    await cache.scheduleSleep({ at });
    const r = await cache.onAlarm({ now: at });
    expect([r.ran, r.next]).toEqual([true, null]);
    expect(await cache.onAlarm({ now: at + DAY })).toEqual({ ran: false, at: null, report: null, next: null });
    await cache.scheduleSleep({ at: at + DAY, every: 6 * HOUR });
    storage.alarm = null; // the runtime clears it while the handler runs
    const late = await cache.onAlarm({ now: at + DAY + 20 * HOUR }); // three periods late
    expect([late.ran, late.at, late.next]).toEqual([true, at + DAY, at + DAY + 24 * HOUR]);
    expect(storage.alarm).toBe(at + DAY + 24 * HOUR);
    await cache.close();
  });

  test("scheduleSleep keeps an earlier alarm (another use of it), and replaces the schedule", async () => {
    const { cache, storage } = await open();
    const at = T0 + 40 * DAY;
    storage.alarm = at - HOUR;
    await cache.scheduleSleep({ at, every: DAY });
    expect(storage.alarm).toBe(at - HOUR);
    await cache.scheduleSleep({ at: at + 2 * DAY, every: DAY });
    expect(await cache.onAlarm({ now: at + HOUR })).toEqual({ ran: false, at: null, report: null, next: at + 2 * DAY });
    await cache.close();
  });
});

describe("a schedule whose alarm was lost sleeps again (issue 43)", () => {
  const at = T0 + 40 * DAY;
  /** The export of a sqlite-wasm cache after the same puts and one pass at `at`. */
  const referenceExport = async () => {
    const c = await openMemoryCache();
    await c.put(corpus.slice(0, 30));
    await c.sleep({ now: at });
    const text = await c.exportJsonl();
    await c.close();
    return text;
  };
  // every phase of the pass, the write before its commit and after it
  const PHASES = [["read", 0], ["neighbors", 0], ["merge", 0], ["graph", 0], ["decay", 0], ["retention", 0], ["write", 0], ["write", 1]];

  test.each(PHASES)("an alarm aborted at %s (done %i), the runtime retrying no more: re-armed by the next call and the next open", async (phase, done) => {
    const storage = emulatedStorage();
    const cache = await openMemoryCache({ storage });
    await cache.put(corpus.slice(0, 30));
    await cache.scheduleSleep({ at, every: DAY });
    storage.alarm = null; // the runtime clears it while the handler runs
    const abort = (p) => { if (p.phase === phase && p.done === done) throw new Error(`aborted at ${phase}`); };
    expect((await rejects(cache.onAlarm({ now: at + 1000, onProgress: abort })))?.message).toBe(`aborted at ${phase}`);
    expect(storage.alarm).toBe(null); // an aborted alarm, or one past the runtime's retries, is not set again (before: never again)
    await cache.count(); // the object's next call
    expect(storage.alarm).toBe(at);
    await cache.close();
    storage.alarm = null; // the same, but the object restarted: its next open
    const again = await openMemoryCache({ storage });
    expect(storage.alarm).toBe(at);
    storage.alarm = null; // the alarm fires (at once: its time has passed)
    const r = await again.onAlarm({ now: at + 5000 });
    expect([r.ran, r.at, r.next]).toEqual([true, at, at + DAY]);
    expect(storage.alarm).toBe(at + DAY);
    expect(await again.exportJsonl()).toBe(await referenceExport()); // one pass at the scheduled time, whatever ran before
    await again.close();
  });

  test("an alarm set later than the schedule is moved to it; an earlier one (another use) is kept; a corrupt schedule is none", async () => {
    const storage = emulatedStorage();
    const cache = await openMemoryCache({ storage });
    await cache.scheduleSleep({ at, every: DAY });
    storage.alarm = at + 10 * DAY;
    await cache.search({ text: "x" });
    expect(storage.alarm).toBe(at);
    storage.alarm = at - HOUR;
    await cache.count();
    expect(storage.alarm).toBe(at - HOUR);
    await cache.close();
    storage.sql.exec("UPDATE md_meta SET value = '{not json' WHERE key = 'sleep_schedule'");
    storage.alarm = null;
    const again = await openMemoryCache({ storage });
    expect(storage.alarm).toBe(null);
    expect(await again.onAlarm({ now: at })).toEqual({ ran: false, at: null, report: null, next: null });
    await again.close();
  });
});
