// Deno (npm "deno") on the installed tarball: the package is imported by name
// from the scratch project's node_modules; `await init()` with no arguments;
// the golden files of every implemented module pass and hash like Node's.
// Also runs examples/deno.
import { APP, BIN, GOLDEN, RT, EXAMPLE_OUTPUT, check, checkGolden, finish, run, saveResult } from "./lib.mjs";

console.log("runtime: Deno (installed tarball)");
// A private DENO_DIR; no lock file; read access to the project and the golden files only.
const env = { ...process.env, DENO_DIR: `${RT}deno-dir`, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
const allow = `--allow-read=${APP},${GOLDEN}`;
const r = await run(`${BIN}deno`, ["run", "--no-lock", allow, "harness/cli-run.mjs", GOLDEN], { cwd: APP, env, timeoutMs: 180000 });
let result = null;
if (check(r.code === 0, "deno run harness/cli-run.mjs exits 0", r.stderr)) result = JSON.parse(r.stdout.toString());
if (result) {
  console.log(`  ${result.runtime}`);
  check(result.runtime.startsWith("deno "), "it ran under Deno", result.runtime);
  check(result.resolved === `file://${APP}node_modules/memdomain/index.js`, "\"memdomain\" resolves to the installed package", result.resolved);
  checkGolden("deno", result);
  saveResult("deno", result);
}
const ex = await run(`${BIN}deno`, ["run", "--no-lock", allow, "examples/deno/main.js"], { cwd: APP, env, timeoutMs: 60000 });
check(ex.code === 0 && ex.stdout.toString().trim() === EXAMPLE_OUTPUT, "examples/deno/main.js prints the fused ranking",
  `${ex.stdout}${ex.stderr}`);
finish("runtime-deno");
