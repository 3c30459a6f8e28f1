// memdomain/cache when memdomain's own WebAssembly memory runs out mid-operation: on
// build/memdomain.allocfail.wasm (tests/wasm/alloc_hook.c fails the chosen allocation), put,
// delete, link, reinforce and sleep (each with the searches after it) and searches alone run
// with one of their wasm allocations failed, every one in turn, over sqlite-wasm. After each,
// the call answered as a clean run does or rejected with a RangeError, the cache answers
// exactly as a fresh cache over the same database, the database holds the state before or
// after the operation, and a retry completes it (allocFaults in tests/js/cache-faults-lib.js).
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { openMemoryCache, sqliteWasmAdapter } from "../../js/cache/index.js";
import { loadSqliteWasm } from "../../js/cache/adapters.js";
import { ROOT } from "./golden/runner.js";
import { allocFaults } from "./cache-faults-lib.js";

const ex = md.initSync(readFileSync(`${ROOT}build/memdomain.allocfail.wasm`));
const hook = {
  arm: (k) => ex.mdw_alloc_fail_at(k),
  reached: () => ex.mdw_alloc_stats(0) === 1,
  count: () => ex.mdw_alloc_stats(1),
  disarm: () => ex.mdw_alloc_fail_at(-1),
};
const sqlite3 = await loadSqliteWasm();
const backend = {
  name: "sqlite-wasm",
  async create() {
    const h = new sqlite3.oo1.DB(":memory:", "c");
    return { adapter: () => ({ ...sqliteWasmAdapter(h, sqlite3), close: async () => {} }), dispose: async () => h.close() };
  },
};

test.each(["put", "delete", "link", "reinforce", "sleep", "search"])("%s: a wasm allocation fails, and the cache follows its database", async (op) => {
  const r = await allocFaults(openMemoryCache, backend, hook, [op], Infinity);
  expect(r.problems.slice(0, 8)).toEqual([]);
  expect(r.cases).toBeGreaterThan(0);
  expect(r.rejected).toBeGreaterThan(0); // failures surface (a call may also do without the allocation)
  if (process.env.MD_ALLOC_COUNTS) console.log(op, r);
}, 300_000);
