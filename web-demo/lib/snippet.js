// The exported code: a Node ES module that runs as printed next to the Data tab's
// exports (memories.jsonl, queries.jsonl) and gives the page's scores with the tuned
// values: memdomain/cache search() per query with the page's search settings exactly as
// the page holds them (they are search()'s options), and scoreRetentionMany under the
// policy with PageRank and bridges from the memory graph.

const j = (x) => JSON.stringify(x, null, 2).replace(/\n/g, "\n");

export function snippet(settings, summary) {
  const search = settings.search;
  const graph = settings.graph;
  const lines = [
    `// memdomain settings tuned in the workbench on "${summary.name}" (${summary.memories} memories).`,
    "// Runs as printed with Node 20, 22 or 24, next to memories.jsonl and queries.jsonl from the workbench's Data tab:",
    "//   npm install memdomain @sqlite.org/sqlite-wasm@3.54.1-build1 && node tuned.mjs",
    'import { readFileSync } from "node:fs";',
    'import { Graph, scoreRetentionMany } from "memdomain";',
    'import { openMemoryCache } from "memdomain/cache";',
    "",
    "// memdomain/cache search() options (preset, fusion, weights, k, depth, lambda, seeds, window, duplicate, limit)",
    `export const search = ${j(search)};`,
    "// the second argument of scoreRetention (options.policy of scoreRetentionMany)",
    `export const policy = ${j(settings.retention.policy)};`,
    "// PageRank and label propagation on the memory graph (the retention signals pagerank and bridgeImportance)",
    `export const graph = ${j(graph)};`,
    `const now = ${summary.now}; // ${new Date(summary.now).toISOString()}: ages are counted to this time`,
    "",
    'const read = (file) => readFileSync(new URL(file, import.meta.url), "utf8").split("\\n").filter((l) => l.trim()).map((l) => JSON.parse(l));',
    'const records = read("memories.jsonl");',
    'const memories = records.filter((r) => "path" in r), edges = records.filter((r) => "src" in r);',
    "const cache = await openMemoryCache(); // SQLite (sqlite-wasm) in memory",
    "await cache.put(memories);",
    "await cache.link(edges);",
    "",
    'for (const q of read("queries.jsonl")) {',
    "  const hits = await cache.search({ text: q.query, vector: q.vector, ...search });",
    "  console.log(JSON.stringify({ query: q.id, hits: hits.map((h) => [h.path, h.score]) }));",
    "}",
    "",
    "// retention under the tuned policy",
    "const g = new Graph(memories.map((m) => m.path), edges);",
    "const pr = g.pagerankScores({ damping: graph.damping, maxIterations: graph.maxIterations });",
    "const communities = g.labelPropagation({ minCommunitySize: graph.minCommunitySize });",
    "const bridges = g.bridgeCounts(communities);",
    "const rank = new Map(g.nodes.map((p, i) => [p, pr[i]]));",
    "const maxRank = pr.reduce((a, b) => Math.max(a, b), 0);",
    "const col = (f) => memories.map(f);",
    "const scored = scoreRetentionMany({",
    "  memoryType: col((m) => m.type), ageDays: col((m) => (now - m.createdAt) / 86400000),",
    "  accessCount: col((m) => m.accessCount ?? 0), confidence: col((m) => m.confidence ?? 1),",
    "  graphRank: col((m) => rank.get(m.path)), maxGraphRank: col(() => maxRank), bridgeCount: col((m) => bridges.get(m.path) ?? 0),",
    "  reinforcementCount: col((m) => m.reinforcementCount ?? 0), wordCount: col((m) => m.body.split(/\\s+/).filter(Boolean).length),",
    "  contradictionCount: col((m) => m.contradictionCount ?? 0),",
    "}, { policy });",
    'const bands = ["keep", "compress", "evict"];',
    "console.log(JSON.stringify({ retention: memories.map((m, i) => [m.path, scored.score[i], bands[scored.action[i]]]) }));",
    "g.free();",
    "await cache.close();",
    "",
  ];
  return lines.join("\n");
}
