// End-to-end test of the workbench in Debian's headless Chromium (playwright-core).
//   node tests/demo/demo.test.mjs        (make test-demo; needs make all demo-assets)
// Starts web-demo/serve.mjs on a free 127.0.0.1 port and, in a fresh profile:
//  1. the first visit (the synthetic example): every view at 1440x900 and 390x844, screenshots
//     into build/demo-test/, none wider than the window (scrollWidth), arrow keys between tabs;
//  2. imports: a file importJsonl() refuses (an ISO date) and a dimension mismatch are refused as
//     a whole, in the cache's words (one grouped message); data without edges draws sleep()'s
//     similarity edges and counts the memories with none; then a small JSONL corpus with labels
//     (generated here). The Sleep, Retention, Communities and Merges views equal cache.sleep() in
//     Node on the same data and `now`; "apply" runs the pass (the next preview is Node's second
//     pass), undo restores, a later "as of" previews that date; Ctrl+Z in the query box brings a
//     labelled query back. Pins a baseline, changes a weight and checks the rank-change marks and
//     the nDCG values against the same search and metrics in Node; the page's list equals
//     memdomain/cache's search() in Node for the default composition (both fusions) and preset
//     "memhtml"; "Fit to my labels" runs tune() with progress and shows the held-out scores
//     tune() gives in Node; the drill-down says where a relevant memory was lost, as explain()
//     does in Node; refuses crossing thresholds and marks bad input;
//  3. reloads: the same settings (from the URL) and the same memories (from OPFS);
//  4. exports the settings and runs the exported snippet in Node next to the exported data:
//     the same scores as the page; round trips: memories.jsonl is exportJsonl()'s bytes, page
//     export -> import -> export is byte-identical (settings, name, "as of" included), the SQLite
//     file alone brings everything back; settings from the URL and pasted: every value the API
//     refuses is shown in its words, every other one used.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { rng } from "../oracles/rng.js";
import * as md from "../../js/index.js";
import { PRESETS, openMemoryCache } from "../../js/cache/index.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const OUT = join(ROOT, "build/demo-test");
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await md.init(readFileSync(join(ROOT, "build/memdomain.wasm")));
const T0 = Date.now();

let failures = 0, passed = 0;
async function check(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failures++;
    console.log(`not ok - ${name}\n  ${String(e?.stack ?? e).split("\n").slice(0, 8).join("\n  ")}`);
  }
}

// ------------------------------------------------------------------ the fixture: a small labelled corpus

function fixture() {
  const rnd = rng(15), DIM = 8, NOW = Date.UTC(2026, 5, 1), DAY = 86400000;
  const topics = [
    { name: "kafka", words: ["kafka", "consumer", "offset", "partition", "lag"] },
    { name: "tls", words: ["tls", "certificate", "renewal", "expiry", "chain"] },
    { name: "gpu", words: ["gpu", "cuda", "driver", "memory", "kernel"] },
  ];
  const types = ["episodic", "semantic", "procedural", "note"]; // "note" is a type the design does not list
  const memories = [], edges = [];
  const unit = (v) => { const n = Math.hypot(...v); return v.map((x) => Math.fround(x / n)); };
  topics.forEach((tp, t) => {
    for (let j = 0; j < 13; j++) {
      const w = (k) => tp.words[(j + k) % tp.words.length];
      const v = Array.from({ length: DIM }, (_, i) => (i === t ? 1 : 0) + (i === 3 + (j % 5) ? 0.5 : 0) + 0.45 * (rnd() - 0.5));
      memories.push({
        path: `${tp.name}/${String(j).padStart(2, "0")}.md`, gist: `The ${w(0)} ${w(1)} note ${j}: ${w(2)} matters`,
        body: `${w(0)} ${w(3)} ${w(4)} details, seen ${j} times. ${"filler words here ".repeat(j % 4)}`,
        type: types[(j + t) % types.length], embedding: unit(v), createdAt: NOW - Math.round((1 + 40 * rnd()) * DAY),
        accessCount: Math.floor(12 * rnd()), confidence: Math.round(100 * (0.4 + 0.6 * rnd())) / 100,
        reinforcementCount: j % 3, contradictionCount: j % 7 === 0 ? 1 : 0,
      });
      if (j > 0) edges.push({ src: `${tp.name}/${String(j).padStart(2, "0")}.md`, dst: `${tp.name}/${String(j - 1).padStart(2, "0")}.md`, strength: 0.5 + 0.5 * rnd(), type: "supports" });
    }
  });
  edges.push({ src: "kafka/00.md", dst: "tls/00.md", strength: 0.3, type: "relates_to" });
  // a near-duplicate per topic (the same text as its 01, a close vector, written later), so sleep() merges
  const dup = rng(16);
  topics.forEach((tp) => {
    const of = memories.find((m) => m.path === `${tp.name}/01.md`);
    memories.push({ ...of, path: `${tp.name}/13.md`, embedding: unit(of.embedding.map((x) => x + 0.02 * (dup() - 0.5))),
      createdAt: of.createdAt + 3 * DAY, accessCount: 1, reinforcementCount: 0, contradictionCount: 0 });
  });
  // three old notes nobody used, contradicted and low in confidence: the evict band's lowest scores, which sleep({ evict }) archives
  for (let k = 0; k < 3; k++) {
    memories.push({ path: `misc/stale-${k}.md`, gist: `An old scratch note ${k}`, body: "obsolete", type: "episodic",
      embedding: unit(Array.from({ length: DIM }, (_, i) => (i === 6 ? 1 : 0) + 0.3 * (rnd() - 0.5) + (i === k ? 0.4 : 0))),
      createdAt: NOW - (200 + 10 * k) * DAY, accessCount: 0, confidence: 0.2, reinforcementCount: 0, contradictionCount: 3 });
  }
  // two memories far from every other (and from each other): sleep() gives them no similarity edge
  memories.push({ path: "misc/lone-a.md", gist: "A lone note about the office plants", body: "water them on fridays", type: "note",
    embedding: [0, 0, 0, 0, 0, 0, 0, 1], createdAt: NOW - 20 * DAY, accessCount: 0, confidence: 0.5, reinforcementCount: 0, contradictionCount: 0 });
  memories.push({ path: "misc/lone-b.md", gist: "Another lone note, on the parking rota", body: "the rota changes monthly", type: "semantic",
    embedding: [-1, 0, 0, 0, 0, 0, 0, 0], createdAt: NOW - 30 * DAY, accessCount: 2, confidence: 0.9, reinforcementCount: 1, contradictionCount: 0 });
  const qv = (t) => unit(Array.from({ length: DIM }, (_, i) => (i === t ? 1 : 0) + 0.3 * (rnd() - 0.5)));
  const queries = [
    { id: "k1", query: "kafka consumer lag", vector: qv(0), relevant: memories.filter((m) => m.path.startsWith("kafka/") && /consumer|lag/.test(m.gist + m.body)).map((m) => m.path) },
    { id: "t1", query: "certificate renewal expiry", vector: qv(1), relevant: { "tls/01.md": 2, "tls/04.md": 1, "tls/07.md": 1, "tls/10.md": 2 } },
    { id: "g1", query: "gpu driver memory", vector: qv(2), relevant: memories.filter((m) => m.path.startsWith("gpu/")).slice(0, 6).map((m) => m.path) },
    { id: "u1", query: "unlabelled question about kafka tls" },
  ];
  const meta = { meta: { name: "test fixture", now: NOW } };
  const lines = (xs) => xs.map((x) => `${JSON.stringify(x)}\n`).join("");
  // memdomain/cache's JSON Lines (put()'s fields, link edges), and the page's own lines (meta, queries)
  // decayedAt = createdAt: memories of a long-lived cache, last decayed when written (so the first pass decays them,
  // and the policy's minimum age counts from createdAt)
  const memoryLines = memories.map((m) => JSON.stringify({ ...m, decayedAt: m.decayedAt ?? m.createdAt }));
  const edgeLines = edges.map((e) => JSON.stringify({ edge: { ...e, origin: "link" } }));
  const BAD = 7; // a line whose createdAt is an ISO date: put() and importJsonl() take milliseconds
  const bad = memoryLines.slice();
  bad[BAD - 1] = JSON.stringify({ ...memories[BAD - 1], createdAt: new Date(memories[BAD - 1].createdAt).toISOString() });
  // query vectors of another dimension on lines 2, 3 and 5 (line 4 is fine): refused as a whole, one message
  const short = (q) => ({ ...q, vector: q.vector.slice(0, 4) });
  return {
    memories, edges, queries, now: NOW, BAD,
    memoriesJsonl: [...memoryLines, ...edgeLines].join("\n") + "\n",
    memoriesOnlyJsonl: memoryLines.join("\n") + "\n",
    badMemoriesJsonl: [...bad, ...edgeLines].join("\n") + "\n",
    queriesJsonl: lines([meta, ...queries]),
    badQueriesJsonl: lines([meta, short(queries[0]), short(queries[1]), queries[2], { ...short(queries[2]), id: "g2" }]),
  };
}
const FX = fixture();
const FX_DIR = mkdtempSync(join(tmpdir(), "memdomain-fixture-"));
writeFileSync(join(FX_DIR, "memories.jsonl"), FX.memoriesJsonl);
writeFileSync(join(FX_DIR, "queries.jsonl"), FX.queriesJsonl);
writeFileSync(join(FX_DIR, "bad-memories.jsonl"), FX.badMemoriesJsonl);
writeFileSync(join(FX_DIR, "no-edges.jsonl"), FX.memoriesOnlyJsonl);
writeFileSync(join(FX_DIR, "bad-queries.jsonl"), FX.badQueriesJsonl);

// ------------------------------------------------------------------ the same search and metrics in Node

// memdomain/cache in Node (SQLite in memory) on the same memories: its search() is the
// reference the page's numbers must equal.
const nodeCache = await openMemoryCache();
await nodeCache.put(FX.memories);
await nodeCache.link(FX.edges);

// The page's search settings are search()'s options as they are.
async function nodeSearch(q, s) {
  return (await nodeCache.search({ text: q.query, vector: q.vector ?? null, ...s })).map((h) => ({ path: h.path, fused: h.score }));
}

// Metrics written independently of web-demo/lib/metrics.js.
function ndcg(list, relevant, k) {
  const grade = Array.isArray(relevant) ? Object.fromEntries(relevant.map((p) => [p, 1])) : relevant;
  const dcg = list.slice(0, k).reduce((a, p, i) => a + (2 ** (grade[p] ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = Object.values(grade).sort((a, b) => b - a).slice(0, k).reduce((a, g, i) => a + (2 ** g - 1) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}
const expectedMove = (cur, base) => (base === undefined ? "new" : base === cur ? "same" : base > cur ? `up:${base - cur}` : `down:${cur - base}`);

// ------------------------------------------------------------------ server and browser

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

await check("serve.mjs: MIME types, 127.0.0.1 only, no path escapes, GET/HEAD only", async () => {
  assert.match(BASE, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const type = async (p) => (await fetch(BASE + p)).headers.get("content-type");
  assert.equal(await type("build/memdomain.wasm"), "application/wasm");
  assert.match(await type(""), /^text\/html/);
  assert.match(await type("app.js"), /^text\/javascript/);
  assert.match(await type("build/demo/corpus.json"), /^application\/json/);
  for (const p of ["..%2fpackage.json", "%2e%2e/%2e%2e/etc/passwd", "js/..%2f..%2fpackage.json", "build/%00"]) {
    const st = (await fetch(BASE + p)).status;
    assert.ok(st === 403 || st === 404, `${p} -> ${st}`);
  }
  assert.equal((await fetch(BASE, { method: "POST", body: "x" })).status, 405);
});

await check("the synthetic example is deterministic and is the generator's output", async () => {
  const { generate, workbenchExample } = await import("../../web-demo/tools/gen-corpus.mjs");
  const corpus = JSON.parse(readFileSync(join(ROOT, "build/demo/corpus.json"), "utf8"));
  const a = generate(corpus.seed);
  assert.equal(JSON.stringify(a.corpus), JSON.stringify(corpus));
  const ex = workbenchExample(a.corpus, a.vectors);
  assert.equal(ex.memories, readFileSync(join(ROOT, "build/demo/example-memories.jsonl"), "utf8"));
  assert.equal(ex.queries, readFileSync(join(ROOT, "build/demo/example-queries.jsonl"), "utf8"));
  assert.ok(corpus.memories.length >= 1000);
});

const profile = mkdtempSync(join(tmpdir(), "memdomain-demo-"));
const launch = () => chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium", headless: true, acceptDownloads: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1440, height: 900 },
});
const context = await launch();
const consoleErrors = [], offsite = [];
context.on("request", (r) => { if (!r.url().startsWith(BASE) && !/^(data|blob):/.test(r.url())) offsite.push(r.url()); });
const page = context.pages()[0] ?? (await context.newPage());
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("pageerror", (e) => consoleErrors.push(String(e)));

const demo = (expr) => page.evaluate(expr);
const count = (op) => demo(`(window.demo.timings[${JSON.stringify(op)}] ?? []).length`);
/** Wait until the page has drawn a newer result for `op` than the `before`-th and nothing is pending. */
async function nextResult(op, before) {
  await page.waitForFunction(([op, n]) => (window.demo.timings[op] ?? []).length > n && !window.demo.busy[op], [op, before], { timeout: 60000 });
}
async function settle(op) {
  await page.waitForFunction((op) => (window.demo.timings[op] ?? []).length > 0 && !window.demo.busy[op], op, { timeout: 60000 });
}
async function tab(view) {
  await page.click(`#tab-${view}`);
  if (["search", "mmr", "metrics", "sleep", "graph", "retention", "merge"].includes(view)) await settle(view);
}
/** Type a value into a setting's number box and finish the edit (input, then change). */
async function setBox(selector, value, op) {
  const n = await count(op);
  await page.fill(selector, String(value));
  await page.locator(selector).blur();
  await nextResult(op, n);
}
const overflow = () => demo("document.documentElement.scrollWidth - window.innerWidth");
const VIEWS = ["search", "mmr", "metrics", "sleep", "graph", "retention", "merge", "data", "about"];

try {
  await page.goto(BASE, { waitUntil: "load" });
  // a tab clicked while the page loads, before the worker handed the settings over: it threw "Cannot destructure
  // property 'search' of 's' as it is null" (lib/settings.js, diff via toHash), 3 of 3 tries
  const readyAtClick = await demo("window.demo?.ready === true");
  await page.click("#tab-mmr");
  await page.waitForFunction(() => window.demo?.ready, null, { timeout: 120000 });
  await check("a tab clicked before the page is ready: no error, and the page opens on that tab", async () => {
    assert.equal(readyAtClick, false, "the click came before the page was ready");
    assert.deepEqual(consoleErrors, []);
    await settle("mmr");
    assert.equal(await demo("window.demo.state.view"), "mmr");
    assert.match(await demo("location.hash"), /(^#|&)view=mmr(&|$)/);
  });
  await tab("search");

  // ---------------------------------------------------------------- 1. first visit, screenshots
  await check("first visit: the synthetic example, labelled as such", async () => {
    const s = await demo("window.demo.summary");
    assert.equal(s.source, "example");
    assert.ok(s.memories >= 1000 && s.labelled > 0, `${s.memories} memories, ${s.labelled} labelled queries`);
    assert.match(await page.locator("#dataset-badge").textContent(), /synthetic example/);
    assert.equal(await demo("window.demo.restored"), false);
  });

  await check("calibration: calibrate() in the worker on the synthetic example (its encoder the hook) is calibrate() in Node; apply", async () => {
    await tab("metrics");
    // the stored calibration first: the example was never calibrated
    await page.waitForFunction(() => document.querySelector("#cal-chose"), null, { timeout: 60000 });
    assert.equal(await page.locator("#cal-chose").getAttribute("data-vector"), "none");
    await page.click("#cal-run");
    await page.waitForFunction(() => window.demo.results.calibrate || document.querySelector("#cal-error"), null, { timeout: 120000 });
    assert.equal(await page.locator("#cal-error").count(), 0);
    const r = await demo("window.demo.results.calibrate");
    // Node: the example's memories and the same encoder as the cache's embed hook
    const { queryVector } = await import("../../web-demo/lib/arms.js");
    const corpus = JSON.parse(readFileSync(join(ROOT, "build/demo/corpus.json"), "utf8"));
    const buf = readFileSync(join(ROOT, "build/demo/vectors.f32"));
    const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    const { dim } = corpus, n = corpus.memories.length, T = corpus.topics.length;
    const enc = (t) => queryVector(t, corpus.topics, (i) => all.subarray((n + i) * dim, (n + i + 1) * dim),
      (i, j) => all.subarray((n + T + i * 4 + j) * dim, (n + T + i * 4 + j + 1) * dim), dim);
    const ex = await openMemoryCache({ embed: (texts) => texts.map((t) => enc(t) ?? new Float32Array(dim)) });
    try {
      await ex.importJsonl(readFileSync(join(ROOT, "build/demo/example-memories.jsonl"), "utf8"));
      assert.deepEqual(r, await ex.calibrate({ seed: 1 }));
    } finally { await ex.close(); }
    assert.equal(r.reason, "pseudo-queries");
    assert.ok(r.queries >= 50 && r.table.length > 1, `${r.queries} pseudo-queries`);
    assert.ok(r.plateau.includes(r.vector) || r.vector === PRESETS.default.weights.vector);
    assert.ok(r.vector <= PRESETS.default.weights.vector, "without labels at most the preset's weight");
    assert.equal(await page.locator("#cal-chose").getAttribute("data-vector"), String(r.vector));
    assert.equal(await page.locator("#cal-table tbody tr").count(), r.table.length);
    assert.equal(await page.locator("#cal-table tr.changed").getAttribute("data-weight"), String(r.vector));
    await page.locator("#calibration").screenshot({ path: join(OUT, "calibration-1440x900.png") });
    // apply: the vector weight becomes the calibrated one (from another value, so the click changes something)
    await setBox("#ctl-metrics-search-weights-vector", r.vector === 0.9 ? 0.8 : 0.9, "metrics");
    const before = await count("metrics");
    await page.click("#cal-apply");
    await nextResult("metrics", before);
    assert.equal((await demo("window.demo.state.settings")).search.weights.vector, r.vector);
    await page.click("#undo");
    await page.click("#undo");
    await settle("metrics");
    assert.equal((await demo("window.demo.state.settings")).search.weights.vector, PRESETS.default.weights.vector);
  });

  await check("arrow keys move between the tabs", async () => {
    await page.focus("#tab-search");
    await page.keyboard.press("ArrowRight");
    assert.equal(await demo("window.demo.state.view"), "mmr");
    assert.equal(await demo("document.activeElement.id"), "tab-mmr");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await demo("window.demo.state.view"), "about");
    await page.keyboard.press("Home");
    assert.equal(await demo("window.demo.state.view"), "search");
  });

  await check("every view at 1440x900 and 390x844: screenshots, nothing wider than the window", async () => {
    const wide = [];
    for (const [w, h] of [[1440, 900], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const v of VIEWS) {
        await tab(v);
        if (v === "graph") await page.waitForFunction(() => window.demo.layoutReady, null, { timeout: 90000 });
        await page.waitForTimeout(150);
        const o = await overflow();
        if (o > 0) wide.push(`${v} at ${w}px: ${o}px too wide`);
        await page.screenshot({ path: join(OUT, `${v}-${w}x${h}.png`) });
      }
      // the drill-down drawer over the search results
      await tab("search");
      const before = await demo("window.demo.results.drill ? 1 : 0");
      await page.click("#search-lists li");
      await page.waitForFunction((b) => window.demo.results.drill && (b === 0 || true) && !document.querySelector("#drill-body .note")?.textContent.startsWith("computing"), before, { timeout: 30000 });
      const o = await overflow();
      if (o > 0) wide.push(`drill-down at ${w}px: ${o}px too wide`);
      await page.screenshot({ path: join(OUT, `drilldown-${w}x${h}.png`) });
      await page.click("#drill-close");
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    assert.deepEqual(wide, []);
  });

  // A benchmark, not an assertion: a settings change -> the view redrawn, median of 9 changes, on the example.
  const bench = {};
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  for (const [view, selector, values] of [
    ["search", "#ctl-search-weights-vector", [0.2, 0.4, 0.6, 0.8, 1.2, 1.4, 1.6, 1.8, PRESETS.default.weights.vector]],
    ["retention", "#rw-recency", [0.05, 0.1, 0.15, 0.2, 0.3, 0.35, 0.4, 0.45, 0.25]],
    ["graph", "#ctl-graph-damping", [0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.99, 0.85]],
    ["metrics", "#ctl-metrics-search-weights-salience", [0, 0.5, 0.75, 1, 1.5, 2, 0.1, 0.3, PRESETS.default.weights.salience]],
  ]) {
    await tab(view);
    const t0 = await count(view);
    for (const v of values) await setBox(selector, v, view);
    const ts = await demo(`window.demo.timings[${JSON.stringify(view)}].slice(${t0})`);
    bench[view] = { median: Math.round(median(ts)), max: Math.round(Math.max(...ts)), n: ts.length };
  }
  console.log(`# settings change -> view redrawn (ms, the synthetic example, ${await demo("window.demo.summary.memories")} memories): ${JSON.stringify(bench)}`);
  await check("each change is one recomputation; the search defaults are memdomain/cache's PRESETS.default", async () => {
    for (const [op, b] of Object.entries(bench)) assert.equal(b.n, 9, op);
    const { limit, ...search } = (await demo("window.demo.state.settings")).search;
    assert.equal(limit, 10);
    const { k, ...preset } = PRESETS.default; // k is not a setting of fusion "score": the cache refuses it there
    assert.deepEqual(search, { preset: "default", ...JSON.parse(JSON.stringify(preset)) });
  });

  await check("merges: a vetoed pair is marked and names the tokens that decided it, as the core's predicates say", async () => {
    await tab("merge");
    const r = await demo("window.demo.results.merge");
    const vetoed = r.rows.filter((x) => x.stage === "vetoed");
    assert.ok(vetoed.length > 0, "the example has vetoed pairs");
    const ex = readFileSync(join(ROOT, "build/demo/example-memories.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const text = new Map(ex.filter((m) => m.path).map((m) => [m.path, { gist: m.gist, body: m.body }]));
    const reasonsSeen = new Set();
    for (const x of vetoed) {
      const [k, d] = [text.get(x.keepPath), text.get(x.dropPath)];
      const reasons = md.mergeVetoReasons(k, d);
      assert.deepEqual(x.tokens.map((t) => t.reason), reasons);
      for (const t of x.tokens) {
        reasonsSeen.add(t.reason);
        assert.ok(t.keep.length + t.drop.length > 0, `a deciding token for ${t.reason} (${x.keepPath} / ${x.dropPath})`);
        for (const [side, mem] of [["keep", k], ["drop", d]]) for (const w of t[side]) {
          assert.ok(md.mergeVetoReasons({ gist: w.token, body: "" }, { gist: "", body: "" }).includes(t.reason), `${w.token} alone fires ${t.reason}`);
          assert.ok((w.in === "gist" ? mem.gist : mem.body).toLowerCase().includes(w.token.split(".")[0]), `${w.token} is in the ${w.in}`);
        }
      }
    }
    for (const want of ["negation", "numeric", "variant"]) assert.ok(reasonsSeen.has(want), want);
    const marked = await page.$$eval("#merge-table tr.vetoed", (trs) => trs.map((t) => [t.querySelector(".stage").textContent, t.querySelectorAll("mark").length]));
    assert.ok(marked.length > 0 && marked.every(([s, n]) => s === "✕ vetoed" && n > 0), "vetoed rows are marked and show their tokens");
  });

  // ---------------------------------------------------------------- 2. import, baseline, a weight
  /** Import files on the Data tab and wait until the page has the outcome (accepted or refused). */
  async function importFiles(names) {
    await tab("data");
    const n = await demo("window.demo.imports ?? 0");
    await page.setInputFiles("#data-file", names.map((f) => (f.startsWith("/") ? f : join(FX_DIR, f))));
    await page.waitForFunction((n) => (window.demo.imports ?? 0) > n && !document.querySelector("#status.busy"), n, { timeout: 60000 });
  }
  const reportItems = () => page.$$eval("#data-report ul.errors li", (lis) => lis.map((li) => li.textContent));
  /** The message memdomain/cache gives for `call(cache)` on a fresh cache holding the fixture's memories (or none). */
  async function cacheError(call, { memories = true } = {}) {
    const c = await openMemoryCache();
    try {
      if (memories) await c.put(FX.memories);
      await call(c);
    } catch (e) {
      return e.message;
    } finally {
      await c.close();
    }
    throw new Error("the cache took it");
  }

  await check("import is all or nothing: a line importJsonl() refuses (an ISO date) refuses the files, in the cache's words", async () => {
    const before = await demo("window.demo.summary");
    await importFiles(["bad-memories.jsonl", "queries.jsonl"]);
    const expected = await cacheError((c) => c.importJsonl(FX.badMemoriesJsonl), { memories: false });
    assert.match(expected, new RegExp(`text line ${FX.BAD}\\.createdAt must be a Date or milliseconds since the epoch, got a string`));
    assert.deepEqual(await reportItems(), [expected.replace(`text line ${FX.BAD}`, `bad-memories.jsonl line ${FX.BAD}`)]);
    assert.match(await page.locator("#data-report b").textContent(), /Refused as a whole/);
    const after = await demo("window.demo.summary");
    assert.deepEqual([after.name, after.memories, after.now], [before.name, before.memories, before.now], "the dataset is unchanged");
  });

  await check("a dimension mismatch refuses the import as a whole: one message, the lines in order, the cache's words", async () => {
    await tab("search");
    await page.fill("#query-text", "typed words before the import");
    await page.waitForFunction(() => window.demo.state.query.text === "typed words before the import");
    const before = await demo("window.demo.summary");
    await importFiles(["no-edges.jsonl", "bad-queries.jsonl"]);
    const expected = await cacheError((c) => c.search({ text: "x", vector: FX.queries[0].vector.slice(0, 4) }));
    assert.match(expected, /^search: query\.vector has 4 elements, not the cache's dimension 8$/);
    assert.deepEqual(await reportItems(), [`bad-queries.jsonl lines 2–3, 5 (3 lines): ${expected}`]);
    const after = await demo("window.demo.summary");
    assert.deepEqual([after.name, after.memories, after.queries.length], [before.name, before.memories, before.queries.length], "the dataset is unchanged");
  });

  await check("data without edges: the graph is sleep()'s (its similarity edges, said so), memories with no edge counted; no stale typed query", async () => {
    await importFiles(["no-edges.jsonl", "queries.jsonl"]);
    const s = await demo("window.demo.summary");
    assert.equal(s.name, "test fixture");
    assert.equal(s.edges, 0);
    assert.deepEqual(await demo("window.demo.state.query"), { id: "k1" }, "a new dataset starts on its first query, not the old typed text");
    assert.equal(await page.locator("#query-select").inputValue(), "k1");
    const c = await openMemoryCache();
    await c.put(FX.memories);
    const r = await c.sleep({ now: FX.now });
    const live = new Set((await c.all()).filter((m) => m.supersededBy === null).map((m) => m.path));
    const linked = new Set((await c.edges()).filter((e) => e.origin === "sleep").flatMap((e) => [e.src, e.dst]));
    await c.close();
    const isolated = [...live].filter((p) => !linked.has(p)).length;
    assert.ok(r.edges.similar + r.edges.nearDuplicate > 0 && isolated > 0, "the fixture has derived edges and memories without any");
    await tab("graph");
    const note = page.locator("#graph-edges-summary");
    assert.equal(await note.getAttribute("data-links"), "0");
    assert.equal(Number(await note.getAttribute("data-derived")), r.edges.similar + r.edges.nearDuplicate);
    assert.equal(Number(await note.getAttribute("data-isolated")), isolated);
    assert.match(await note.textContent(), /the data has no edges, so these are all the graph has/);
    assert.match(await note.textContent(), new RegExp(`${isolated} memories have no edge: not drawn`));
    const g = await demo("window.demo.results.graph");
    assert.deepEqual([g.current.communities, g.current.largest, g.current.inCommunities], [r.communities.count, r.communities.largest, r.communities.members]);
    await page.check("#graph-isolated");
    assert.match(await note.textContent(), new RegExp(`${isolated} memories have no edge: drawn apart below the layout`));
    await page.uncheck("#graph-isolated");
  });

  await check("import: memdomain/cache's JSON Lines (memories, link edges) and the page's (meta, queries with labels)", async () => {
    await importFiles(["memories.jsonl", "queries.jsonl"]);
    const s = await demo("window.demo.summary");
    assert.equal(s.name, "test fixture");
    assert.equal(s.now, FX.now);
    assert.equal(s.memories, FX.memories.length);
    assert.equal(s.edges, FX.edges.length);
    assert.deepEqual(s.queries.map((q) => q.id), FX.queries.map((q) => q.id));
    assert.equal(s.labelled, 3);
    assert.match(await page.locator("#data-report b").textContent(), new RegExp(`Imported: ${FX.memories.length} memories and ${FX.edges.length} edges through importJsonl`));
  });

  // memdomain/cache's sleep() in Node on the same data and `now`: the reference for the sleep side
  const nodeSleep = await openMemoryCache();
  await nodeSleep.importJsonl(FX.memoriesJsonl);
  const sleepReport = await nodeSleep.sleep({ now: FX.now });
  const rows = async () => Object.fromEntries(await page.$$eval("#sleep-report tbody tr", (trs) => trs.map((tr) => [tr.dataset.key, Number(tr.querySelector("td.cur").textContent)])));
  const expectedRows = (r) => ({ decayed: r.confidence.decayed, similar: r.edges.similar, nearDuplicate: r.edges.nearDuplicate, links: r.edges.links,
    merged: r.merges.merged.length, ...r.bands, evicted: 0, communities: r.communities.count });

  await check("sleep: the preview, bands, edges, communities and merges of every view are cache.sleep()'s in Node", async () => {
    const r = sleepReport;
    assert.ok(r.merges.merged.length > 0 && r.confidence.decayed > 0 && r.edges.similar + r.edges.nearDuplicate > 0 && r.bands.evict > 0,
      "the fixture merges, decays, derives edges and has an evict band");
    await tab("sleep");
    const p = (await demo("window.demo.results.sleep")).current;
    assert.deepEqual(await rows(), expectedRows(r));
    assert.deepEqual(p.bands, r.bands);
    assert.deepEqual(p.edges, r.edges);
    assert.deepEqual(p.communities, r.communities);
    assert.deepEqual(p.merges.stages, r.merges.stages);
    assert.deepEqual(p.merges.pairs.map((x) => [x.keepPath, x.dropPath, x.similarity]), r.merges.merged.map((x) => [x.keepPath, x.dropPath, x.similarity]));
    assert.equal(p.agrees, true);
    assert.equal(await page.locator("#sleep-call").textContent(), `sleep({ now: ${FX.now} /* ${new Date(FX.now).toISOString().slice(0, 16).replace("T", " ")} UTC */, ` +
      "floor: 0.8, perSourceK: 5, cycleMs: 86400000, evict: false, confidence: { alpha: 0.1, floor: 0.2 }, merge: { threshold: 0.92, maxPairs: 100 } })");
    // Retention: sleep()'s bands, and each memory's score as the pass stores it
    await tab("retention");
    const counts = await page.$$eval("#ret-counts > div", (ds) => Object.fromEntries(ds.map((d) => [d.id.replace("count-", ""), Number(d.querySelector("b").textContent)])));
    assert.deepEqual(counts, r.bands);
    assert.match(await page.locator("#ret-whatif").textContent(), /these are sleep\(\)'s own bands/);
    const lowest = (await demo("window.demo.results.retention")).lowest;
    const stored = new Map((await nodeSleep.get(lowest.map((x) => x.path))).map((m) => [m.path, [m.retentionScore, m.band]]));
    assert.deepEqual(lowest.map((x) => [x.score, x.band]), lowest.map((x) => stored.get(x.path)));
    // Communities: the pass's graph
    await tab("graph");
    const g = await demo("window.demo.results.graph");
    assert.deepEqual([g.current.communities, g.current.largest, g.current.inCommunities], [r.communities.count, r.communities.largest, r.communities.members]);
    assert.equal(g.n, r.memories - r.merges.merged.length);
    // Merges: the pairs the pass hands to mergeOutcomes, with its stages
    await tab("merge");
    const m = await demo("window.demo.results.merge");
    assert.deepEqual(m.current, r.merges.stages);
    assert.deepEqual(m.rows.filter((x) => x.stage === "committed").map((x) => [x.keepPath, x.dropPath]), r.merges.merged.map((x) => [x.keepPath, x.dropPath]));
    const byStage = {};
    for (const x of m.rows) byStage[x.stage] = (byStage[x.stage] ?? 0) + 1;
    for (const [stage, n] of Object.entries(r.merges.stages)) assert.equal(byStage[stage] ?? 0, n, stage);
  });

  await check("sleep: apply runs the pass on the dataset once confirmed; the next preview is Node's second pass; undo restores", async () => {
    await tab("sleep");
    await page.click("#sleep-apply");
    assert.equal(await page.locator("#sleep-confirm").isVisible(), true, "apply asks first");
    assert.match(await page.locator("#sleep-confirm-text").textContent(), new RegExp(`${sleepReport.merges.merged.length} memories are merged away`));
    const n = await count("sleep");
    await page.click("#sleep-apply-confirm");
    await page.waitForFunction((k) => window.demo.summary.superseded === k, sleepReport.merges.merged.length, { timeout: 60000 });
    await nextResult("sleep", n);
    const applied = await demo("window.demo.results.applied");
    assert.deepEqual([applied.bands, applied.merges.stages, applied.confidence.decayed], [sleepReport.bands, sleepReport.merges.stages, sleepReport.confidence.decayed]);
    const copy = await openMemoryCache({ bytes: await nodeSleep.exportBytes() });
    const second = await copy.sleep({ now: FX.now });
    await copy.close();
    assert.equal(second.written.statements, 0, "a second pass at the same date writes nothing");
    assert.deepEqual(await rows(), expectedRows(second));
    assert.equal((await demo("window.demo.results.sleep")).current.merges.ran, false);
    assert.equal(await demo("window.demo.summary.memories"), FX.memories.length - sleepReport.merges.merged.length);
    const m = await count("sleep");
    await page.click("#sleep-undo");
    await page.waitForFunction(() => window.demo.summary.superseded === 0, null, { timeout: 60000 });
    await nextResult("sleep", m);
    assert.deepEqual(await rows(), expectedRows(sleepReport));
    assert.equal(await demo("window.demo.summary.memories"), FX.memories.length);
  });

  await check("sleep: a later \"as of\" date previews the pass at that date (more decay), as sleep() at that now in Node", async () => {
    const later = FX.now + 45 * 86400000;
    const copy = await openMemoryCache();
    await copy.importJsonl(FX.memoriesJsonl);
    const r = await copy.sleep({ now: later });
    await copy.close();
    assert.notDeepEqual(expectedRows(r), expectedRows(sleepReport), "the date changes the pass");
    // a change of date can draw more than once (the data and then the view): wait for the
    // preview computed at the new date, not merely for the next drawing
    const asOf = async (t) => {
      await page.fill("#sleep-now", new Date(t).toISOString().slice(0, 19));
      await page.locator("#sleep-now").dispatchEvent("change");
      await page.waitForFunction((t) => window.demo.summary.now === t && !window.demo.busy.sleep &&
        window.demo.results.sleep?.current?.options.now === t, t, { timeout: 60000 });
    };
    await asOf(later);
    assert.deepEqual(await rows(), expectedRows(r));
    await asOf(FX.now);
    assert.deepEqual(await rows(), expectedRows(sleepReport), "back at the first date, the first preview");
  });

  await check("sleep: with evict, the preview archives what sleep({ evict: true }) archives in Node; the bands are the pass's decision", async () => {
    const copy = await openMemoryCache();
    await copy.importJsonl(FX.memoriesJsonl);
    const r = await copy.sleep({ now: FX.now, evict: true });
    await copy.close();
    // archived: the evict band's lowest scores (policy.archiveBelow), old enough, not reprieved
    assert.ok(r.evicted > 0 && r.evicted === r.archived.length && r.archived.every((p) => r.evict.includes(p)),
      JSON.stringify({ evicted: r.evicted, band: r.evict.length, reprieved: r.reprieved.length }));
    const n = await count("sleep");
    await page.check("#ctl-sleep-evict");
    await nextResult("sleep", n);
    assert.equal((await demo("window.demo.state.settings")).sleep.evict, true);
    assert.deepEqual(await rows(), { ...expectedRows(r), evicted: r.evicted });
    assert.deepEqual(await demo("window.demo.summary.memories"), FX.memories.length, "a preview deletes nothing");
    const m = await count("sleep");
    await page.click("#undo");
    await nextResult("sleep", m);
    assert.equal((await demo("window.demo.state.settings")).sleep.evict, false);
  });

  await check("the query box: Ctrl+Z after editing a labelled query's text brings the labelled query back (vector and labels)", async () => {
    await tab("search");
    await page.selectOption("#query-select", "k1");
    await settle("search");
    await page.click("#query-text");
    await page.keyboard.press("End");
    await page.keyboard.type(" and more");
    await page.waitForFunction(() => window.demo.state.query.text === "kafka consumer lag and more");
    for (let i = 0; i < 12 && (await page.locator("#query-text").inputValue()) !== "kafka consumer lag"; i++) await page.keyboard.press("Control+z");
    await page.waitForFunction(() => window.demo.state.query.id === "k1", null, { timeout: 5000 });
    assert.equal(await page.locator("#query-select").inputValue(), "k1");
    await page.waitForFunction(() => window.demo.results.search?.query.id === "k1" && !window.demo.busy.search);
    const r = await demo("window.demo.results.search");
    assert.equal(r.query.id, "k1");
    assert.equal(r.query.hasVector, true);
    assert.ok(r.metrics, "the labels are back");
  });

  await page.selectOption("#query-select", "k1");
  await tab("search");
  await settle("search");
  let baseSettings;
  await check("pin a baseline, change a weight: the rank-change marks are those of the same search in Node", async () => {
    await page.click("#pin");
    baseSettings = await demo("window.demo.state.baseline");
    assert.deepEqual(baseSettings, await demo("window.demo.state.settings"));
    // salience 2: under the default composition this moves k1's nDCG (lexical 0 no longer does: all
    // 13 kafka memories are relevant and the vector arm alone returns 10 of them)
    await setBox("#ctl-search-weights-salience", 2, "search");
    const cur = await demo("window.demo.state.settings");
    assert.equal(cur.search.weights.salience, 2);
    const q = FX.queries[0];
    const [eb, ec] = [await nodeSearch(q, baseSettings.search), await nodeSearch(q, cur.search)];
    assert.notDeepEqual(ec.map((x) => x.path), eb.map((x) => x.path), "the weight changes the ranking");
    const dom = async (side) => page.$$eval(`#search-lists ol[data-side=${side}] li`, (lis) => lis.map((li) => ({
      path: li.dataset.path, fused: Number(li.dataset.score), move: li.querySelector(".move")?.dataset.move ?? null })));
    const [db, dc] = [await dom("baseline"), await dom("current")];
    assert.deepEqual(db.map((x) => [x.path, x.fused]), eb.map((x) => [x.path, x.fused]), "baseline list and scores");
    assert.deepEqual(dc.map((x) => [x.path, x.fused]), ec.map((x) => [x.path, x.fused]), "current list and scores");
    const baseRank = new Map(eb.map((x, i) => [x.path, i + 1]));
    assert.deepEqual(dc.map((x) => x.move), ec.map((x, i) => expectedMove(i + 1, baseRank.get(x.path))));
    const curSet = new Set(ec.map((x) => x.path));
    assert.deepEqual(db.map((x) => x.move === "out"), eb.map((x) => !curSet.has(x.path)), "baseline rows that left the list say so");
    assert.ok(dc.some((x) => /^(up|down)/.test(x.move)), "some result moved");
  });

  await check("nDCG, recall and MRR of the selected query and of every labelled query equal Node's", async () => {
    const r = await demo("window.demo.results.search");
    const cur = await demo("window.demo.state.settings");
    const q = FX.queries[0];
    const ec = (await nodeSearch(q, cur.search)).map((x) => x.path), eb = (await nodeSearch(q, baseSettings.search)).map((x) => x.path);
    const k = cur.search.limit;
    assert.ok(Math.abs(r.metrics.current.ndcg - ndcg(ec, q.relevant, k)) < 1e-12);
    assert.ok(Math.abs(r.metrics.baseline.ndcg - ndcg(eb, q.relevant, k)) < 1e-12);
    assert.notEqual(ndcg(ec, q.relevant, k), ndcg(eb, q.relevant, k), "the weight moves nDCG");
    assert.equal(await page.locator("[data-metric=ndcg] b").textContent(), ndcg(ec, q.relevant, k).toFixed(3));
    const first = ec.findIndex((p) => q.relevant.includes(p));
    assert.ok(Math.abs(r.metrics.current.mrr - (first < 0 ? 0 : 1 / (first + 1))) < 1e-12);
    await tab("metrics");
    const m = await demo("window.demo.results.metrics");
    const labelled = FX.queries.filter((x) => x.relevant);
    let sumC = 0, sumB = 0;
    for (const x of labelled) {
      sumC += ndcg((await nodeSearch(x, cur.search)).map((h) => h.path), x.relevant, k);
      sumB += ndcg((await nodeSearch(x, baseSettings.search)).map((h) => h.path), x.relevant, k);
    }
    assert.ok(Math.abs(m.current.mean.ndcg - sumC / labelled.length) < 1e-12);
    assert.ok(Math.abs(m.baseline.mean.ndcg - sumB / labelled.length) < 1e-12);
    assert.equal(await page.locator("#metrics-table tr.mean td[data-key=ndcg]").textContent(), (sumC / labelled.length).toFixed(3));
    assert.equal(m.current.rows.length, 3, "the unlabelled query is left out");
  });

  await check("the page's list is memdomain/cache's search() in Node: default (fusion score and rrf) and preset memhtml", async () => {
    await tab("search");
    const q = FX.queries[0];
    const lists = {};
    const pageList = () => page.$$eval("#search-lists ol[data-side=current] li", (lis) => lis.map((li) => [li.dataset.path, Number(li.dataset.score)]));
    const choose = async (selector, value) => {
      const n = await count("search");
      await page.selectOption(selector, value);
      await nextResult("search", n);
    };
    for (const [preset, fusion] of [["memhtml", null], ["default", null], ["default", "rrf"]]) {
      if (preset !== (await demo("window.demo.state.settings.search.preset"))) await choose("#ctl-search-preset", preset);
      if (fusion) await choose("#ctl-search-fusion", fusion);
      const s = (await demo("window.demo.state.settings")).search;
      const P = PRESETS[preset], name = `${preset}${fusion ? `/${fusion}` : ""}`;
      // the page holds exactly what search() takes for that composition, defaults from PRESETS
      assert.equal(s.preset, preset);
      assert.deepEqual(s.weights, { ...P.weights }, name);
      assert.equal(s.lambda, P.lambda, name);
      assert.equal("k" in s, preset === "memhtml" || fusion === "rrf", `${name}: k is held only where the cache takes it`);
      assert.equal("window" in s && "duplicate" in s && "fusion" in s, preset === "default", name);
      assert.equal(await page.locator("#ctl-search-k").isDisabled(), !("k" in s), `${name}: the k box`);
      if (!("k" in s)) assert.match(await page.locator('.ctl[data-path="search.k"] .note.off').first().textContent(), /applies to fusion "rrf" only/);
      const expected = await nodeSearch(q, s);
      lists[name] = await pageList();
      assert.deepEqual(lists[name], expected.map((x) => [x.path, x.fused]), `${name}: paths and scores`);
      assert.equal(lists[name].length, s.limit);
    }
    assert.notDeepEqual(lists.memhtml, lists.default, "the two compositions rank differently here");
    assert.notDeepEqual(lists["default/rrf"], lists.default, "the two fusions rank differently here");
    await choose("#ctl-search-fusion", "score");
    assert.equal("k" in (await demo("window.demo.state.settings")).search, false);
  });

  await check("calibration of imported data without an encoder: nothing measured, and the page says why in the cache's words", async () => {
    await tab("metrics");
    await demo("window.demo.results.calibrate = null");
    await page.click("#cal-run");
    await page.waitForFunction(() => window.demo.results.calibrate || document.querySelector("#cal-error"), null, { timeout: 60000 });
    const r = await demo("window.demo.results.calibrate");
    const node = await nodeCache.calibrate({ seed: 1 });
    assert.equal(r.vector, null);
    assert.equal(r.reason, node.reason);
    assert.match(r.reason, /no embed hook/);
    assert.equal(await page.locator("#cal-chose").getAttribute("data-vector"), "null");
    assert.match(await page.locator("#cal-chose").textContent(), /nothing measured/);
  });

  await check("fit to my labels: tune() in the worker with progress; the held-out scores are tune()'s in Node; apply", async () => {
    await tab("metrics");
    // a pinned baseline that is not the defaults: the fit must start from it and beat it
    await setBox("#ctl-metrics-search-weights-vector", 0.1, "metrics");
    await page.click("#pin");
    await page.click("#undo");
    const pinned = (await demo("window.demo.state.baseline")).search;
    assert.equal(pinned.weights.vector, 0.1);
    await page.click("#fit-run");
    await page.waitForFunction(() => window.demo.results.tune || document.querySelector("#fit-error"), null, { timeout: 120000 });
    assert.equal(await page.locator("#fit-error").count(), 0);
    const r = await demo("window.demo.results.tune");
    const progress = await demo("window.demo.fitProgress");
    for (const phase of ["read", "fit"]) {
      const ps = progress.filter((p) => p.phase === phase);
      assert.ok(ps.length > 0, `${phase} progress reached the page`);
      assert.equal(ps.at(-1).done, ps.at(-1).total, `${phase} progress ends complete`);
    }
    assert.ok(progress.findIndex((p) => p.phase === "fit") > progress.findLastIndex((p) => p.phase === "read"), "read, then fit");
    const labelled = FX.queries.filter((x) => x.relevant).map((x) => ({ text: x.query, vector: x.vector, relevant: x.relevant }));
    const { limit, ...baseline } = pinned; // the pinned baseline is what the fit must beat
    const node = await nodeCache.tune(labelled, { seed: 1, limit, baseline });
    assert.notEqual(node.heldOut.baseline, (await nodeCache.tune(labelled, { seed: 1, limit })).heldOut.baseline, "the baseline matters here");
    assert.deepEqual(r.heldOut, node.heldOut);
    assert.deepEqual(r.fitted, node.fitted);
    assert.equal(r.chose, node.chose);
    assert.equal(await page.locator("#fit-scores [data-metric=fitted] b").textContent(), node.heldOut.tuned.toFixed(3));
    assert.equal(await page.locator("#fit-scores [data-metric=baseline] b").textContent(), node.heldOut.baseline.toFixed(3));
    assert.equal(await page.locator("#fit-chose").getAttribute("data-chose"), node.chose);
    const n = await count("metrics");
    await page.click("#fit-apply");
    await nextResult("metrics", n);
    assert.deepEqual((await demo("window.demo.state.settings")).search, { ...node.fitted, limit });
    await page.click("#undo");
  });

  await check("drill-down: a relevant memory that was not returned says where it was lost, as explain() does in Node", async () => {
    await tab("search");
    await setBox("#ctl-search-limit", 3, "search");
    const q = FX.queries[0];
    const s = (await demo("window.demo.state.settings")).search;
    const why = await nodeCache.explain({ text: q.query, vector: q.vector, ...s }, q.relevant);
    // best fused first, then by path: the page's order
    const lost = why.paths.filter((p) => p.lostAt !== null)
      .sort((a, b) => (a.fused?.rank ?? Infinity) - (b.fused?.rank ?? Infinity) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    assert.ok(lost.length > 0 && lost[0].lostAt === "limit", "the fixture loses a relevant memory at the limit");
    assert.deepEqual(await page.$$eval("#search-lost li", (lis) => lis.map((li) => [li.dataset.path, li.dataset.lost])), lost.map((p) => [p.path, p.lostAt]));
    await page.click("#search-lost li");
    await page.waitForFunction((p) => window.demo.results.drill?.memory.path === p && document.querySelector("#drill-lost"), lost[0].path, { timeout: 30000 });
    const d = await demo("window.demo.results.drill");
    assert.deepEqual(d.current.explain, lost[0]);
    assert.equal(await page.locator("#drill-lost b").textContent(),
      `lost at the limit: fused rank ${lost[0].fused.rank}, window ${why.trace.window.length}, limit 3`);
    assert.ok(d.baseline, "the baseline side is there too");
    await page.click("#drill-close");
    await setBox("#ctl-search-limit", 10, "search");
  });

  await check("comparing: the views with a baseline at 1440x900 and 390x844 (screenshots), nothing wider than the window", async () => {
    const wide = [];
    for (const [w, h] of [[1440, 900], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const v of ["search", "mmr", "metrics", "retention"]) {
        await tab(v);
        await page.waitForTimeout(100);
        const o = await overflow();
        if (o > 0) wide.push(`${v} at ${w}px: ${o}px too wide`);
        await page.screenshot({ path: join(OUT, `compare-${v}-${w}x${h}.png`) });
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    assert.deepEqual(wide, []);
  });

  await check("guard rails: crossing thresholds are refused with a message; a bad half-life is marked and not used", async () => {
    await tab("retention");
    const before = await demo("JSON.stringify(window.demo.state.settings)");
    await page.fill("#ret-keep", "0.2");
    assert.match(await page.locator("#ret-keep ~ .msg").textContent(), /Refused: keep 0.2 would put evict \(0.3\) above keep \(0.2\)/);
    assert.equal(await page.locator("#ret-keep").getAttribute("aria-invalid"), "true");
    await page.fill("#hl-episodic", "-5");
    assert.match(await page.locator("#hl-episodic ~ .msg").textContent(), /must be a number of days > 0/);
    assert.equal(await demo("JSON.stringify(window.demo.state.settings)"), before, "nothing invalid was used");
    await page.fill("#ret-keep", "0.7");
    await page.fill("#hl-episodic", "10");
    // a weight that does not sum to 1 is shown as a number a person reads (0.95, not 0.9500000000000001)
    await page.selectOption("#ret-type", "episodic");
    await setBox("#rw-recency", 0.2, "retention");
    assert.equal(await page.locator("#ret-sum-value").textContent(), "0.95");
    assert.equal((await demo("window.demo.state.settings")).retention.policy.weights.episodic.recency, 0.2);
  });

  await check("undo and redo walk the settings back and forth", async () => {
    const s1 = await demo("JSON.stringify(window.demo.state.settings)");
    await page.click("#undo");
    assert.equal((await demo("window.demo.state.settings")).retention.policy.weights?.episodic?.recency ?? 0.25, 0.25);
    await page.click("#redo");
    assert.equal(await demo("JSON.stringify(window.demo.state.settings)"), s1);
  });

  // ---------------------------------------------------------------- 3. reload
  await check("reload: the same settings (URL) and the same memories (OPFS)", async () => {
    await tab("search");
    const url = page.url();
    const settings = await demo("window.demo.state.settings"), baseline = await demo("window.demo.state.baseline");
    const rows = (await demo("window.demo.results.search")).current.rows.map((x) => [x.path, x.fused]);
    assert.match(url, /#.*s=/);
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(() => window.demo?.ready, null, { timeout: 120000 });
    await settle("search");
    assert.equal(page.url(), url);
    assert.deepEqual(await demo("window.demo.state.settings"), settings);
    assert.deepEqual(await demo("window.demo.state.baseline"), baseline);
    assert.equal(await demo("window.demo.restored"), true, "the memories came from OPFS");
    const s = await demo("window.demo.summary");
    assert.equal(s.name, "test fixture");
    assert.equal(s.memories, FX.memories.length);
    assert.deepEqual((await demo("window.demo.results.search")).current.rows.map((x) => [x.path, x.fused]), rows);
  });

  // ---------------------------------------------------------------- 4. export and run the snippet
  const dir = mkdtempSync(join(tmpdir(), "memdomain-snippet-"));
  const downloadAll = async (into) => {
    await tab("data");
    for (const [btn, name] of [["#data-export-memories", "memories.jsonl"], ["#data-export-queries", "queries.jsonl"], ["#data-export-sqlite", "memories.sqlite"]]) {
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click(btn)]);
      assert.equal(dl.suggestedFilename(), name);
      await dl.saveAs(join(into, name));
    }
  };
  let exportedSettings = null;
  await check("export: the settings JSON imports back, and the snippet runs in Node with the page's scores", async () => {
    await downloadAll(dir);
    exportedSettings = await demo("window.demo.state.settings");
    await tab("search");
    await page.click("#export-btn");
    const backdrop = await demo("getComputedStyle(document.querySelector('#export-dialog'), '::backdrop').backgroundColor");
    const alpha = Number(/rgba\([^)]*,\s*([\d.]+)\)/.exec(backdrop)?.[1] ?? 1);
    assert.ok(alpha >= 0.3, `the dialog's backdrop dims the page (${backdrop})`);
    const json = JSON.parse(await page.locator("#export-json").inputValue());
    const code = await page.locator("#export-snippet").inputValue();
    assert.equal(await demo("document.querySelector('#export-json').scrollTop"), 0, "the export box opens at its top");
    assert.deepEqual(json.settings, await demo("window.demo.state.settings"));
    assert.deepEqual(json.sleep, { now: FX.now, ...json.settings.sleep }, "sleep()'s options as they are");
    assert.equal(json.retentionPolicy.weights.episodic.recency, 0.2);
    writeFileSync(join(dir, "tuned.mjs"), code);
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(ROOT, "js"), join(dir, "node_modules", "memdomain"));
    const out = execFileSync(process.execPath, [join(dir, "tuned.mjs")], { encoding: "utf8", cwd: dir }).trim().split("\n").map((l) => JSON.parse(l));
    const page1 = (await demo("window.demo.results.search")).current.rows.map((x) => [x.path, x.fused]);
    assert.deepEqual(out.find((x) => x.query === "k1").hits, page1, "the selected query's results and scores");
    const retention = new Map(out.find((x) => x.retention).retention.map(([p, s, b]) => [p, [s, b]]));
    await page.click("#export-close");
    await tab("retention");
    const counts = await page.$$eval("#ret-counts > div", (ds) => Object.fromEntries(ds.map((d) => [d.id.replace("count-", ""), Number(d.querySelector("b").textContent)])));
    const mine = { keep: 0, compress: 0, evict: 0 };
    for (const [, b] of retention.values()) mine[b]++;
    assert.deepEqual(mine, counts, "band counts");
    // sleep({ policy }): the snippet's pass bands as the page's Retention view shows them, under the tuned policy
    assert.deepEqual(out.find((x) => x.sleep).sleep.bands, counts, "the snippet's sleep() is the page's pass");
    assert.notDeepEqual(counts, sleepReport.bands, "the tuned policy moves the bands");
    assert.match(await page.locator("#ret-whatif").textContent(), /these are sleep\(\)'s own bands/, "the tuned policy is the pass's own");
    await page.click("#ret-lowest li");
    await page.waitForFunction(() => window.demo.results.drill, null, { timeout: 30000 });
    const d = await demo("window.demo.results.drill");
    assert.equal(d.current.retention.score, retention.get(d.memory.path)[0], "a memory's score in the drill-down");
    await page.click("#drill-close");
    // the exported JSON imports back, and what the cache refuses is named in its words
    await page.click("#export-btn");
    await page.fill("#import-settings-text", JSON.stringify({ ...json, settings: { ...json.settings,
      search: { ...json.settings.search, preset: "default", fusion: "rrf", k: 30, rescale: true } } }));
    await page.click("#import-settings-apply");
    await page.waitForFunction(() => window.demo.state.settings.search.k === 30);
    const rescale = await cacheError((c) => c.search({ rescale: true }));
    assert.match(rescale, /^search: query\.rescale is not a known option/);
    assert.ok((await page.locator("#import-msg").textContent()).includes(rescale), "a setting the cache refuses is named, in its words");
    assert.equal((await demo("window.demo.state.settings")).retention.policy.weights.episodic.recency, 0.2);
    await page.click("#export-close");
  });

  await check("round trips: memories.jsonl is exportJsonl()'s; page export -> import -> export is the same bytes, settings and meta included", async () => {
    const text = readFileSync(join(dir, "memories.jsonl"), "utf8");
    const c = await openMemoryCache();
    await c.importJsonl(text);
    assert.equal(await c.exportJsonl(), text, "importJsonl of the page's memories.jsonl, then exportJsonl: the same bytes");
    await c.close();
    const meta = JSON.parse(readFileSync(join(dir, "queries.jsonl"), "utf8").split("\n")[0]).meta;
    assert.equal(meta.name, "test fixture");
    assert.equal(meta.now, FX.now);
    const settings = exportedSettings;
    assert.deepEqual(meta.settings, settings, "the settings travel with the file");
    // the page holds other settings now (pasted after the export); the files bring theirs back
    assert.notDeepEqual(await demo("window.demo.state.settings"), settings);
    await importFiles([join(dir, "memories.jsonl"), join(dir, "queries.jsonl")]);
    assert.deepEqual(await reportItems(), []);
    assert.deepEqual(await demo("window.demo.state.settings"), settings);
    const again = mkdtempSync(join(tmpdir(), "memdomain-again-"));
    await downloadAll(again);
    for (const f of ["memories.jsonl", "queries.jsonl"]) assert.equal(readFileSync(join(again, f), "utf8"), readFileSync(join(dir, f), "utf8"), f);
    rmSync(again, { recursive: true, force: true });
  });

  await check("round trip: the exported SQLite file alone brings back the memories, the name, the \"as of\" date, the queries and the settings", async () => {
    await tab("search");
    const rowsBefore = (await demo("window.demo.results.search")).current.rows.map((x) => [x.path, x.fused]);
    const before = await demo("window.demo.summary"), settings = await demo("window.demo.state.settings");
    await page.click("#undo"); // other settings before the import: the file's must come back
    await importFiles([join(dir, "memories.sqlite")]);
    assert.deepEqual(await reportItems(), []);
    const s = await demo("window.demo.summary");
    assert.deepEqual([s.name, s.now, s.memories, s.labelled, s.queries], [before.name, before.now, before.memories, before.labelled, before.queries]);
    assert.equal(s.now, FX.now);
    assert.deepEqual(await demo("window.demo.state.settings"), settings);
    await tab("search");
    assert.deepEqual((await demo("window.demo.results.search")).current.rows.map((x) => [x.path, x.fused]), rowsBefore, "the same results from the SQLite file");
  });
  rmSync(dir, { recursive: true, force: true });
  await nodeSleep.close();

  await check("settings from the URL and pasted: every value the API refuses is shown in its words, every other one used", async () => {
    const bad = {
      search: { weights: { lexcial: 2, vector: -1, salience: 2 }, depth: 0, k: 30, rescale: true },
      sleep: { floor: 3, perSourceK: 3, merge: { maxPairs: -1 }, nowish: 1 },
      graph: { damping: "x", maxIterations: 50 },
      retention: { policy: { keepThreshold: "x" } },
      merge: { floor: 0.9 }, bogus: 1,
    };
    const c = await openMemoryCache();
    const msg = async (f) => { try { await f(); } catch (e) { return e.message; } throw new Error("accepted"); };
    const expected = [
      await msg(() => c.search({ weights: { lexcial: 2 } })), await msg(() => c.search({ weights: { vector: -1 } })),
      await msg(() => c.search({ depth: 0 })), await msg(() => c.search({ k: 30 })), await msg(() => c.search({ rescale: true })),
      await msg(() => c.sleep({ now: FX.now, floor: 3 })), await msg(() => c.sleep({ now: FX.now, merge: { maxPairs: -1 } })),
      await msg(() => c.sleep({ now: FX.now, nowish: 1 })),
      await msg(() => { const g = new md.Graph(["a", "b"], [{ src: "a", dst: "b", strength: 1 }]); try { g.pagerankScores({ damping: "x" }); } finally { g.free(); } }),
      await msg(() => md.scoreRetentionMany({ memoryType: ["semantic"], ageDays: [1], accessCount: [0], confidence: [1], graphRank: [0], maxGraphRank: [0],
        bridgeCount: [0], reinforcementCount: [0], wordCount: [1], contradictionCount: [0] }, { policy: { keepThreshold: "x" } })),
      "merge is no longer a settings section", "bogus is not a settings section",
    ];
    await c.close();
    const shown = (items) => expected.map((e) => items.filter((x) => x.includes(e)).length);
    await page.goto(`${BASE}#view=search&s=${encodeURIComponent(JSON.stringify(bad))}`);
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(() => window.demo?.ready, null, { timeout: 120000 });
    const items = await page.$$eval("#problems li", (lis) => lis.map((li) => li.textContent));
    assert.equal(items.length, expected.length, items.join("\n"));
    assert.deepEqual(shown(items), expected.map(() => 1), "each refused value once, in the API's words");
    const s = await demo("window.demo.state.settings");
    assert.deepEqual([s.search.weights.salience, s.sleep.perSourceK, s.graph.maxIterations], [2, 3, 50], "the values the API takes are used");
    assert.deepEqual([s.search.depth, s.sleep.floor, s.sleep.merge.maxPairs, s.graph.damping, s.retention.policy], [PRESETS.default.depth, 0.8, 100, 0.85, {}]);
    // the same settings pasted into the export dialog
    await page.click("#export-btn");
    await page.fill("#import-settings-text", JSON.stringify(bad));
    await page.click("#import-settings-apply");
    await page.waitForFunction(() => document.querySelector("#import-msg").textContent !== "");
    const msgText = await page.locator("#import-msg").textContent();
    assert.deepEqual(expected.map((e) => msgText.split(e).length - 1), expected.map(() => 1), msgText);
    await page.click("#export-close");
  });

  await check("every control has a label; no console errors, no off-site requests", async () => {
    const unlabeled = await page.$$eval("input, select, textarea, button", (els) => els.filter((e) => {
      if (e.tagName === "BUTTON") return !e.textContent.trim() && !e.getAttribute("aria-label");
      return !(e.labels && e.labels.length) && !e.getAttribute("aria-label");
    }).map((e) => e.id || e.outerHTML.slice(0, 60)));
    assert.deepEqual(unlabeled, []);
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(offsite, []);
    assert.deepEqual(await demo("window.demo.errors"), []);
  });
} catch (e) {
  failures++;
  console.log(`not ok - the test harness: ${e.stack}`);
  await page.screenshot({ path: join(OUT, "failure.png") }).catch(() => {});
} finally {
  await context.close();
  server.kill("SIGTERM");
  await nodeCache.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(FX_DIR, { recursive: true, force: true });
}
console.log(`# demo: ${passed} passed, ${failures} failed in ${((Date.now() - T0) / 1000).toFixed(0)} s; screenshots in ${OUT}`);
process.exit(failures ? 1 : 0);
