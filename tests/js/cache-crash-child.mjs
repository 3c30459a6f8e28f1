// The child of tests/js/cache-crash.test.js: opens the cache on a file (better-sqlite3) and runs
// operations start, start + 1, ... until it is killed, writing "batch k" to stdout just before
// each write batch and "done k" once operation k resolved (stdout to a pipe is synchronous on Linux).
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { openMemoryCache, betterSqlite3Adapter } from "../../js/cache/index.js";
import Database from "better-sqlite3";
import { op } from "./cache-crash-ops.js";

const [file, start, wasm] = process.argv.slice(2);
md.initSync(readFileSync(wasm));
let k = Number(start);
const inner = betterSqlite3Adapter(new Database(file));
const adapter = { ...inner, async batch(st) { process.stdout.write(`batch ${k}\n`); return inner.batch(st); } };
const cache = await openMemoryCache({ db: adapter });
process.stdout.write("open\n");
for (;; k++) {
  await op(cache, k);
  process.stdout.write(`done ${k}\n`);
}
