// The size budget: the clang wasm build at most 64 KiB gzipped, the glue at
// most 16 KiB gzipped once minified (esbuild: the package's index.js bundled
// with its src/ modules, minified; effect, a dependency, left external). The
// minified glue must still work: it runs the golden files and hashes like Node.
// Writes build/rt/sizes.json (the numbers the README quotes).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { APP, GOLDEN, ROOT, RT, check, checkGolden, finish, saveResult } from "./lib.mjs";

const WASM_BUDGET = 64 * 1024, GLUE_BUDGET = 16 * 1024;
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
  wasm: { bytes: wasm.length, gzip: gz(wasm), budget: WASM_BUDGET },
  glue: { sourceBytes: rawGlue, minifiedBytes: glue.length, gzip: gz(glue), budget: GLUE_BUDGET, files: sources.length },
};
console.log(`  wasm  ${wasm.length} bytes, ${sizes.wasm.gzip} gzipped (${kib(sizes.wasm.gzip)} of ${kib(WASM_BUDGET)})`);
console.log(`  glue  ${rawGlue} bytes in ${sources.length} files, ${glue.length} minified, ${sizes.glue.gzip} gzipped (${kib(sizes.glue.gzip)} of ${kib(GLUE_BUDGET)})`);
check(sizes.wasm.gzip <= WASM_BUDGET, `the clang wasm is at most 64 KiB gzipped (${sizes.wasm.gzip} bytes)`);
check(sizes.glue.gzip <= GLUE_BUDGET, `the minified glue is at most 16 KiB gzipped (${sizes.glue.gzip} bytes)`);
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
finish("size-budget");
