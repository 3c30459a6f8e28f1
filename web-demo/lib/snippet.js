// The exported code: a Node ES module that runs as printed next to the Data tab's exports
// (memories.jsonl: memdomain/cache's exportJsonl(); queries.jsonl: the page's queries) and gives
// the page's numbers with the tuned values: memdomain/cache search() per query with the page's
// search settings exactly as the page holds them (they are search()'s options); sleep() with the
// page's sleep options at the dataset's "as of" date; and scoreRetentionMany under the policy on
// the pass's result, as the Retention tab scores it.

const j = (x) => JSON.stringify(x, null, 2);

export function snippet(settings, summary) {
  const lines = [
    `// memdomain settings tuned in the workbench on "${summary.name}" (${summary.memories} memories).`,
    "// Runs as printed with Node 20, 22 or 24, next to memories.jsonl and queries.jsonl from the workbench's Data tab:",
    "//   npm install ./memdomain-0.1.0.tgz @sqlite.org/sqlite-wasm@3.54.1-build1 && node tuned.mjs   (the tarball make pack writes, copied here)",
    'import { readFileSync } from "node:fs";',
    'import { Graph, scoreRetentionMany } from "memdomain";',
    'import { openMemoryCache } from "memdomain/cache";',
    "",
    "// memdomain/cache search() options (preset, fusion, weights, k, depth, lambda, seeds, window, duplicate, limit)",
    `export const search = ${j(settings.search)};`,
    "// memdomain/cache sleep() options; `now` is the dataset's \"as of\" date",
    `export const sleep = ${j({ now: summary.now, ...settings.sleep })};`,
    "// the retention policy: sleep({ policy }) scores and bands with it (and stores it); scoreRetention's second argument too",
    `export const policy = ${j(settings.retention.policy)};`,
    "// PageRank and label propagation on the pass's graph (the retention signals pagerank and bridgeImportance); sleep() uses the defaults",
    `export const graph = ${j(settings.graph)};`,
    "",
    'const text = (file) => readFileSync(new URL(file, import.meta.url), "utf8");',
    "// SQLite (sqlite-wasm) in memory; searchAccess false: the queries below are a replay, not an agent's use of its memories",
    "const cache = await openMemoryCache({ searchAccess: false });",
    'await cache.importJsonl(text("memories.jsonl"));',
    "",
    'for (const q of text("queries.jsonl").split("\\n").filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((r) => "query" in r)) {',
    "  const hits = await cache.search({ text: q.query, vector: q.vector ?? null, ...search });",
    "  console.log(JSON.stringify({ query: q.id, hits: hits.map((h) => [h.path, h.score]) }));",
    "}",
    "",
    "// the sleep pass (evict: false here, so every memory keeps a score to print)",
    "const report = await cache.sleep({ ...sleep, evict: false, policy });",
    "console.log(JSON.stringify({ sleep: { bands: report.bands, merged: report.merges.merged.length, decayed: report.confidence.decayed, edges: report.edges } }));",
    "",
    "// retention under the tuned policy, on what the pass left: its decayed confidence, its graph (links + similarity edges)",
    "const memories = (await cache.all()).filter((m) => m.supersededBy === null && m.archivedAt === null);",
    "const live = new Set(memories.map((m) => m.path));",
    'const edges = (await cache.edges()).filter((e) => (e.origin === "link" || e.origin === "sleep") && live.has(e.src) && live.has(e.dst));',
    "const g = new Graph(memories.map((m) => m.path), edges);",
    "const pr = g.pagerankScores({ damping: graph.damping, maxIterations: graph.maxIterations });",
    "const bridges = g.bridgeCounts(g.labelPropagation({ minCommunitySize: graph.minCommunitySize }));",
    "const rank = new Map(g.nodes.map((p, i) => [p, pr[i]]));",
    "const maxRank = pr.reduce((a, b) => Math.max(a, b), 0);",
    "const col = (f) => memories.map(f);",
    "const scored = scoreRetentionMany({",
    "  memoryType: col((m) => m.type), ageDays: col((m) => (sleep.now - m.createdAt) / 86400000),",
    "  accessCount: col((m) => m.accessCount + m.hitCount), confidence: col((m) => m.confidence),",
    "  graphRank: col((m) => rank.get(m.path)), maxGraphRank: col(() => maxRank), bridgeCount: col((m) => bridges.get(m.path) ?? 0),",
    "  reinforcementCount: col((m) => m.reinforcementCount), wordCount: col((m) => m.body.split(/\\s+/).filter(Boolean).length),",
    "  contradictionCount: col((m) => m.contradictionCount),",
    "}, { policy });",
    'const bands = ["keep", "compress", "evict"];',
    "console.log(JSON.stringify({ retention: memories.map((m, i) => [m.path, scored.score[i], bands[scored.action[i]]]) }));",
    "g.free();",
    "await cache.close();",
    "",
  ];
  return lines.join("\n");
}
