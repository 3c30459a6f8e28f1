// Packs the package (tools/pack.sh) and installs the tarball into a fresh
// scratch project, build/rt/app/, the way a user would: every runtime test
// then loads memdomain from build/rt/app/node_modules/memdomain, never from js/.
// Also copies the golden harness and the examples into the project and checks
// the tarball's contents.
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, lstatSync, existsSync } from "node:fs";
import { APP, BUILD, ROOT, RT, check, finish, run } from "./lib.mjs";
import { CONSTANT_MODULE, IMPLEMENTED } from "../js/golden/runner.js";

console.log("runtimes setup: pack, install into a scratch project");
const packed = await run("bash", [`${ROOT}tools/pack.sh`, BUILD], { timeoutMs: 120000 });
if (!check(packed.code === 0, "tools/pack.sh packs the package", packed.stderr)) finish("runtimes-setup");
const tgz = packed.stdout.toString().trim().split("\n").pop();
console.log(`  tarball ${tgz}`);

// The tarball holds the glue, the declarations and the real wasm.
const list = await run("tar", ["tzf", tgz]);
const files = new Set(list.stdout.toString().split("\n").filter(Boolean).map((f) => f.replace(/^package\//, "")));
const want = ["package.json", "index.js", "index.d.ts", "memdomain.wasm",
  ...readdirSync(`${ROOT}js/src`).map((f) => `src/${f}`), ...readdirSync(`${ROOT}js/cache`).map((f) => `cache/${f}`),
  ...readdirSync(`${ROOT}js/types`).map((f) => `types/${f}`),
  ...["adapters", "bin"].flatMap((d) => existsSync(`${ROOT}js/${d}`) ? readdirSync(`${ROOT}js/${d}`).map((f) => `${d}/${f}`) : [])];
const missing = want.filter((f) => !files.has(f));
check(missing.length === 0, `the tarball holds the glue, the .d.ts files and memdomain.wasm (${files.size} files)`, missing.join(", "));

// Packing js/ directly would drop the wasm (a symlink into build/): its prepack refuses.
const direct = await run("npm", ["pack", "--dry-run", "--json"], { cwd: `${ROOT}js`, timeoutMs: 60000 });
check(direct.code !== 0 && /make pack/.test(direct.stderr), "npm pack in js/ (wasm symlink) refuses and points to make pack",
  `exit ${direct.code}`);

rmSync(APP, { recursive: true, force: true });
mkdirSync(`${APP}harness`, { recursive: true });
writeFileSync(`${APP}package.json`, JSON.stringify({ name: "memdomain-scratch", private: true, type: "module" }, null, 2));
const inst = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-save", tgz],
  { cwd: APP, timeoutMs: 180000 });
if (!check(inst.code === 0, "npm install <tarball> into the scratch project", inst.stderr)) finish("runtimes-setup");

const installed = `${APP}node_modules/memdomain/`;
const st = lstatSync(`${installed}memdomain.wasm`);
check(st.isFile() && !st.isSymbolicLink(), "the installed memdomain.wasm is a regular file");
check(readFileSync(`${installed}memdomain.wasm`).equals(readFileSync(`${BUILD}memdomain.wasm`)),
  "the installed memdomain.wasm is the clang build (build/memdomain.wasm)");
check(readFileSync(`${installed}src/core.js`, "utf8") === readFileSync(`${ROOT}js/src/core.js`, "utf8"),
  "the installed glue is js/'s");

// The golden harness, next to its codec, inside the project.
for (const f of ["harness.js", "corpus.js", "cli-run.mjs", "browser-run.js", "workerd-golden.mjs"]) cpSync(`${ROOT}tests/runtimes/${f}`, `${APP}harness/${f}`);
cpSync(`${ROOT}tests/js/golden/codec.js`, `${APP}harness/codec.js`);
// corpus.js imports ../oracles/rng.js: there, the installed package's generator (what tests/oracles/rng.js re-exports).
mkdirSync(`${APP}oracles`, { recursive: true });
writeFileSync(`${APP}oracles/rng.js`, `export { mulberry32, rng } from "../node_modules/memdomain/cache/rng.js";\n`);
writeFileSync(`${APP}harness/config.json`, JSON.stringify({ modules: IMPLEMENTED, constantModule: CONSTANT_MODULE }));
// The examples, as a user would run them against the installed package.
cpSync(`${ROOT}examples`, `${APP}examples`, { recursive: true, filter: (src) => !/\/(dist|node_modules)(\/|$)/.test(src) });
writeFileSync(`${RT}.setup`, `${tgz}\n`);
finish("runtimes-setup");
