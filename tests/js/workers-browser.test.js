// Many workers, one answer, in a browser: the same glue in module Web
// Workers (headless Chromium, pages served on 127.0.0.1). Skipped when
// Chromium or playwright-core is not installed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { ROOT } from "./golden/runner.js";

const CHROMIUM = "/usr/bin/chromium";
let chromium = null;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  chromium = null;
}
const run = chromium && existsSync(CHROMIUM) ? test : test.skip;

const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
import { init } from "/js/src/core.js";
import * as md from "/js/src/neighbors.js";
import { createNeighborPool } from "/js/src/workers.js";
try {
  await init();
  const n = 180, d = 24, m = new Float32Array(n * d);
  for (let i = 0; i < m.length; i++) m[i] = Math.sin(i * 0.618) * (i % 7 === 0 ? 2 : 1);
  m[3 * d] = NaN;
  const keys = Array.from({ length: n }, (_, i) => (i % 4 ? "k" + i : "\\u{1F600}" + i));
  const o = { floor: 0, perSourceK: 4, limit: 500 };
  const single = JSON.stringify(md.topNeighborPairsPacked(m, keys, o));
  const pool = await createNeighborPool({ workers: 2 });
  const same = [];
  for (const tiles of [1, 2, 5]) same.push(JSON.stringify(await pool.topNeighborPairs(m, keys, o, { tiles })) === single);
  const stats = pool.lastStats;
  await pool.close();
  window.__result = { same, pairs: JSON.parse(single).length, isolated: crossOriginIsolated, stats };
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
</script>`;

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

// Twice: a plain page (no shared memory: this thread hands the tiles out),
// then a cross-origin isolated one (COOP and COEP on every response: the
// matrix, the thresholds and the schedule in SharedArrayBuffers, each worker
// taking its own tiles).
run("the tiled pass in Web Workers equals the single-thread pass, with and without shared memory", async () => {
  let isolated = false;
  const headers = (type) => ({ "content-type": type,
    ...(isolated ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } : {}) });
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://127.0.0.1").pathname;
    if (path === "/") { res.writeHead(200, headers("text/html")); res.end(PAGE); return; }
    const file = normalize(join(ROOT, path));
    if (!file.startsWith(ROOT) || !(path.startsWith("/js/") || path.startsWith("/build/")) || !existsSync(file)) {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, headers(TYPES[extname(file)] ?? "application/octet-stream"));
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const dir = mkdtempSync(join(tmpdir(), "memdomain-chromium-"));
  let ctx;
  try {
    ctx = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM, headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    for (const mode of [false, true]) {
      isolated = mode;
      const page = await ctx.newPage();
      const log = [];
      page.on("pageerror", (e) => log.push(String(e)));
      page.on("console", (m) => log.push(m.text()));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60000 })
        .catch((e) => { throw new Error(`${e.message}\npage log: ${log.join("\n")}`); });
      const result = await page.evaluate(() => window.__result);
      expect(result.error).toBeUndefined();
      expect(result.isolated).toBe(mode);
      expect(result.same).toEqual([true, true, true]);
      expect(result.pairs).toBeGreaterThan(0);
      expect(result.stats.tiles).toBe(5);
      expect(result.stats.tilesPerWorker.reduce((a, b) => a + b, 0)).toBe(5);
      await page.close();
    }
  } finally {
    await ctx?.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 120000);
