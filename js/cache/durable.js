// memdomain/cache on a Cloudflare Durable Object: sleep passes on the object's alarm.
//
// scheduleSleep stores the schedule ({ at, every, sleep options }) in md_meta with one write
// batch and sets the alarm; onAlarm (called from the object's alarm() handler) runs
// sleep({ now: at }) with the SCHEDULED time, not the clock, then moves the schedule on and
// sets the next alarm. An alarm can run more than once (a handler that threw is retried, with
// backoff, up to six times): every step is safe to repeat. A retry after the pass committed
// runs sleep with the same `now`, which writes nothing (sleep.js); a retry after the schedule
// moved finds it not due and only sets the alarm again. Nothing is lost if the isolate dies
// anywhere in between: the pass is one transaction, and the schedule is in the database.
import { checkSleepOptions } from "./sleep.js";
import { SCHEDULED_SLEEP as SLEEP_KEYS, checkOptions } from "./schema.js";
import { rangeError } from "./validate.js";

const SCHEDULE_KEY = "sleep_schedule";

/** Whether a storage has the alarm API (a Durable Object's ctx.storage). */
export const hasAlarm = (storage) => !!storage && typeof storage.setAlarm === "function" && typeof storage.getAlarm === "function";

/** The object's storage behind a cache, or a RangeError naming the backend. */
export function alarmStorage(fn, cache) {
  const storage = cache._db.storage;
  if (!hasAlarm(storage)) {
    throw rangeError(fn, "this", `is on a ${cache.backend} database, which has no alarm: call sleep({ now }) from your own scheduler ` +
      "(scheduleSleep needs openMemoryCache({ storage: ctx.storage }) in a Durable Object)");
  }
  return storage;
}

/** Checked scheduleSleep options: { at, every (ms or null), sleep (the stored sleep options) }. */
export function checkSchedule(fn, options) {
  const { at, every } = checkOptions(fn, "options", options, "schedule", { extra: SLEEP_KEYS });
  const sleep = {};
  for (const k of SLEEP_KEYS) if (options[k] !== undefined) sleep[k] = options[k];
  checkSleepOptions(fn, { ...sleep, now: at }); // the same checks (and messages) as sleep()'s, now, not when the alarm fires
  return { at, every, sleep };
}

/** The stored schedule, or null (also for a row that is not one scheduleSleep wrote: there is no schedule to keep). */
export async function readSchedule(db) {
  const [r] = await db.all("SELECT value FROM md_meta WHERE key = ?", [SCHEDULE_KEY]);
  if (!r) return null;
  let s;
  try {
    s = JSON.parse(r.value);
  } catch {
    return null;
  }
  const ok = s !== null && typeof s === "object" && Number.isFinite(s.at) && (s.every === null || Number.isFinite(s.every)) &&
    s.sleep !== null && typeof s.sleep === "object";
  return ok ? s : null;
}

/** The statement that stores `schedule` (null: removes it). */
export function scheduleStatement(schedule) {
  return schedule === null ? { sql: "DELETE FROM md_meta WHERE key = ?", params: [SCHEDULE_KEY] }
    : { sql: "INSERT OR REPLACE INTO md_meta (key, value) VALUES (?, ?)", params: [SCHEDULE_KEY, JSON.stringify(schedule)] };
}

/**
 * Set the object's alarm to `at` unless it is already set at or before it (another use of the alarm
 * comes first). From onAlarm (`now`: its clock), an alarm at or before now is the one running: replaced.
 */
export async function armAlarm(storage, at, now = -Infinity) {
  const current = await storage.getAlarm();
  if (current === null || current === undefined || current > at || current <= now) await storage.setAlarm(at);
}

/**
 * A stored schedule whose alarm is gone (an alarm aborted mid-pass, or failed past the runtime's
 * retries: getAlarm() is null and nothing would set it again) or set later than the schedule: set it
 * again, for the schedule's time (past times fire at once). Called when the cache opens and before
 * each call, not while onAlarm runs (the runtime clears the alarm while its handler runs).
 */
export async function rearm(storage, schedule) {
  if (schedule === null) return false;
  const current = await storage.getAlarm();
  if (current !== null && current !== undefined && current <= schedule.at) return false;
  await storage.setAlarm(schedule.at);
  return true;
}

/** The first time after `now` on the schedule's grid (at + k * every, k >= 1). */
export function nextTime(at, every, now) {
  const k = Math.max(1, Math.floor((now - at) / every) + 1);
  return at + k * every;
}
