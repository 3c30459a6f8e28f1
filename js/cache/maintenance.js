// memdomain/cache: sleep() and what surrounds it: the budget checked before a pass, the stored
// retention policy it applies (policy()), and on a Durable Object its schedule on the object's
// alarm (scheduleSleep, onAlarm; durable.js). The pass itself is sleep.js.
import { runSleep } from "./sleep.js";
import { checkResident, storedCounts } from "./budget.js";
import { checkCalibrateOptions } from "./calibrate.js";
import { resolvePolicy, storedPolicy } from "./policy.js";
import { alarmStorage, armAlarm, checkSchedule, nextTime, readSchedule, scheduleStatement } from "./durable.js";
import { checkOptions } from "./schema.js";
import { record } from "./validate.js";

/** MemoryCache's sleep, policy and alarm methods (index.js installs them on its prototype). */
export class MaintenanceMethods {
  /** Before a sleep pass under options.maxResidentBytes: the stored counts, checked (the pass reads every live row). */
  async _sleepBudget(fn) {
    if (this._maxResident === null) return true;
    const c = await storedCounts(this._db);
    this._text = c.text;
    this._textStale = false;
    checkResident(fn, this._maxResident, { ...c, dim: this._resident.dim, lexicalIndexMin: this._lexical.indexMin }, "the cache holds");
    return true;
  }

  /** The retention policy sleep() applies: the stored one (sleep({ policy }) stores it) resolved against the defaults. */
  policy() {
    return this._op("policy", async () => {
      const [row] = await this._db.all("SELECT value FROM md_meta WHERE key = 'policy'");
      const p = resolvePolicy("policy", "the stored policy", storedPolicy("policy", row?.value));
      return { ...p.scoring, evict: p.evict, minAgeDays: p.minAgeDays, archiveBelow: p.archiveBelow, reprieve: p.reprieve, purgeAfterDays: p.purgeAfterDays };
    }, { state: false });
  }

  /** One maintenance pass, one atomic write (see sleep.js and the README). Resolves the report. */
  sleep(options) {
    const fn = "sleep";
    return this._op(fn, async () => {
      record(fn, "options", options);
      const { calibrate: cal, ...passOptions } = options;
      // options.calibrate: undefined (when stale), false, true (always), or calibrate()'s options (always)
      if (cal !== undefined && typeof cal !== "boolean") checkCalibrateOptions(fn, cal, "options.calibrate");
      const report = await this._sleepPass(fn, passOptions);
      const run = cal === true || (cal !== undefined && cal !== false) || (cal === undefined && await this._calibrationStale());
      const c = run ? await this._calibrate(fn, checkCalibrateOptions(fn, typeof cal === "object" ? cal : {}, "options.calibrate")) : null;
      const shown = c ?? this._calibration;
      report.calibration = { ran: run, vector: shown?.vector ?? null, reason: shown?.reason ?? null };
      return report;
    });
  }

  _sleepPass(fn, options) {
    const hits = new Map(this._hits);
    return (async () => (await this._sleepBudget(fn)) && runSleep(this._db, this._resident, fn, options, {
      limits: this._limits, hits,
      // the pass changes no embedding or salience signal: only the memories it removed and the edges
      write: (st, { removed, edges, lists }) => this._write(fn, st, () => {
        if (lists) this._resident.neighborLists = { gen: this._gen, ...lists }; // what md_neighbors holds at this generation
        const gone = removed.filter((r) => this._lexical.pathOf.has(r.id)).map((r) => r.id);
        for (const { path, id } of removed) {
          this._resident.removeMemory(path);
          this._lexical.pathOf.delete(id);
        }
        if (removed.length) {
          this._lexical.changed(gone, []);
          this._textStale = true;
        }
        if (edges) this._resident.setEdges(edges);
        for (const [p, h] of hits) if (this._hits.get(p) === h) this._hits.delete(p); // counted in the database now
      }, { edges: edges !== null, paths: removed.map((r) => r.path) }),
    }))();
  }

  /**
   * Durable Objects: sleep passes on the object's alarm. options: { at (a Date or ms: the first pass),
   * every (ms between passes, at least 1,000; omitted or null: one pass), and sleep()'s options but `now`
   * and `onProgress` }. Stores the schedule in the database (replacing any) and sets the alarm to `at`
   * unless it is set earlier. Call onAlarm() from the object's alarm(). Resolves { at, every }.
   */
  scheduleSleep(options) {
    const fn = "scheduleSleep";
    return this._op(fn, async () => {
      const storage = alarmStorage(fn, this);
      const schedule = checkSchedule(fn, options);
      await this._write(fn, [scheduleStatement(schedule)], () => {});
      this._schedule = schedule;
      await armAlarm(storage, schedule.at);
      return { at: schedule.at, every: schedule.every };
    });
  }

  /**
   * Durable Objects: call from the object's alarm() handler. If the scheduled pass is due, runs
   * sleep({ now: its scheduled time }) (so a retried alarm writes nothing twice), moves the schedule
   * on by `every` past the clock (or ends it) and sets the next alarm; if it is not due, sets the
   * alarm for it again. options: { now (the clock; default Date.now()), onProgress (the pass's) }.
   * Resolves { ran, at (the pass's time, or null), report (sleep's, or null), next (the next pass, or null) }.
   */
  async onAlarm(options = {}) {
    const fn = "onAlarm";
    const { now } = checkOptions(fn, "options", options, "onAlarm");
    const storage = alarmStorage(fn, this);
    this._inAlarm++;
    try {
      return await this._onAlarm(fn, storage, now, options.onProgress);
    } finally {
      this._inAlarm--;
    }
  }

  async _onAlarm(fn, storage, now, onProgress) {
    const schedule = await this._op(fn, () => readSchedule(this._db), { state: false });
    this._schedule = schedule;
    if (schedule === null) return { ran: false, at: null, report: null, next: null };
    if (schedule.at > now) {
      await armAlarm(storage, schedule.at, now);
      return { ran: false, at: null, report: null, next: schedule.at };
    }
    const report = await this.sleep({ ...schedule.sleep, now: schedule.at, ...(onProgress ? { onProgress } : {}) });
    const next = schedule.every === null ? null : nextTime(schedule.at, schedule.every, now);
    const after = await this._op(fn, async () => {
      const current = await readSchedule(this._db);
      if (JSON.stringify(current) !== JSON.stringify(schedule)) return current; // scheduleSleep ran meanwhile: that one stands
      const moved = next === null ? null : { ...schedule, at: next };
      await this._write(fn, [scheduleStatement(moved)], () => {});
      return moved;
    });
    this._schedule = after;
    if (after !== null) await armAlarm(storage, after.at, now);
    return { ran: true, at: schedule.at, report, next: after === null ? null : after.at };
  }
}
