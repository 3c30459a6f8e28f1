// The size guards: each artefact's gzipped size (the clang wasm; the glue minified by esbuild: the
// package's index.js bundled with its src/ modules, effect, a dependency, left external; the cache's
// glue; each adapter's) against the size last recorded in tests/runtimes/sizes.recorded.json. A guard
// catches accidental growth, it does not decide the design (issue 45): the test fails only on growth
// of more than GROWTH (10%) over the record, or beyond the absolute limits (96 KiB wasm, 24 KiB glue).
// After a deliberate change, `node tests/runtimes/size.test.mjs --record` (with the RT_ENV of
// mk/runtimes.mk, or through make test-size RECORD=1) writes the new record, committed with it.
// The minified glue must still work: it runs the golden files and hashes like Node.
// Writes build/rt/sizes.json. The size tables of docs/API.md and docs/CACHE.md are generated from the
// record (sizeTables, between the sizes markers): RECORD=1 rewrites them with the record, and every run
// checks that they state the record, so no size is written by hand anywhere.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { APP, GOLDEN, ROOT, RT, check, checkGolden, finish, saveResult } from "./lib.mjs";

const WASM_LIMIT = 96 * 1024, GLUE_LIMIT = 24 * 1024, GROWTH = 0.10;
const RECORD = `${ROOT}tests/runtimes/sizes.recorded.json`;
const recorded = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, "utf8")) : {};
const gz = (b) => gzipSync(b, { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

console.log("size budget (the installed package)");
const pkg = `${APP}node_modules/memdomain/`;
const wasm = readFileSync(`${pkg}memdomain.wasm`);
const minDir = `${APP}min/`; // inside the project, so "effect" resolves when it runs
mkdirSync(minDir, { recursive: true });
const out = await build({ entryPoints: [`${pkg}index.js`], bundle: true, minify: true, format: "esm",
  platform: "neutral", external: ["effect"], write: false, logLevel: "error", metafile: true, absWorkingDir: APP });
const glue = Buffer.from(out.outputFiles[0].contents);
writeFileSync(`${minDir}index.min.js`, glue);
const sources = Object.keys(out.metafile.inputs);
const rawGlue = sources.reduce((n, f) => n + readFileSync(`${APP}${f}`).length, 0);

const sizes = {
  wasm: { bytes: wasm.length, gzip: gz(wasm), limit: WASM_LIMIT },
  glue: { sourceBytes: rawGlue, minifiedBytes: glue.length, gzip: gz(glue), limit: GLUE_LIMIT, files: sources.length },
};
/** One artefact's guard: within GROWTH of its record (an artefact not yet recorded has none) and under its limit. */
function guard(name, what, gzip, limit = Infinity) {
  const was = recorded[name];
  const ceiling = Math.min(limit, was === undefined ? Infinity : Math.floor(was * (1 + GROWTH)));
  const change = was === undefined ? "not recorded yet" : `${gzip >= was ? "+" : ""}${(100 * (gzip - was) / was).toFixed(1)}% on the record's ${was}`;
  console.log(`  ${what}: ${gzip} bytes gzipped (${kib(gzip)}), ${change}`);
  check(gzip <= ceiling, `${what} is within ${100 * GROWTH}% of its recorded size${limit < Infinity ? ` and under ${kib(limit)}` : ""} gzipped (${gzip} bytes, at most ${ceiling})`);
}
guard("wasm", `the clang wasm (${wasm.length} bytes)`, sizes.wasm.gzip, WASM_LIMIT);
guard("glue", `the minified glue (${rawGlue} bytes in ${sources.length} files, ${glue.length} minified)`, sizes.glue.gzip, GLUE_LIMIT);
check(sources.length >= 3 && sources.some((f) => f.endsWith("src/core.js")), "the glue measured is the whole package (index.js and src/)",
  sources.join(", "));
const imports = out.metafile.outputs[Object.keys(out.metafile.outputs)[0]].imports.map((i) => i.path);
check(imports.every((p) => p === "effect" || p.startsWith("effect/")), "the minified glue imports nothing but effect", imports.join(", "));

check(!sources.some((f) => f.includes("/cache/")), "the core glue holds none of memdomain/cache");

// memdomain/cache's own size (no budget: it is a separate entry point): its glue
// minified with memdomain and sqlite-wasm external, and the SQLite build it loads.
const cacheOut = await build({ entryPoints: [`${pkg}cache/index.js`], bundle: true, minify: true, format: "esm", platform: "neutral",
  external: ["effect", "@sqlite.org/sqlite-wasm", "../index.js"], write: false, logLevel: "error", metafile: true, absWorkingDir: APP,
  plugins: [{ name: "core-external", setup(b) { b.onResolve({ filter: /^\.\.\/index\.js$/ }, (a) => ({ path: a.path, external: true })); } }] });
const cacheGlue = Buffer.from(cacheOut.outputFiles[0].contents);
const sqliteDir = `${ROOT}node_modules/@sqlite.org/sqlite-wasm/dist/`;
sizes.cache = { minifiedBytes: cacheGlue.length, gzip: gz(cacheGlue), files: Object.keys(cacheOut.metafile.inputs).length,
  sqliteWasm: { bytes: readFileSync(`${sqliteDir}sqlite3.wasm`).length, gzip: gz(readFileSync(`${sqliteDir}sqlite3.wasm`)) },
  sqliteJs: { bytes: readFileSync(`${sqliteDir}index.mjs`).length, gzip: gz(readFileSync(`${sqliteDir}index.mjs`)) } };
console.log(`  memdomain/cache glue ${cacheGlue.length} minified, ${sizes.cache.gzip} gzipped (${sizes.cache.files} files); ` +
  `@sqlite.org/sqlite-wasm: sqlite3.wasm ${sizes.cache.sqliteWasm.gzip} gzipped, its JS ${sizes.cache.sqliteJs.gzip} gzipped`);
guard("cache", "the memdomain/cache glue", sizes.cache.gzip);
check(cacheOut.metafile.inputs && Object.keys(cacheOut.metafile.inputs).every((f) => f.includes("/cache/") || f.endsWith("src/validate.js")),
  "the cache glue measured is js/cache/ and the shared checks (src/validate.js) alone");

// The minified glue still works.
const md = await import(pathToFileURL(`${minDir}index.min.js`).href);
md.initSync(wasm);
const { runGolden } = await import(pathToFileURL(`${APP}harness/harness.js`).href);
const config = JSON.parse(readFileSync(`${APP}harness/config.json`, "utf8"));
const result = await runGolden(md, (name) => readFileSync(`${GOLDEN}${name}`, "utf8"), config.modules, config.constantModule);
checkGolden("minified glue", result);
saveResult("minified-glue", { runtime: "node, minified glue", ...result });
writeFileSync(`${RT}sizes.json`, JSON.stringify(sizes, null, 1));
const n = (v) => (v ?? 0).toLocaleString("en-US");
/** The generated size table of each page, from a record. */
function sizeTables(r) {
  const head = "<!-- sizes:start (generated from tests/runtimes/sizes.recorded.json by make test-size RECORD=1; do not edit by hand) -->";
  return {
    "docs/API.md": [head, "", "| artefact (as last recorded) | gzipped (gzip -9) |", "|---|--:|",
      `| \`memdomain.wasm\` (clang) | ${n(r.wasm)} B |`, `| glue, minified (esbuild; \`effect\` external) | ${n(r.glue)} B |`,
      "", "<!-- sizes:end -->"].join("\n"),
    "docs/CACHE.md": [head, "", "| artefact (as last recorded) | gzipped (gzip -9) |", "|---|--:|",
      `| \`memdomain/cache\` glue, minified (memdomain and sqlite-wasm external) | ${n(r.cache)} B |`,
      `| @sqlite.org/sqlite-wasm's \`sqlite3.wasm\` | ${n(r.sqliteWasm)} B |`, `| @sqlite.org/sqlite-wasm's JavaScript | ${n(r.sqliteJs)} B |`,
      "", "<!-- sizes:end -->"].join("\n"),
  };
}
const BLOCK = /<!-- sizes:start[^]*?<!-- sizes:end -->/;
const recording = process.argv.includes("--record") || process.env.RECORD === "1";
const record = recording ? { wasm: sizes.wasm.gzip, glue: sizes.glue.gzip, cache: sizes.cache.gzip,
  sqliteWasm: sizes.cache.sqliteWasm.gzip, sqliteJs: sizes.cache.sqliteJs.gzip } : recorded;
for (const [page, table] of Object.entries(sizeTables(record))) {
  const text = readFileSync(`${ROOT}${page}`, "utf8");
  check(BLOCK.test(text), `${page} holds the generated size table (the sizes markers)`);
  if (recording) writeFileSync(`${ROOT}${page}`, text.replace(BLOCK, table));
  else check(text.match(BLOCK)?.[0] === table, `${page}'s size table states tests/runtimes/sizes.recorded.json (make test-size RECORD=1 rewrites it)`);
}
if (recording) {
  writeFileSync(RECORD, `${JSON.stringify(record, null, 1)}\n`);
  console.log(`  recorded in ${RECORD.slice(ROOT.length)} and its tables in docs/API.md and docs/CACHE.md`);
}
finish("size-budget");
