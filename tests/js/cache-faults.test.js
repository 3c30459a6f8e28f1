// memdomain/cache under faults (issue 25), on sqlite-wasm and on a file with each driver this
// Node loads (better-sqlite3 on Node 20, node:sqlite on 22 and 24: tests/js/cache-backends.js;
// D1: make test-cache-runtimes runs the same harness in a Worker under miniflare). An adapter
// that throws at every call index of put, delete, link, reinforce and sleep, before the
// call and after it (for the write batch: after it committed, a lost acknowledgement); an
// onProgress that throws at each event; two caches over one database writing and
// searching alternately. After each: search equals a fresh cache over the same database,
// the database is in the state before or after the operation, and a retry completes it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as md from "../../js/index.js";
import { openMemoryCache, sqliteWasmAdapter } from "../../js/cache/index.js";
import { loadSqliteWasm } from "../../js/cache/adapters.js";
import { wasmBytes } from "./build.js";
import { adapterFaults, progressFaults, twoOpeners } from "./cache-faults-lib.js";
import { fileDrivers } from "./cache-backends.js";

md.initSync(wasmBytes());
const dir = mkdtempSync(`${tmpdir()}/memdomain-cache-faults-`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sqlite3 = await loadSqliteWasm();

let files = 0;
/** A file backend over a driver: one file per case, adapters over connections to it. */
const fileBackend = (driver) => ({
  name: driver.name,
  async create() {
    const file = `${dir}/db-${files++}.sqlite`;
    const open = [];
    return {
      adapter: () => { const h = driver.open(file); open.push(h); return driver.wrap(h); },
      dispose: async () => {
        for (const h of open) if (h.isOpen ?? h.open) h.close();
        rmSync(file, { force: true });
      },
    };
  },
});

/** The backends: one database each, and adapters over it. */
const BACKENDS = {
  "sqlite-wasm": {
    name: "sqlite-wasm",
    async create() {
      const h = new sqlite3.oo1.DB(":memory:", "c");
      // caches over one in-memory database share its handle: a view whose close() leaves it open
      return { adapter: () => ({ ...sqliteWasmAdapter(h, sqlite3), close: async () => {} }), dispose: async () => h.close() };
    },
  },
  ...Object.fromEntries(fileDrivers.filter((d) => !d.error).map((d) => [d.name, fileBackend(d)])),
};

describe.each(Object.keys(BACKENDS))("%s", (name) => {
  const backend = BACKENDS[name];

  test.each(["put", "delete", "link", "reinforce", "sleep"])("%s: a fault at every adapter call, before and after it", async (op) => {
    const r = await adapterFaults(openMemoryCache, backend, [op]);
    expect(r.problems).toEqual([]);
    expect(r.cases).toBeGreaterThan(4);
    expect(r.rejected).toBe(r.cases); // every injected fault surfaces
    expect(r.committedThenThrew).toBeGreaterThan(0); // and some hit after the batch committed
  });

  test("put and sleep: an onProgress that throws at each event", async () => {
    const r = await progressFaults(openMemoryCache, backend);
    expect(r.problems).toEqual([]);
    expect(r.cases).toBeGreaterThan(10);
    expect(r.afterCommit).toBeGreaterThan(0); // some throws came after the commit
  });

  test("two caches over one database, writing and searching alternately", async () => {
    const r = await twoOpeners(openMemoryCache, backend);
    expect(r.problems).toEqual([]);
  });
});
