// Node ESM on the installed tarball: `await init()` with no arguments finds
// the wasm next to the glue; the golden files of every implemented module pass.
// On the machine's Node the result (hashes of every output) becomes the reference
// the other runtimes are compared with; with --compare (make test-node-versions
// runs it on Node 22 and 24) it must equal that reference. Also runs examples/node.
import { APP, BUILD, GOLDEN, EXAMPLE_OUTPUT, check, checkGolden, finish, run, saveResult } from "./lib.mjs";

const compare = process.argv.includes("--compare");
const name = compare ? `node-${process.versions.node.split(".")[0]}` : "node";
console.log(`runtime: Node ${process.versions.node} (installed tarball)${compare ? ", compared with the machine's Node" : ""}`);
const r = await run(process.execPath, ["harness/cli-run.mjs", GOLDEN], { cwd: APP, timeoutMs: 120000 });
let result = null;
if (check(r.code === 0, "node harness/cli-run.mjs exits 0", r.stderr)) result = JSON.parse(r.stdout.toString());
if (result) {
  check(result.resolved === `file://${APP}node_modules/memdomain/index.js`,
    "\"memdomain\" resolves to the installed package", result.resolved);
  check(result.cases > 0 && result.failed === 0, `${result.cases} golden cases pass bit-exact`, result.failures.join("\n"));
  if (compare) checkGolden(`Node ${process.versions.node}`, result);
  saveResult(name, result);
  console.log(`  total hash ${result.total}`);
}

// The Emscripten build under the same glue: the same hashes (golden and corpus).
const em = await run(process.execPath, ["harness/cli-run.mjs", GOLDEN, `${BUILD}memdomain.emcc.wasm`], { cwd: APP, timeoutMs: 120000 });
if (check(em.code === 0, "node harness/cli-run.mjs on memdomain.emcc.wasm exits 0", em.stderr) && result) {
  const r2 = JSON.parse(em.stdout.toString());
  checkGolden("emcc build", r2, result);
  check(r2.total === result.total, `emcc build: total hash equals the clang build's`, r2.total);
  saveResult(`${name}-emcc`, r2);
}

// init() with no arguments reads the .wasm that sits next to the glue: with it
// moved away, the same call must fail (so the passing run above used it).
const probe = `
import { rename } from "node:fs/promises";
const wasm = new URL(import.meta.resolve("memdomain/memdomain.wasm"));
const md = await import("memdomain");
await rename(wasm, wasm.pathname + ".away");
let failed = false;
try { await md.init(); } catch { failed = true; } finally { await rename(wasm.pathname + ".away", wasm); }
await md.init();
console.log(JSON.stringify({ wasm: wasm.href, failedWithout: failed, ok: md.cosine([1, 0], [1, 0]) === 1 }));`;
const p = await run(process.execPath, ["--input-type=module", "-e", probe], { cwd: APP, timeoutMs: 60000 });
if (check(p.code === 0, "probe of the wasm next to the glue runs", p.stderr)) {
  const j = JSON.parse(p.stdout.toString());
  check(j.wasm === `file://${APP}node_modules/memdomain/memdomain.wasm`, "the package exports ./memdomain.wasm next to the glue", j.wasm);
  check(j.failedWithout && j.ok, "init() with no arguments loads exactly that file (fails without it, works with it)");
}

const ex = await run(process.execPath, ["examples/node/index.mjs"], { cwd: APP, timeoutMs: 60000 });
check(ex.code === 0 && ex.stdout.toString().trim() === EXAMPLE_OUTPUT, "examples/node/index.mjs prints the fused ranking",
  `${ex.stdout}${ex.stderr}`);
finish("runtime-node");
