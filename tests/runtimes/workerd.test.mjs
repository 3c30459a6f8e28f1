// workerd (Cloudflare's runtime, npm "workerd"): builds examples/worker against
// the installed tarball (bundled as wrangler does, the .wasm kept as a module the
// worker imports and hands to initSync), serves it on 127.0.0.1, sends requests
// that run fusion, MMR and PageRank (the golden files' arguments), and checks
// every JSON answer against the same call in Node on the same package.
// Then a test-only worker (workerd-golden.mjs, built the same way) runs the
// golden files of every implemented module, which must hash like Node's.
// A route whose function the package does not export yet must answer 501, and
// Node must agree that it is missing; once the export exists, its answers are
// compared like fusion's (a difference FAILS).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { APP, BIN, GOLDEN, check, checkGolden, finish, freePort, run, saveResult, startChild, waitFor } from "./lib.mjs";

console.log("runtime: workerd (examples/worker on the installed tarball)");
const dir = `${APP}examples/worker/`;
const built = await run(process.execPath, ["build.mjs"], { cwd: dir, timeoutMs: 60000 });
if (!check(built.code === 0, "examples/worker builds (node build.mjs)", built.stderr)) finish("runtime-workerd");
check(readFileSync(`${dir}dist/memdomain.wasm`).equals(readFileSync(`${APP}node_modules/memdomain/memdomain.wasm`)),
  "the worker's wasm module is the installed package's memdomain.wasm");
check(/^import \w+ from "\.\/memdomain\.wasm";$/m.test(readFileSync(`${dir}dist/worker.js`, "utf8")),
  "the bundled worker imports the .wasm as a module");

// The same package in Node, and the same wire encoding.
const md = await import(pathToFileURL(`${APP}node_modules/memdomain/index.js`).href);
md.initSync(readFileSync(`${APP}node_modules/memdomain/memdomain.wasm`));
const { fromWire, toWire } = await import(pathToFileURL(`${dir}wire.js`).href);
const { parseCases } = await import(pathToFileURL(`${APP}harness/harness.js`).href);

const port = await freePort();
const server = startChild(`${BIN}workerd`, ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`],
  { cwd: dir, maxMs: 240000 });
const base = `http://127.0.0.1:${port}`;
try {
  const names = await waitFor(async () => {
    if (server.child.exitCode !== null) throw new Error(`workerd exited: ${server.log()}`);
    const res = await fetch(`${base}/exports`);
    return res.ok && res.json();
  }, { timeoutMs: 30000, what: "workerd to serve" });
  check(JSON.stringify(names) === JSON.stringify(Object.keys(md).sort()), "the worker sees the same exports as Node",
    `${names}`);

  // What the worker's /fuse does, in Node.
  const fuse = (b) => {
    let fused = b.fused ?? md.fuseArms(b.arms, b.weights, b.k);
    if (b.lateral) fused = md.fuseLateral(fused, b.lateral.order, b.lateral.weight, b.lateral.k);
    return { fused, ranked: md.rankFused(fused) };
  };
  const routes = [
    { path: "/fuse", module: "rrf", fn: "fuseArms", needs: ["fuseArms", "fuseLateral", "rankFused"],
      body: ([arms, weights, k]) => ({ arms, weights, k }), call: fuse },
    { path: "/fuse", module: "rrf", fn: "fuseLateral", needs: ["fuseArms", "fuseLateral", "rankFused"],
      body: ([fused, order, weight, k]) => ({ fused, lateral: { order, weight, k } }), call: fuse },
    { path: "/fuse", module: "rrf", fn: "rankFused", needs: ["fuseArms", "fuseLateral", "rankFused"],
      body: ([fused]) => ({ fused }), call: fuse },
    { path: "/mmr", module: "mmr", fn: "applyMmr", needs: ["applyMmr"],
      body: ([candidates, limit, lambda]) => ({ candidates, limit, lambda }), call: (b) => md.applyMmr(b.candidates, b.limit, b.lambda) },
    { path: "/pagerank", module: "graph", fn: "pagerank", needs: ["pagerank"],
      body: ([nodes, edges, options]) => ({ nodes, edges, options }), call: (b) => md.pagerank(b.nodes, b.edges, b.options) },
  ];
  for (const route of routes) {
    const cases = parseCases(readFileSync(`${GOLDEN}${route.module}.jsonl`, "utf8")).filter((c) => c.fn === route.fn);
    const present = route.needs.every((n) => typeof md[n] === "function");
    if (!present) {
      // Not in the package yet: the worker must say so, and the route is exercised as soon as it lands.
      const res = await fetch(`${base}${route.path}`, { method: "POST", body: JSON.stringify(route.body(cases[0].args)) });
      check(res.status === 501, `${route.path}: ${route.needs.join(", ")} not exported yet; the worker answers 501`, `status ${res.status}`);
      console.log(`  note ${route.path}: ${cases.length} requests will run against Node once ${route.needs.join(", ")} is exported`);
      continue;
    }
    const bad = [];
    let errors = 0;
    for (const c of cases) {
      const body = JSON.stringify(route.body(c.args));
      let want;
      try {
        want = { status: 200, json: JSON.stringify({ result: toWire(route.call(fromWire(JSON.parse(body)))) }) };
      } catch (e) {
        errors++;
        want = { status: 400, json: JSON.stringify({ error: `${e.name}: ${e.message}` }) };
      }
      const res = await fetch(`${base}${route.path}`, { method: "POST", body });
      const got = { status: res.status, json: JSON.stringify(await res.json()) };
      if (got.status !== want.status || got.json !== want.json)
        bad.push(`line ${c.line}: worker ${got.status} ${got.json.slice(0, 200)}\n  node ${want.status} ${want.json.slice(0, 200)}`);
    }
    check(bad.length === 0, `${route.path}: ${cases.length} requests (${route.module}.jsonl ${route.fn} cases) answer exactly as Node` +
      (errors ? ` (${errors} of them errors in both)` : ""), bad.slice(0, 5).join("\n"));
    check(errors < cases.length, `${route.path}: the requests compute results, not only errors`);
  }
  const nf = await fetch(`${base}/nope`);
  check(nf.status === 404, "an unknown route answers 404");
} catch (e) {
  check(false, "workerd requests", `${e.stack}\n${server.log()}`);
} finally {
  await server.stop();
}

// The golden files inside workerd.
const gdir = `${APP}harness/workerd-golden/`;
await build({ entryPoints: [`${APP}harness/workerd-golden.mjs`], outdir: gdir, entryNames: "worker", assetNames: "[name]",
  bundle: true, format: "esm", platform: "browser", conditions: ["workerd", "worker", "browser"],
  loader: { ".wasm": "copy" }, logLevel: "error" });
writeFileSync(`${gdir}config.capnp`, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js"), (name = "memdomain.wasm", wasm = embed "memdomain.wasm") ],
  compatibilityDate = "2025-01-01",
);
`);
const config = JSON.parse(readFileSync(`${APP}harness/config.json`, "utf8"));
const files = {};
for (const name of [...config.modules.map((m) => `${m}.jsonl`), "constants.jsonl"]) files[name] = readFileSync(`${GOLDEN}${name}`, "utf8");
const gport = await freePort();
const golden = startChild(`${BIN}workerd`, ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${gport}`], { cwd: gdir, maxMs: 240000 });
try {
  const result = await waitFor(async () => {
    if (golden.child.exitCode !== null) throw new Error(`workerd exited: ${golden.log()}`);
    const res = await fetch(`http://127.0.0.1:${gport}/`, { method: "POST", body: JSON.stringify({ ...config, files }) });
    return res.json();
  }, { timeoutMs: 120000, stepMs: 250, what: "the golden worker" });
  if (check(!result.error, "workerd: the golden worker ran", result.error)) {
    checkGolden("workerd", result);
    saveResult("workerd", result);
  }
} catch (e) {
  check(false, "workerd golden run", `${e.stack}\n${golden.log()}`);
} finally {
  await golden.stop();
}
finish("runtime-workerd");
