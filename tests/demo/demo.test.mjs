// End-to-end test of the demo page in Debian's headless Chromium (playwright-core).
//   node tests/demo/demo.test.mjs        (make test-demo; needs make all demo-assets)
// Starts web-demo/serve.mjs on a free 127.0.0.1 port, loads the page in a fresh
// profile, and checks every view the package build supports against the same
// package computed here in Node. Screenshots go to build/demo-test/.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import * as md from "../../js/index.js";
import { NEEDS } from "../../web-demo/lib/needs.js";
import { queryVector } from "../../web-demo/lib/arms.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const OUT = join(ROOT, "build/demo-test");
mkdirSync(OUT, { recursive: true });
await md.init(readFileSync(join(ROOT, "build/memdomain.wasm")));

const corpus = JSON.parse(readFileSync(join(ROOT, "build/demo/corpus.json"), "utf8"));
const vecBytes = readFileSync(join(ROOT, "build/demo/vectors.f32"));
const vectors = new Float32Array(vecBytes.buffer.slice(vecBytes.byteOffset, vecBytes.byteOffset + vecBytes.byteLength));
const pathIndex = new Map(corpus.memories.map((m, i) => [m.path, i]));
const vecOf = (path) => vectors.subarray(pathIndex.get(path) * corpus.dim, (pathIndex.get(path) + 1) * corpus.dim);
const has = (...names) => names.every((n) => md[n] !== undefined);

let failures = 0, passed = 0;
async function check(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failures++;
    console.log(`not ok - ${name}\n  ${String(e?.stack ?? e).split("\n").slice(0, 6).join("\n  ")}`);
  }
}
const skip = (name, why) => console.log(`ok - ${name} # SKIP ${why}`);

// ------------------------------------------------------------------ server

function startServer() {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [join(ROOT, "web-demo/serve.mjs"), "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let buf = "";
    const timer = setTimeout(() => rej(new Error(`server did not start: ${buf}`)), 10000);
    child.stdout.on("data", (d) => {
      buf += d;
      const m = buf.match(/serving (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) { clearTimeout(timer); res({ child, url: m[1] }); }
    });
    child.stderr.on("data", (d) => { buf += d; });
    child.on("exit", (code) => rej(new Error(`server exited ${code}: ${buf}`)));
  });
}

const { child: server, url: BASE } = await startServer();

// ------------------------------------------------------------------ server and corpus, without a browser

await check("serve.mjs: correct MIME types, 127.0.0.1 only, no path escapes, GET/HEAD only", async () => {
  assert.match(BASE, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const type = async (p) => (await fetch(BASE + p)).headers.get("content-type");
  assert.equal(await type("build/memdomain.wasm"), "application/wasm");
  assert.match(await type(""), /^text\/html/);
  assert.match(await type("app.js"), /^text\/javascript/);
  assert.match(await type("build/demo/memdomain.js"), /^text\/javascript/);
  assert.match(await type("build/demo/corpus.json"), /^application\/json/);
  assert.match(await type("js/index.js"), /^text\/javascript/);
  assert.match(await type("style.css"), /^text\/css/);
  const wasm = new Uint8Array(await (await fetch(BASE + "build/memdomain.wasm")).arrayBuffer());
  assert.deepEqual(wasm, new Uint8Array(readFileSync(join(ROOT, "build/memdomain.wasm"))));
  for (const p of ["..%2fpackage.json", "%2e%2e/%2e%2e/etc/passwd", "js/..%2f..%2fpackage.json", "build/%00"]) {
    const st = (await fetch(BASE + p)).status;
    assert.ok(st === 403 || st === 404, `${p} -> ${st}`);
  }
  assert.equal((await fetch(BASE + "nope.html")).status, 404);
  assert.equal((await fetch(BASE, { method: "POST", body: "x" })).status, 405);
  assert.equal((await fetch(BASE + "build/memdomain.wasm", { method: "HEAD" })).status, 200);
});

await check("the corpus: deterministic, >= 1,000 memories of the six types, 384-dim vectors, variants the guards must catch", async () => {
  const { generate } = await import("../../web-demo/tools/gen-corpus.mjs");
  const a = generate(corpus.seed), b = generate(corpus.seed);
  assert.equal(JSON.stringify(a.corpus), JSON.stringify(b.corpus));
  assert.deepEqual(Buffer.from(a.vectors.buffer), Buffer.from(b.vectors.buffer));
  assert.equal(JSON.stringify(a.corpus), JSON.stringify(corpus), "build/demo/corpus.json is the generator's output");
  assert.deepEqual(Buffer.from(a.vectors.buffer), vecBytes, "build/demo/vectors.f32 is the generator's output");
  assert.notEqual(JSON.stringify(generate(corpus.seed + 1).corpus), JSON.stringify(corpus), "the seed matters");
  assert.ok(corpus.memories.length >= 1000);
  assert.equal(corpus.dim, 384);
  assert.equal(vectors.length, (corpus.memories.length + corpus.topics.length * 5) * 384);
  assert.deepEqual([...new Set(corpus.memories.map((m) => m.type))].sort(), ["arc", "episodic", "error_pattern", "procedural", "semantic", "task"]);
  for (const m of corpus.memories) {
    for (const k of ["path", "gist", "body"]) assert.equal(typeof m[k], "string");
    for (const k of ["ageDays", "accessCount", "reinforcementCount", "confidence"]) assert.ok(Number.isFinite(m[k]), `${m.path}.${k}`);
  }
  assert.equal(new Set(corpus.memories.map((m) => m.path)).size, corpus.memories.length, "paths are unique");
  for (const kind of ["near-duplicate", "negated", "renumbered", "qualified", "frame-conflict"]) assert.ok(corpus.counts[kind] >= 10, kind);
  const types = new Set(corpus.edges.map((e) => e.type));
  for (const t of ["supports", "reinforces", "contradicts", "relates_to", "duplicates"]) assert.ok(types.has(t), t);
  for (const e of corpus.edges) assert.ok(pathIndex.has(e.src) && pathIndex.has(e.dst) && e.strength >= 0 && e.strength <= 1);
  // a near-duplicate sits close to its original; the frame conflicts share a slot
  const dup = corpus.memories.find((m) => m.kind === "near-duplicate");
  assert.ok(md.cosine(vecOf(dup.path), vecOf(dup.of)) > 0.9);
  if (has("frameKeyOf")) {
    const fc = corpus.memories.filter((m) => m.kind === "frame-conflict");
    for (const m of fc) {
      const o = corpus.memories[pathIndex.get(m.of)];
      assert.equal(md.frameKeyOf(m.gist), md.frameKeyOf(o.gist), m.gist);
      assert.notEqual(md.frameKeyOf(m.gist), null);
    }
  }
});

const profile = mkdtempSync(join(tmpdir(), "memdomain-demo-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1280, height: 800 },
});
const consoleErrors = [];
const offsite = [];
context.on("request", (r) => { if (!r.url().startsWith(BASE) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) offsite.push(r.url()); });
const page = context.pages()[0] ?? (await context.newPage());
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push(String(e)));

const demo = (expr) => page.evaluate(expr);
/**
 * Wait until the page has rendered a newer result for `op` than the `before`-th and has no
 * request for it in flight or pending, so the result on the page is computed from the latest settings.
 */
async function nextResult(op, before) {
  await page.waitForFunction(([op, n]) => window.demo.timings[op].length > n && !window.demo.busy[op], [op, before], { timeout: 30000 });
}
const count = (op) => demo(`window.demo.timings[${JSON.stringify(op)}].length`);
async function setRange(selector, value, op) {
  const n = await count(op);
  await page.locator(selector).fill(String(value));
  await nextResult(op, n);
}

try {
  await page.goto(BASE, { waitUntil: "load" });
  await page.waitForFunction(() => window.demo?.ready && window.demo.results.fusion, null, { timeout: 60000 });
  const info = await demo("window.demo.info");

  await check("the page runs the same package build: exports match js/index.js", () => {
    assert.deepEqual(info.exports, Object.keys(md).sort());
    assert.equal(info.corpus.memories, corpus.memories.length);
    assert.ok(corpus.memories.length >= 1000, "at least 1,000 memories");
  });

  await check("the availability the page reports follows the package's exports", () => {
    for (const [view, names] of Object.entries(NEEDS)) assert.equal(info.available[view], has(...names), view);
    assert.equal(info.available.fusion, true, "fusion is part of the foundation");
  });

  // ---------------------------------------------------------------- fusion
  async function fusionDom() {
    return page.$$eval("#fusion-list li", (lis) => lis.map((li) => ({
      path: li.dataset.path, score: Number(li.dataset.score), shown: li.querySelector(".score").textContent,
      parts: [...li.querySelectorAll(".bar span")].map((s) => ({ arm: s.dataset.arm, value: Number(s.dataset.value) })),
    })));
  }
  function nodeFusion(inputs, arms) {
    const [L, V, S, X] = ["lexical", "vector", "salience", "lateral"].map((a) => arms[a]);
    let fused;
    if (L.k === V.k && V.k === S.k) fused = md.fuseArms([inputs.lexical, inputs.vector, inputs.salience], [L.weight, V.weight, S.weight], L.k);
    else {
      fused = md.fuseArms([inputs.lexical], [L.weight], L.k);
      fused = md.fuseLateral(fused, inputs.vector.map((h) => h.path), V.weight, V.k);
      fused = md.fuseLateral(fused, inputs.salience.map((h) => h.path), S.weight, S.k);
    }
    fused = md.fuseLateral(fused, inputs.lateral.map((h) => h.path), X.weight, X.k);
    return md.rankFused(fused);
  }
  async function assertFusionMatchesNode() {
    const r = await demo("window.demo.results.fusion");
    const arms = await demo("window.demo.state.arms");
    const dom = await fusionDom();
    const expect = nodeFusion(r.inputs, arms).slice(0, 20);
    assert.ok(dom.length > 0, "the fused ranking has rows");
    assert.deepEqual(dom.map((d) => d.path), expect.map((e) => e.path));
    assert.deepEqual(dom.map((d) => d.score), expect.map((e) => e.score));
    for (const [i, d] of dom.entries()) {
      assert.equal(d.shown, expect[i].score.toFixed(5));
      let sum = 0;
      for (const p of d.parts) {
        const h = r.inputs[p.arm].find((x) => x.path === d.path);
        assert.ok(h, `${p.arm} contributes to ${d.path} only if it lists it`);
        assert.equal(p.value, md.rrfScore(h.rank, arms[p.arm].weight, arms[p.arm].k));
        sum += p.value;
      }
      assert.ok(Math.abs(sum - d.score) <= 1e-12, `stacked bar of ${d.path} sums to its fused score`);
    }
    return { dom, r, arms };
  }

  let before;
  await check("fusion: the fused ranking equals rankFused(fuseArms(...)) computed in Node for the same inputs", async () => {
    const { dom, r } = await assertFusionMatchesNode();
    assert.ok(r.inputs.lexical.length > 0 && r.inputs.vector.length > 0, "lexical and vector arms have hits");
    if (info.available.lateral) assert.ok(r.inputs.lateral.length > 0, "the lateral arm has hits");
    assert.ok(dom.some((d) => d.parts.length >= 2), "some hit gets contributions from two arms");
    // the vector arm's similarities are cosine() of the query vector, as the package computes it here
    const T = corpus.topics.length, n = corpus.memories.length, D = corpus.dim;
    const qv = queryVector(await demo("window.demo.state.query"), corpus.topics,
      (t) => vectors.subarray((n + t) * D, (n + t + 1) * D), (t, s) => vectors.subarray((n + T + t * 4 + s) * D, (n + T + t * 4 + s + 1) * D), D);
    const sims = corpus.memories.map((m) => [m.path, md.cosine(qv, vecOf(m.path))]);
    const byCos = md.rankFused(new Map(sims));
    assert.deepEqual(r.armTop.vector.map((h) => [h.path, h.value]), byCos.slice(0, 5).map((x) => [x.path, x.score]));
    assert.deepEqual(r.inputs.vector.map((h) => h.path), byCos.slice(0, r.inputs.vector.length).map((x) => x.path));
    const shown = await page.$$eval("#fusion-arms section[data-arm=vector] li", (lis) => lis.map((li) => li.textContent.split(" ")[0]));
    assert.deepEqual(shown, byCos.slice(0, 5).map((x) => x.score.toFixed(4)));
    before = dom;
  });
  await page.screenshot({ path: join(OUT, "fusion-1280x800.png") });

  await check("fusion: moving the lexical weight slider to 0 changes the ranking and drops the lexical bars", async () => {
    await setRange("#w-lexical", 0, "fusion");
    const { dom } = await assertFusionMatchesNode();
    assert.notDeepEqual(dom.map((d) => d.path), before.map((d) => d.path));
    assert.ok(dom.every((d) => d.parts.every((p) => p.arm !== "lexical")), "a zero-weight arm is absent");
    assert.equal(await page.locator("output[for=w-lexical]").textContent(), "0.00");
  });

  await check("fusion: a per-arm k (vector k = 5) changes scores and still matches Node", async () => {
    const prev = await fusionDom();
    await setRange("#k-vector", 5, "fusion");
    const { dom } = await assertFusionMatchesNode();
    assert.notDeepEqual(dom.map((d) => d.score), prev.map((d) => d.score));
    await setRange("#k-vector", 60, "fusion");
    await setRange("#w-lexical", 1, "fusion");
  });

  await check("fusion: every arm's weight, k and depth slider moves the fused scores (or is inert when the arm is dark)", async () => {
    const scores = async () => (await fusionDom()).map((d) => `${d.path}=${d.score}`).join();
    for (const arm of ["lexical", "vector", "salience", "lateral"]) {
      const r = await demo("window.demo.results.fusion");
      const dark = r.inputs[arm].length === 0;
      for (const [ctl, to, back] of [["w", 1.75, null], ["k", 3, null], ["d", 1, null]]) {
        const id = `#${ctl}-${arm}`;
        const orig = await page.locator(id).inputValue();
        const s0 = await scores();
        await setRange(id, to, "fusion");
        await assertFusionMatchesNode();
        const s1 = await scores();
        if (dark) assert.equal(s1, s0, `${id} on a dark arm changes nothing`);
        else assert.notEqual(s1, s0, `${id} changes the fused scores`);
        await setRange(id, back ?? orig, "fusion");
      }
    }
  });

  await check("fusion: another preset query gives another ranking", async () => {
    const prev = await fusionDom();
    const n = await count("fusion");
    await page.selectOption("#query-preset", "5");
    await nextResult("fusion", n);
    const { dom } = await assertFusionMatchesNode();
    assert.notDeepEqual(dom.map((d) => d.path), prev.map((d) => d.path));
    await page.selectOption("#query-preset", "0");
  });

  await check("fusion: a query that names nothing gives an empty ranking, not an error; free text is searched", async () => {
    let n = await count("fusion");
    await page.fill("#query-text", "zzqx wvvk");
    await nextResult("fusion", n);
    assert.equal((await fusionDom()).length, 0);
    assert.match(await page.locator("#fusion-meta").textContent(), /names no topic/);
    n = await count("fusion");
    await page.fill("#query-text", "backup restore drill");
    await nextResult("fusion", n);
    const { dom } = await assertFusionMatchesNode();
    assert.ok(dom.length > 0 && dom.slice(0, 5).every((d) => corpus.memories[pathIndex.get(d.path)].topic === "backup"), "the top hits are about backups");
    n = await count("fusion");
    await page.selectOption("#query-preset", "1");
    await page.selectOption("#query-preset", "0");
    await nextResult("fusion", n);
  });

  // ---------------------------------------------------------------- MMR
  const tab = async (name, op) => {
    const n = op ? await count(op) : 0;
    await page.click(`#tab-${name}`);
    if (op) await nextResult(op, n);
  };
  if (info.available.mmr) {
    await check("mmr: the picks equal applyMmr in Node on the same candidates, and lambda moves them", async () => {
      await tab("mmr", "mmr");
      const verify = async () => {
        const st = await demo("window.demo.state");
        const r = await demo("window.demo.results.mmr");
        // the candidates are the top of rankFused(fuseArms(...)) for the same inputs ...
        const fused = nodeFusion(r.inputs, st.arms).slice(0, st.mmr.pool);
        assert.deepEqual(r.candidates, fused);
        // ... and the picks are applyMmr over them, with their embeddings, computed here
        const expect = md.applyMmr(fused.map((c) => ({ path: c.path, score: c.score, vector: Array.from(vecOf(c.path)) })), st.mmr.limit, st.mmr.lambda);
        const rows = await page.$$eval("#mmr-table tbody tr", (trs) => trs.map((t) => t.dataset.path));
        assert.equal(rows.length, Math.min(st.mmr.limit, r.pool));
        assert.deepEqual(rows, expect.map((p) => p.path));
        return { st, r, rows };
      };
      await setRange("#mmr-lambda", 1, "mmr");
      let { r } = await verify();
      assert.ok(r.picks.every((p) => p.order === p.fusedRank), "lambda 1 keeps the fused order");
      await setRange("#mmr-lambda", 0.2, "mmr");
      ({ r } = await verify());
      assert.ok(r.picks.some((p) => p.order !== p.fusedRank), "lambda 0.2 reorders");
      await setRange("#mmr-limit", 3, "mmr");
      assert.equal((await verify()).rows.length, 3);
      await setRange("#mmr-pool", 12, "mmr");
      ({ r } = await verify());
      assert.equal(r.pool, 12);
      assert.equal(await page.$$eval("#mmr-plot g[data-path]", (gs) => gs.length), 12);
      await setRange("#mmr-limit", 8, "mmr");
      await setRange("#mmr-pool", 30, "mmr");
      ({ r } = await verify());
      const cands = r.points.map((p) => p.path);
      const relevance = new Map(r.picks.map((p) => [p.path, p.relevance]));
      for (const p of r.picks) assert.equal(typeof relevance.get(p.path), "number");
      const circles = await page.$$eval("#mmr-plot g[data-pick]:not([data-pick='0'])", (gs) => gs.length);
      assert.equal(circles, r.picks.length);
      assert.equal(cands.length, r.pool);
      for (let i = 1; i < r.picks.length; i++) {
        let max = -Infinity;
        for (let j = 0; j < i; j++) max = Math.max(max, md.cosine(vecOf(r.picks[i].path), vecOf(r.picks[j].path)));
        assert.equal(r.picks[i].penalty, max, "penalty is the max cosine to earlier picks");
      }
    });
    await page.screenshot({ path: join(OUT, "mmr-1280x800.png") });
  } else {
    await check("mmr: the view says the module is not available", async () => {
      await tab("mmr");
      assert.match(await page.locator("#view-mmr > .unavailable").textContent(), /not available in this build/);
    });
  }

  // ---------------------------------------------------------------- communities
  if (info.available.graph) {
    await check("communities: PageRank table equals pagerank in Node; personalized mode changes it", async () => {
      await tab("graph", "graph");
      await page.waitForFunction(() => document.querySelector("#graph-meta").textContent.length > 0);
      const edges = corpus.edges.map((e) => ({ src: e.src, dst: e.dst, strength: e.strength }));
      const paths = corpus.memories.map((m) => m.path);
      const expect = md.rankFused(md.pagerank(paths, edges)).slice(0, 12);
      const rows = await page.$$eval("#graph-top tbody tr", (trs) => trs.map((t) => [t.dataset.path, t.children[1].textContent]));
      assert.deepEqual(rows.map((r) => r[0]), expect.map((e) => e.path));
      assert.deepEqual(rows.map((r) => r[1]), expect.map((e) => e.score.toFixed(6)));
      const comm = md.labelPropagation(paths, edges);
      const labels = new Set([...comm.values()].filter((x) => x !== undefined));
      assert.match(await page.locator("#graph-meta").textContent(), new RegExp(`^${labels.size} communities`));
      const pixels = () => page.evaluate(() => {
        const c = document.querySelector("#graph-canvas");
        return c.toDataURL().length;
      });
      await page.waitForFunction(() => window.demo.layoutReady, null, { timeout: 60000 });
      const p0 = await pixels();
      await page.selectOption("#graph-edges", "none");
      assert.notEqual(await pixels(), p0, "hiding edges redraws the graph");
      await page.selectOption("#graph-edges", "all");
      const n = await count("graph");
      await page.check("#graph-mode-ppr");
      await nextResult("graph", n);
      const rows2 = await page.$$eval("#graph-top tbody tr", (trs) => trs.map((t) => t.dataset.path));
      assert.notDeepEqual(rows2, rows.map((r) => r[0]));
    });
    await check("communities: the force layout finishes in the worker and is drawn", async () => {
      await page.waitForFunction(() => window.demo.layoutReady, null, { timeout: 60000 });
      const painted = await page.evaluate(() => {
        const c = document.querySelector("#graph-canvas");
        const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0) n++;
        return n / (d.length / 4);
      });
      assert.ok(painted > 0.02, `canvas has drawing (${painted})`);
    });
    await page.screenshot({ path: join(OUT, "communities-1280x800.png") });
  } else {
    await check("communities: the view says the module is not available", async () => {
      await tab("graph");
      assert.match(await page.locator("#view-graph > .unavailable").textContent(), /not available in this build/);
    });
  }

  // ---------------------------------------------------------------- retention and merge
  if (info.available.retention) {
    await check("retention: band counts equal scoreRetention in Node and move with the keep threshold", async () => {
      await tab("retention", "retention");
      await page.screenshot({ path: join(OUT, "retention-defaults-1280x800.png") });
      const counts = async () => Object.fromEntries(await Promise.all(["keep", "compress", "evict"].map(async (b) => [b, Number(await page.locator(`#count-${b} b`).textContent())])));
      const c0 = await counts();
      const exp = { keep: 0, compress: 0, evict: 0 };
      let pr = null, br = null, maxRank = 0;
      if (info.available.graph) {
        const edges = corpus.edges.map((e) => ({ src: e.src, dst: e.dst, strength: e.strength }));
        const paths = corpus.memories.map((m) => m.path);
        pr = md.pagerank(paths, edges);
        br = md.bridgeCounts(paths, edges, md.labelPropagation(paths, edges));
        for (const v of pr.values()) maxRank = Math.max(maxRank, v);
      }
      for (const m of corpus.memories) {
        exp[md.scoreRetention({ memoryType: m.type, ageDays: m.ageDays, accessCount: m.accessCount, confidence: m.confidence,
          graphRank: pr ? pr.get(m.path) : 0, maxGraphRank: pr ? maxRank : 0, bridgeCount: br ? br.get(m.path) : 0,
          reinforcementCount: m.reinforcementCount, wordCount: m.wordCount, contradictionCount: m.contradictionCount }).action]++;
      }
      assert.deepEqual(c0, exp);
      const typeRows = await page.$$eval("#ret-types tbody tr", (trs) => trs.map((t) => [...t.children].slice(1).reduce((a, td) => a + Number(td.textContent), 0)));
      assert.equal(typeRows.reduce((a, b) => a + b, 0), corpus.memories.length, "the by-type table covers every memory");
      await setRange("#ret-keep", 0.9, "retention");
      const c1 = await counts();
      assert.ok(c1.keep < c0.keep || c0.keep === 0, "raising the keep threshold keeps fewer");
      assert.equal(c1.keep + c1.compress + c1.evict, corpus.memories.length);
      const c2 = await counts();
      await setRange("#ret-evict", 0.45, "retention");
      const c3 = await counts();
      assert.ok(c3.evict > c2.evict, "raising the evict threshold evicts more");
      // an edited half-life: episodic memories decaying over 1 day instead of 10 score lower
      const hist = () => page.$$eval("#ret-hist rect", (rs) => rs.map((r) => `${r.getAttribute("data-band")}:${r.getAttribute("data-count")}`).join());
      const h0 = await hist();
      let n = await count("retention");
      await page.fill("#hl-episodic", "1");
      await nextResult("retention", n);
      const h1 = await hist();
      assert.notEqual(h1, h0, "the histogram moves with a half-life");
      await setRange("#rw-recency", 0.4, "retention");
      assert.doesNotMatch(await page.locator("#ret-sum b").textContent(), /^1$/);
      n = await count("retention");
      await page.selectOption("#ret-type", "semantic");
      assert.equal(await page.locator("#rw-recency").inputValue(), "0.05", "the semantic profile's own recency weight");
      // reset returns to the shipped tables: the counts are scoreRetention's again
      n = await count("retention");
      await page.click("#ret-reset");
      await nextResult("retention", n);
      assert.deepEqual(await counts(), exp);
      assert.equal(await page.locator("#hl-episodic").inputValue(), "10");
      // edit again for the export check below
      await setRange("#ret-keep", 0.9, "retention");
      await page.selectOption("#ret-type", "episodic");
      await setRange("#rw-recency", 0.4, "retention");
    });
  } else {
    await check("retention: the view says the module is not available", async () => {
      await tab("retention");
      assert.match(await page.locator("#view-retention > .unavailable").textContent(), /not available in this build/);
    });
  }
  if (info.available.merge) {
    await check("merge: the table shows committed and vetoed pairs with each veto reason; the threshold moves them", async () => {
      if (!info.available.retention) await tab("retention");
      await page.waitForFunction(() => window.demo.results.merge, null, { timeout: 60000 });
      const r = await demo("window.demo.results.merge");
      await page.locator(".merge-out").screenshot({ path: join(OUT, "merge-table.png") });
      assert.ok(r.stages.committed > 0, "some pairs commit");
      assert.ok(r.stages.vetoed > 0, "some pairs are vetoed");
      const reasons = new Set(r.rows.flatMap((x) => x.reasons));
      for (const want of ["negation", "numeric", "variant"]) assert.ok(reasons.has(want), `a pair vetoed for ${want}`);
      for (const x of r.rows.slice(0, 50)) assert.deepEqual(x.reasons, md.mergeVetoReasons(
        { gist: corpus.memories[pathIndex.get(x.keepPath)].gist, body: corpus.memories[pathIndex.get(x.keepPath)].body },
        { gist: corpus.memories[pathIndex.get(x.dropPath)].gist, body: corpus.memories[pathIndex.get(x.dropPath)].body }));
      if (info.available.frame) assert.ok(r.rows.some((x) => x.frame?.conflict), "a frame-key conflict is flagged");
      await setRange("#merge-threshold", 0.985, "merge");
      const r2 = await demo("window.demo.results.merge");
      assert.ok((r2.stages.committed ?? 0) < r.stages.committed, "a stricter threshold commits fewer");
      await setRange("#merge-threshold", 0.92, "merge");
      await setRange("#merge-cap", 2, "merge");
      const r3 = await demo("window.demo.results.merge");
      assert.equal(r3.stages.committed, 2, "the cap stops commits at maxPairs");
      assert.ok(r3.stages.cap > 0, "later pairs stop at the cap");
      await setRange("#merge-cap", 100, "merge");
      await page.selectOption("#merge-stage", "vetoed");
      const stages = await page.$$eval("#merge-table tbody tr", (trs) => trs.map((t) => t.dataset.stage));
      assert.ok(stages.length > 0 && stages.every((x) => x === "vetoed"), "the stage filter shows vetoed rows only");
      await page.selectOption("#merge-stage", "");
    });
  } else skip("merge table", "topNeighborPairs / mergeOutcomes not in this build");
  if (info.available.retention || info.available.merge) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(OUT, "retention-1280x800.png"), fullPage: false });
  }

  await check("the About tab says how the embeddings were made", async () => {
    await page.click("#tab-about");
    assert.match(await page.locator("#about").textContent(), /synthetic, not from a model/i);
    await page.screenshot({ path: join(OUT, "about-1280x800.png") });
  });

  // ---------------------------------------------------------------- export, labels, layout
  await check("export settings gives the tuned weights and thresholds as JSON", async () => {
    await tab("fusion", null);
    await setRange("#w-salience", 1.25, "fusion");
    await page.click("#export-btn");
    const json = JSON.parse(await page.locator("#export-json").inputValue());
    assert.equal(json.fusion.arms.salience.weight, 1.25);
    assert.equal(json.mmr.lambda, (await demo("window.demo.state.mmr.lambda")));
    if (info.available.retention) {
      assert.equal(json.retention.keepThreshold, 0.9);
      assert.equal(json.retention.weightProfiles.episodic.recency, 0.4);
    }
    await page.click("#export-close");
  });

  await check("every control has a label", async () => {
    const unlabeled = await page.$$eval("input, select, textarea, button", (els) => els.filter((e) => {
      if (e.tagName === "BUTTON") return !e.textContent.trim() && !e.getAttribute("aria-label");
      return !(e.labels && e.labels.length) && !e.getAttribute("aria-label");
    }).map((e) => e.id || e.outerHTML.slice(0, 60)));
    assert.deepEqual(unlabeled, []);
  });

  await check("no horizontal overflow at 1280x800 and at 390x844; screenshots of the narrow layout", async () => {
    const overflow = () => demo("document.documentElement.scrollWidth - window.innerWidth");
    assert.ok((await overflow()) <= 0, "1280 wide");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("#tab-fusion");
    await page.waitForTimeout(300);
    assert.ok((await overflow()) <= 0, `390 wide overflows by ${await overflow()}px`);
    await page.screenshot({ path: join(OUT, "fusion-390x844.png"), fullPage: false });
    if (info.available.retention) {
      await page.click("#tab-retention");
      await page.waitForTimeout(300);
      assert.ok((await overflow()) <= 0, "retention at 390 wide");
      await page.screenshot({ path: join(OUT, "retention-390x844.png") });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click("#tab-fusion");
  });

  // A benchmark, not a timed assertion: slider move -> updated view, median of 15 moves.
  const bench = {};
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
  async function benchOn(op, selector, values) {
    const t0 = (await demo(`window.demo.timings[${JSON.stringify(op)}].length`));
    for (const v of values) await setRange(selector, v, op);
    const ts = await demo(`window.demo.timings[${JSON.stringify(op)}].slice(${t0})`);
    bench[op] = { median: median(ts), max: Math.max(...ts), n: ts.length };
  }
  const sweep = (a, b, n) => Array.from({ length: n }, (_, i) => +(a + ((b - a) * i) / (n - 1)).toFixed(2));
  await tab("fusion", "fusion");
  await benchOn("fusion", "#w-vector", sweep(0.1, 1.5, 15));
  if (info.available.mmr) { await tab("mmr", "mmr"); await benchOn("mmr", "#mmr-lambda", sweep(0.05, 0.95, 15)); }
  if (info.available.graph) {
    await tab("graph", "graph");
    const t0 = await count("graph");
    for (let i = 0; i < 15; i++) { const n = await count("graph"); await page.click("#graph-recompute"); await nextResult("graph", n); }
    const ts = await demo(`window.demo.timings.graph.slice(${t0})`);
    bench.graph = { median: median(ts), max: Math.max(...ts), n: ts.length, what: "pagerank + labelPropagation + bridgeCounts (+ personalized pagerank)" };
  }
  if (info.available.retention) { await tab("retention", "retention"); await benchOn("retention", "#ret-evict", sweep(0.1, 0.5, 15)); }
  console.log(`# slider -> view (ms): ${JSON.stringify(bench)}`);
  await check("one slider move or click is one recomputation (no duplicate listeners, no lost moves)", () => {
    for (const [op, b] of Object.entries(bench)) assert.equal(b.n, 15, op);
  });

  await check("no console errors, no off-site requests", () => {
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(offsite, []);
    return demo("window.demo.errors").then((errs) => assert.deepEqual(errs, []));
  });
} catch (e) {
  failures++;
  console.log(`not ok - the test harness: ${e.stack}`);
  await page.screenshot({ path: join(OUT, "failure.png") }).catch(() => {});
} finally {
  await context.close();
  server.kill("SIGTERM");
  rmSync(profile, { recursive: true, force: true });
}
console.log(`# demo: ${passed} passed, ${failures} failed; screenshots in ${OUT}`);
process.exit(failures ? 1 : 0);
