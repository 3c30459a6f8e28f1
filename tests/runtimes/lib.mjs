// Shared by the runtime tests: paths, the scratch project, child processes
// with hard time limits, and comparing golden hashes with Node's.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createServer } from "node:net";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BUILD = process.env.MEMDOMAIN_BUILD ?? `${ROOT}build/`;
export const RT = `${BUILD}rt/`;
export const APP = `${RT}app/`;
export const RESULTS = `${RT}results/`;
export const GOLDEN = process.env.MEMDOMAIN_GOLDEN ?? `${ROOT}tests/golden/`;
export const BIN = `${ROOT}node_modules/.bin/`;

let failures = 0, passes = 0;
/** Record one check; a failed check makes the process exit nonzero at the end. */
export function check(ok, what, detail = "") {
  if (ok) {
    passes++;
    console.log(`  ok   ${what}`);
  }
  else {
    failures++;
    console.log(`  FAIL ${what}${detail ? `\n       ${String(detail).split("\n").join("\n       ")}` : ""}`);
  }
  return ok;
}
/** The closing line, in the form .ci/run totals: "name: N passed, M failed". */
export function finish(name) {
  console.log(`${name}: ${passes} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

/** Whether the part `name` runs: every part, or those named by --only=a,b on the command line. */
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
export const want = (name) => !only || only.includes(name);

/** The parts of the cache's fault injection a Worker answers at /faults?what=<part>, each on its own database. */
export const FAULT_PARTS = ["put", "delete", "link", "reinforce", "sleep", "progress", "two"];

/** Every fault part at once through `get` (GET /faults?what=<part>), each checked: the faults fired,
 * no problem was found (search equals a fresh cache's, the database is before or after, retries
 * complete); then the seconds it took, after `timing`. */
export async function checkFaultParts(get, name, timing) {
  const tf = performance.now();
  // two at a time (the machine's cores): seven heavy requests at once in one workerd once ended in a
  // dropped connection ("fetch failed") that no rerun showed again; a part whose request fails is
  // that part's failure, with the network error's cause, and the others still run
  const parts = [];
  for (let i = 0; i < FAULT_PARTS.length; i += 2) {
    parts.push(...await Promise.all(FAULT_PARTS.slice(i, i + 2).map((what) => get(`/faults?what=${what}`)
      .catch((e) => ({ error: `${e?.message}${e?.cause ? ` (cause: ${e.cause?.code ?? ""} ${e.cause?.message ?? e.cause})` : ""}` })))));
  }
  for (const [i, what] of FAULT_PARTS.entries()) {
    const r = parts[i];
    const fired = what === "two" ? true : what === "progress" ? r.cases > 10 && r.afterCommit > 0
      : r.cases > 4 && r.rejected === r.cases && r.committedThenThrew > 0;
    check(!r.error && r.problems?.length === 0 && fired,
      `${name} faults, ${what}: ${what === "two" ? `${r.steps} alternating steps and the rowid case` : `${r.cases} cases`}, ` +
      "search equals a fresh cache's, the database is before or after, retries complete",
      r.error ?? JSON.stringify({ ...r, problems: r.problems?.slice(0, 4) }).slice(0, 3000));
  }
  console.log(`  (${timing} ${((performance.now() - tf) / 1000).toFixed(1)} s)`);
}

/** Equal as JSON; firstDiff shows where two values' JSON first differs. */
export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export function firstDiff(a, b) {
  const x = JSON.stringify(a), y = JSON.stringify(b);
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return `at ${i}: ${x.slice(Math.max(0, i - 80), i + 80)}\n   vs ${y.slice(Math.max(0, i - 80), i + 80)}`;
}

/** Run a command to completion within `timeoutMs`; resolves { code, stdout, stderr }. */
export function run(cmd, args, { cwd = ROOT, env = process.env, timeoutMs = 120000, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const out = [], err = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (e) => { clearTimeout(timer); reject(e); });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? `killed by ${signal} (time limit ${timeoutMs} ms?)` : code,
        stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() });
    });
    child.stdin.end(input);
  });
}

/**
 * Start a long-running child (a server). The returned `stop()` kills it; it is
 * also killed on exit, and unconditionally after `maxMs`.
 */
export function startChild(cmd, args, { cwd = ROOT, env = process.env, maxMs = 120000 } = {}) {
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const exited = new Promise((ok) => child.on("close", ok));
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL"); };
  const timer = setTimeout(kill, maxMs);
  process.on("exit", kill);
  return {
    child,
    log: () => log,
    exited,
    async stop() {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const t = setTimeout(kill, 3000);
        await exited;
        clearTimeout(t);
      }
      process.off("exit", kill);
    },
  };
}

/** A port that was free a moment ago on 127.0.0.1 (for servers that need a port number up front). */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

export async function waitFor(probe, { timeoutMs = 20000, stepMs = 100, what = "condition" } = {}) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ""}`);
}

export function saveResult(name, result) {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}${name}.json`, JSON.stringify(result, null, 1));
}

/** Node's result on the installed package (written by node.test.mjs): the reference. */
export function reference() {
  const file = `${RESULTS}node.json`;
  if (!existsSync(file)) throw new Error(`${file} is missing: run tests/runtimes/node.test.mjs first (make test-runtime-node)`);
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Check a runtime's golden result: every case passes and every hash equals Node's. */
export function checkGolden(label, got, ref = reference()) {
  check(got && got.cases > 0, `${label}: ran golden cases`, got ? `cases: ${got.cases}` : "no result");
  if (!got) return;
  check(got.cases === ref.cases, `${label}: ${got.cases} cases, as many as Node (${ref.cases})`);
  check(got.failed === 0, `${label}: every golden case matches its expect`, got.failures?.join("\n"));
  const keys = [...new Set([...Object.keys(ref.hashes), ...Object.keys(got.hashes)])].sort();
  const differ = keys.filter((k) => got.hashes[k] !== ref.hashes[k]);
  check(differ.length === 0, `${label}: output hashes of ${keys.length} functions equal Node's`,
    differ.map((k) => `${k}: ${got.hashes[k] ?? "missing"} != node ${ref.hashes[k] ?? "missing"}`).join("\n"));
  check(got.total === ref.total, `${label}: total hash ${got.total?.slice(0, 16)}... equals Node's`);
}

/** What every runtime's example prints: the fused ranking of its two arms. */
export const EXAMPLE_OUTPUT = JSON.stringify([
  { path: "notes/b.html", score: 1 / (2 + 60) + 1 / (1 + 60) },
  { path: "notes/a.html", score: 1 / (1 + 60) },
]);
