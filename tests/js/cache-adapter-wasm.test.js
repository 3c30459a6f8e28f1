// The sqlite-wasm adapter binds and reads numbers, nulls and short strings through the raw
// exports (oo1's Stmt.bind/get cost several times more per value). It must store and return
// exactly what oo1 itself does: the same storage class, the same value, the same JS type.
import sqlite3InitModule from "@sqlite.org/sqlite-wasm";
import { sqliteWasmAdapter } from "../../js/cache/adapters.js";

const sqlite3 = await sqlite3InitModule({ print: () => {}, printErr: () => {} });

const VALUES = [
  0, -0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53), 2 ** 62, -(2 ** 62) - 1024,
  2 ** 63, -(2 ** 63), 2 ** 64, 0.5, -1e-300, 5e-324, 1e300, NaN, Infinity, -Infinity,
  "", "a", "é", "日本語", "😀 emoji", "\ud800 lone", "\udc00", "x".repeat(4096), "y".repeat(4097), "é".repeat(4096), "\u0000nul",
  true, false, null, undefined, new Uint8Array([0, 255, 7]), new Uint8Array(0),
];
const show = (v) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? `bytes[${[...v]}]` : Object.is(v, -0) ? "-0" : JSON.stringify(v) ?? String(v));

test("binding: every value is stored as oo1's own bind stores it (storage class and value)", async () => {
  const db = new sqlite3.oo1.DB(":memory:");
  const adapter = sqliteWasmAdapter(db, sqlite3);
  try {
    db.exec("CREATE TABLE ours (i INTEGER PRIMARY KEY, v); CREATE TABLE theirs (i INTEGER PRIMARY KEY, v)");
    await adapter.batch(VALUES.map((v, i) => ({ sql: "INSERT INTO ours (i, v) VALUES (?, ?)", params: [i, v] })));
    VALUES.forEach((v, i) => {
      if (!(Number.isInteger(v) && Math.abs(v) >= 2 ** 63)) return db.exec({ sql: "INSERT INTO theirs (i, v) VALUES (?, ?)", bind: [i, v] });
      // on purpose unlike oo1, whose int64 would wrap (2^63 read back as -2^63): the double it is
      const st = db.prepare("INSERT INTO theirs (i, v) VALUES (?, ?)");
      st.bind(1, i);
      sqlite3.capi.sqlite3_bind_double(st.pointer, 2, v);
      st.step();
      st.finalize();
    });
    const q = "SELECT a.i AS i, typeof(a.v) AS ta, typeof(b.v) AS tb, quote(a.v) AS qa, quote(b.v) AS qb FROM ours a JOIN theirs b USING (i) ORDER BY i";
    const rows = db.selectObjects(q);
    expect(rows.length).toBe(VALUES.length);
    for (const r of rows) expect([show(VALUES[r.i]), r.ta, r.qa]).toEqual([show(VALUES[r.i]), r.tb, r.qb]);
  } finally {
    await adapter.close();
  }
});

test("reading: every row and column as oo1's Stmt.get returns it (the same type and value)", async () => {
  const db = new sqlite3.oo1.DB(":memory:");
  const adapter = sqliteWasmAdapter(db, sqlite3);
  try {
    db.exec("CREATE TABLE t (i INTEGER PRIMARY KEY, v)");
    VALUES.forEach((v, i) => db.exec({ sql: "INSERT INTO t (i, v) VALUES (?, ?)", bind: [i, v] }));
    db.exec("INSERT INTO t (i, v) VALUES (1000, 9007199254740993), (1001, -9223372036854775808), (1002, 9223372036854775807), (1003, x'')");
    const sql = "SELECT i, v, typeof(v) AS t, 'const' AS c FROM t ORDER BY i";
    const want = db.selectObjects(sql);
    const got = await adapter.all(sql);
    expect(got.length).toBe(want.length);
    expect(got.length).toBeGreaterThan(VALUES.length);
    for (let k = 0; k < want.length; k++) {
      const w = want[k], g = got[k];
      expect(Object.keys(g)).toEqual(Object.keys(w));
      expect([w.i, typeof g.v, show(g.v)]).toEqual([w.i, typeof w.v, show(w.v)]);
      expect(Object.is(g.v, w.v) || (g.v instanceof Uint8Array && w.v instanceof Uint8Array)).toBe(true);
    }
    // a statement without result columns runs through all() too, and returns no rows
    expect(await adapter.all("CREATE TABLE u (x)")).toEqual([]);
    expect(await adapter.all("INSERT INTO u (x) VALUES (?)", ["é"])).toEqual([]);
    expect(db.selectValue("SELECT x FROM u")).toBe("é");
    // with parameters, and the statement reused (cached) with other ones
    for (const x of [3, "日本語", null]) {
      expect(await adapter.all("SELECT ? AS x, typeof(?) AS t", [x, x])).toEqual([db.selectObject("SELECT ? AS x, typeof(?) AS t", [x, x])]);
    }
  } finally {
    await adapter.close();
  }
});

test("a failing statement inside batch throws and rolls the batch back", async () => {
  const db = new sqlite3.oo1.DB(":memory:");
  const adapter = sqliteWasmAdapter(db, sqlite3);
  try {
    db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL)");
    await expect(adapter.batch([
      { sql: "INSERT INTO t (k, n) VALUES (?, ?)", params: ["a", 1] },
      { sql: "INSERT INTO t (k, n) VALUES (?, ?)", params: ["a", 2] },
    ])).rejects.toThrow(/UNIQUE|constraint/i);
    await expect(adapter.batch([{ sql: "INSERT INTO t (k, n) VALUES (?, ?)", params: ["b", null] }])).rejects.toThrow(/NOT NULL|constraint/i);
    expect(db.selectValue("SELECT count(*) FROM t")).toBe(0);
    await adapter.batch([{ sql: "INSERT INTO t (k, n) VALUES (?, ?)", params: ["c", 3] }]);
    expect(await adapter.all("SELECT k, n FROM t")).toEqual([{ k: "c", n: 3 }]);
  } finally {
    await adapter.close();
  }
});
