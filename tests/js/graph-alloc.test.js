// Allocation failure in the graph module: on the build capped at 64 MiB, a
// graph whose adjacency does not fit is a RangeError naming the function, the
// instance stays usable, and nothing leaks.
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";

const ex = md.initSync(readFileSync(`${ROOT}build/memdomain.small.wasm`));

test("a graph too large for working memory is a RangeError, and the next call answers", () => {
  const n = 100000, m = 1500000;
  const nodes = Array.from({ length: n }, (_, i) => `n${i}`);
  const edges = new Array(m);
  for (let i = 0; i < m; i++) edges[i] = { src: nodes[i % n], dst: nodes[(i * 7919 + (i >> 12)) % n], strength: 0.5 };
  for (const f of [() => md.pagerank(nodes, edges), () => md.labelPropagation(nodes, edges),
    () => md.bridgeCounts(nodes, edges, new Map()), () => new md.Graph(nodes, edges)]) {
    let err;
    try { f(); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toMatch(/^(pagerank|labelPropagation|bridgeCounts|Graph): (out of memory|input)/);
  }
  const small = md.pagerank(["a", "b"], [{ src: "a", dst: "b", strength: 1 }]);
  expect([...small.keys()]).toEqual(["a", "b"]);
  const p = ex.md_alloc(40 * 1024 * 1024);
  expect(p).not.toBe(0);
  ex.md_free(p);
});
