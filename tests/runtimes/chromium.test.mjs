// Chromium (headless, playwright-core, /usr/bin/chromium): pages served on
// 127.0.0.1 by tests/runtimes/server.mjs from the scratch project. A module
// script (unbundled; an import map resolves "memdomain" and its dependencies to
// node_modules) and a module Web Worker (bundled with esbuild's defaults, since
// workers cannot use import maps) each load the installed package and run the
// golden files of every implemented module; both must hash like Node.
// Also loads examples/browser/index.html and a bundle of examples/browser/worker.js.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { APP, GOLDEN, RT, EXAMPLE_OUTPUT, check, checkGolden, finish, saveResult } from "./lib.mjs";
import { startStatic } from "./server.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

console.log("runtime: Chromium (installed tarball)");
if (!check(existsSync(CHROMIUM), `${CHROMIUM} exists (apt package chromium: bash tools/deps-apt.sh)`)) finish("runtime-chromium");

/** An import map for every package in node_modules: its "." entry for browsers. */
function importMap(nodeModules) {
  const pick = (e) => {
    if (typeof e === "string") return e;
    if (Array.isArray(e)) return e.map(pick).find(Boolean);
    if (e && typeof e === "object") for (const c of ["browser", "import", "default"]) if (c in e) { const r = pick(e[c]); if (r) return r; }
    return undefined;
  };
  const imports = {};
  const names = readdirSync(nodeModules).filter((n) => !n.startsWith("."))
    .flatMap((n) => (n.startsWith("@") ? readdirSync(`${nodeModules}${n}`).map((m) => `${n}/${m}`) : [n]));
  for (const name of names) {
    const pkg = JSON.parse(readFileSync(`${nodeModules}${name}/package.json`, "utf8"));
    const exp = pkg.exports && (typeof pkg.exports === "string" || Array.isArray(pkg.exports) || !Object.keys(pkg.exports)[0]?.startsWith(".") ? pkg.exports : pkg.exports["."]);
    const entry = pick(exp) ?? pkg.module ?? pkg.main;
    if (entry && /\.m?js$/.test(entry)) imports[name] = `/node_modules/${name}/${entry.replace(/^\.\//, "")}`;
    // Subpath exports ("effect/Option") too: the glue imports one module of effect.
    if (pkg.exports && typeof pkg.exports === "object" && !Array.isArray(pkg.exports)) {
      for (const [key, value] of Object.entries(pkg.exports)) {
        if (!key.startsWith("./") || key.includes("*")) continue;
        const sub = pick(value);
        if (typeof sub === "string" && /\.m?js$/.test(sub)) imports[`${name}/${key.slice(2)}`] = `/node_modules/${name}/${sub.replace(/^\.\//, "")}`;
      }
    }
  }
  return { imports };
}

const page = (map, script) => ({ type: "text/html; charset=utf-8",
  body: `<!doctype html><meta charset="utf-8"><script type="importmap">${JSON.stringify(map)}</script>\n` +
    `<script type="module">${script}</script>` });

// The worker bundles: esbuild with its defaults for a browser ES module.
const bundles = `${RT}browser-bundles/`;
rmSync(bundles, { recursive: true, force: true });
await build({ entryPoints: { golden: `${APP}harness/browser-run.js`, example: `${APP}examples/browser/worker.js` },
  outdir: bundles, bundle: true, format: "esm", platform: "browser", logLevel: "error", absWorkingDir: APP });

const map = importMap(`${APP}node_modules/`);
check(map.imports.memdomain === "/node_modules/memdomain/index.js" && map.imports.effect, "import map names memdomain and effect",
  JSON.stringify(map));
const server = await startStatic({
  mounts: { "/": APP, "/golden/": GOLDEN, "/bundle/": bundles },
  pages: {
    "/golden.html": page(map, `import { runHere } from "/harness/browser-run.js";
      runHere().then((r) => (window.__result = r), (e) => (window.__result = { error: String(e?.stack ?? e) }));`),
  },
});
const userDataDir = mkdtempSync(`${tmpdir()}/memdomain-chromium-`);
let context;
const T = 120000;
try {
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 60000 });
  const tab = context.pages()[0] ?? (await context.newPage());
  const logs = [];
  tab.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
  tab.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
  tab.setDefaultTimeout(T);

  // 1. Module script, unbundled.
  await tab.goto(`${server.url}/golden.html`);
  await tab.waitForFunction(() => window.__result !== undefined, null, { timeout: T });
  const inPage = await tab.evaluate(() => window.__result);
  if (check(!inPage.error, "module script: package loaded, golden files ran", inPage.error ?? logs.join("\n"))) {
    console.log(`  ${inPage.runtime}`);
    checkGolden("chromium module script", inPage);
    saveResult("chromium-page", inPage);
  }
  const wasmType = await tab.evaluate(async () => (await fetch("/node_modules/memdomain/memdomain.wasm")).headers.get("content-type"));
  check(wasmType === "application/wasm", "memdomain.wasm is served as application/wasm (instantiateStreaming)");

  // 2. Module Web Worker, bundled.
  const inWorker = await tab.evaluate(() => new Promise((ok) => {
    const w = new Worker("/bundle/golden.js", { type: "module" });
    w.onmessage = (e) => { ok(e.data); w.terminate(); };
    w.onerror = (e) => ok({ error: `worker error: ${e.message}` });
  }));
  if (check(!inWorker.error, "Web Worker: package loaded, golden files ran", inWorker.error)) {
    checkGolden("chromium Web Worker", inWorker);
    saveResult("chromium-worker", inWorker);
  }

  // 3. The examples.
  await tab.goto(`${server.url}/examples/browser/index.html`);
  await tab.waitForFunction(() => document.getElementById("out").textContent !== "loading", null, { timeout: 60000 });
  const shown = await tab.evaluate(() => document.getElementById("out").textContent);
  check(shown === EXAMPLE_OUTPUT, "examples/browser/index.html shows the fused ranking", `${shown}\n${logs.join("\n")}`);
  const fromWorker = await tab.evaluate(() => new Promise((ok) => {
    const w = new Worker("/bundle/example.js", { type: "module" });
    w.onmessage = (e) => { ok(e.data); w.terminate(); };
    w.onerror = (e) => ok(`worker error: ${e.message}`);
  }));
  check(fromWorker === EXAMPLE_OUTPUT, "examples/browser/worker.js (bundled) posts the fused ranking", fromWorker);
} catch (e) {
  check(false, "chromium run", e.stack);
} finally {
  await context?.close().catch(() => {});
  await server.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
finish("runtime-chromium");
