// A child of tests/js/cache-trust.test.js: one process beside others on one file, with one driver.
//   node cache-procs-child.mjs <wasm> <file> <driver> storm <rounds> <who>
//     rounds of: open the cache, three puts each followed by a search, close. Prints one JSON line:
//     { opens, puts, searches, errors: { "<class> <code>: <message start>": count } }
//   node cache-procs-child.mjs <wasm> <file> <driver> stream
//     small puts, one memory each, 2 ms apart, until stdin closes; prints "ready" after the fifth, then { puts, errors }
//   node cache-procs-child.mjs <wasm> <file> <driver> hold <ms>
//     holds the write lock (BEGIN EXCLUSIVE and a write) for <ms>, printing "locked" once it has it
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { CacheBusyError, openMemoryCache } from "../../js/cache/index.js";

const [wasm, file, driver, role, arg, who = "0"] = process.argv.slice(2);
md.initSync(readFileSync(wasm));
const errors = {};
const note = (e) => {
  const k = `${e?.constructor?.name} ${e?.code ?? ""}: ${String(e?.message).slice(0, 60)}`;
  errors[k] = (errors[k] ?? 0) + 1;
};
/** A small memory; its embedding has the cache's dimension (4 in a new file). */
const memory = (cache, path, i) => ({ path, gist: `word${i % 40} note ${who}`, body: `body ${i}`, type: "semantic",
  embedding: Float32Array.from({ length: cache.dim ?? 4 }, (_, j) => (j ? (i + j) % 7 : 1)), createdAt: 1000 + i });

if (role === "hold") {
  const require = createRequire(import.meta.url);
  const db = driver === "better-sqlite3" ? new (require("better-sqlite3"))(file) : new (require("node:sqlite").DatabaseSync)(file);
  db.exec("BEGIN EXCLUSIVE");
  db.prepare("UPDATE md_meta SET value = value WHERE key = 'schema'").run();
  process.stdout.write("locked\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(arg));
  db.exec("COMMIT");
  db.close();
} else if (role === "storm") {
  const out = { opens: 0, puts: 0, searches: 0 };
  let i = 0;
  for (let r = 0; r < Number(arg); r++) {
    let cache;
    try {
      cache = await openMemoryCache({ path: file, driver });
      out.opens++;
    } catch (e) {
      note(e);
      continue;
    }
    try {
      for (let k = 0; k < 3; k++, i++) {
        await cache.put([memory(cache, `p${who}/${i}`, i)]);
        out.puts++;
        await cache.search({ text: `word${i % 40}`, vector: new Float32Array(cache.dim).fill(1) });
        out.searches++;
      }
    } catch (e) {
      note(e);
    }
    await cache.close().catch(note);
  }
  console.log(JSON.stringify({ ...out, errors }));
} else if (role === "stream") {
  const cache = await openMemoryCache({ path: file, driver });
  let open = true;
  process.stdin.on("end", () => { open = false; }).resume();
  let puts = 0;
  while (open) {
    try {
      await cache.put([memory(cache, `stream/${puts}`, puts)]);
      if (++puts === 5) process.stdout.write("ready\n"); // streaming
    } catch (e) {
      note(e);
      if (!(e instanceof CacheBusyError)) break; // only waiting too long is expected: report the rest
    }
    // a pause of 2 ms: SQLite's file lock has no queue, and a writer committing back to back with no gap at
    // all can keep another's BEGIN IMMEDIATE polling past its busy timeout (docs/CACHE-CONSISTENCY.md)
    await new Promise((r) => setTimeout(r, 2));
  }
  await cache.close();
  console.log(JSON.stringify({ puts, errors }));
}
