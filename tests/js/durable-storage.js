// A Durable Object's ctx.storage emulated in Node over better-sqlite3: for the Jest suites of
// the alarm and the memory budget, and for bench/durable.mjs's memory measurement (workerd has
// no memory counter). The same adapter (durableObjectAdapter) runs on it, with rows as workerd
// gives them (each BLOB its own ArrayBuffer). Only what the cache uses: sql.exec(sql, ...params)
// -> { toArray(), raw() }, transactionSync, and an alarm (getAlarm, setAlarm; `alarm` holds it).
// The real thing runs in workerd in tests/runtimes/durable.test.mjs.
import Database from "better-sqlite3";

const param = (p) => (p instanceof ArrayBuffer ? Buffer.from(p) : ArrayBuffer.isView(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p);
const value = (v) => (Buffer.isBuffer(v) ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) : v);

export function emulatedStorage(path = ":memory:") {
  const db = new Database(path);
  const stmts = new Map();
  const prep = (q) => {
    let st = stmts.get(q);
    if (!st) stmts.set(q, (st = db.prepare(q)));
    return st;
  };
  const storage = {
    db,
    alarm: null,
    sql: {
      exec(q, ...params) {
        const st = prep(q), args = params.map(param);
        if (!st.reader) {
          st.run(...args);
          return { toArray: () => [], raw: () => [][Symbol.iterator]() };
        }
        return {
          toArray: () => st.raw(false).all(...args).map((r) => {
            for (const k in r) r[k] = value(r[k]);
            return r;
          }),
          raw: () => st.raw(true).all(...args).map((r) => r.map(value))[Symbol.iterator](),
        };
      },
    },
    transactionSync: (fn) => db.transaction(fn)(),
    async setAlarm(t) { storage.alarm = t instanceof Date ? t.getTime() : t; },
    async getAlarm() { return storage.alarm; },
  };
  return storage;
}
