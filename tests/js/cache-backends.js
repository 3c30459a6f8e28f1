// The drivers a file-backed memdomain/cache can open in this Node, for the suites that
// compare backends. node:sqlite is built into Node >= 22.5 (without a flag from 22.13);
// better-sqlite3 is a native addon that `make deps` builds for the machine's own Node,
// so it loads only on that Node's ABI (Node 20 here; 22 and 24 run node:sqlite).
// MEMDOMAIN_FILE_DRIVERS, set by the Makefile for each Node it runs the suites on, lists
// the drivers that must load there; a run without it takes what loads and needs one.
import { createRequire } from "node:module";
import { nodeSqliteAdapter, betterSqlite3Adapter } from "../../js/cache/index.js";

const require = createRequire(import.meta.url);
const loaders = {
  "better-sqlite3": () => {
    const Database = require("better-sqlite3");
    new Database(":memory:").close(); // the addon loads on first use: a wrong ABI throws here
    return {
      open: (file, { readonly = false } = {}) => new Database(file, { readonly }),
      adapter: (file) => betterSqlite3Adapter(new Database(file)),
      wrap: (db, options) => betterSqlite3Adapter(db, options),
    };
  },
  "node:sqlite": () => {
    const { DatabaseSync } = process.getBuiltinModule?.("node:sqlite") ?? require("node:sqlite");
    return {
      open: (file, { readonly = false } = {}) => new DatabaseSync(file, { readOnly: readonly }),
      adapter: (file) => nodeSqliteAdapter(new DatabaseSync(file)),
      wrap: (db, options) => nodeSqliteAdapter(db, options),
    };
  },
};

const wanted = process.env.MEMDOMAIN_FILE_DRIVERS?.split(",").filter(Boolean);
const loaded = {}, failed = {};
for (const name of Object.keys(loaders)) {
  try {
    loaded[name] = { name, ...loaders[name]() };
  } catch (e) {
    failed[name] = e?.message ?? String(e);
  }
}

/** The drivers the suites compare: the ones MEMDOMAIN_FILE_DRIVERS names, or every one that loads. */
export const fileDrivers = (wanted ?? Object.keys(loaded)).map((name) => loaded[name] ?? { name, error: failed[name] ?? "not a driver" });
/** The driver the oracle reads a file with (a second connection). */
export const reader = fileDrivers.find((d) => !d.error);
