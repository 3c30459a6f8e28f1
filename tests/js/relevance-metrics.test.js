// The relevance harness's metrics (tests/oracles/relevance-metrics.mjs) on examples computed by hand, so
// the instrument that judges the cache's ranking is itself checked.
import { evaluate, median, ndcgAt, rankOf, recallAt, reciprocalRank, score, topPaths } from "../oracles/relevance-metrics.mjs";

describe("known-item metrics", () => {
  const list = ["a", "b", "c", "d"];

  test("rank and reciprocal rank within the cutoff", () => {
    expect(rankOf(list, "a")).toBe(1);
    expect(rankOf(list, "c")).toBe(3);
    expect(reciprocalRank(list, "c")).toBeCloseTo(1 / 3, 15);
    expect(reciprocalRank(list, "z")).toBe(0);
    // 11th place is outside MRR@10
    const eleven = Array.from({ length: 11 }, (_, i) => `p${i}`);
    expect(rankOf(eleven, "p9")).toBe(10);
    expect(rankOf(eleven, "p10")).toBe(0);
    expect(reciprocalRank(eleven, "p10", 11)).toBeCloseTo(1 / 11, 15);
  });

  test("a repeated path counts once, at its first position; hits may be objects", () => {
    expect(topPaths(["a", "a", "b"], 10)).toEqual(["a", "b"]);
    expect(rankOf(["a", "a", "b"], "b")).toBe(2);
    expect(rankOf([{ path: "x" }, { id: "y" }], "y")).toBe(2);
  });

  test("recall@1 and recall@10 of the target", () => {
    expect(recallAt(list, "a", 1)).toBe(1);
    expect(recallAt(list, "b", 1)).toBe(0);
    expect(recallAt(list, "b", 10)).toBe(1);
    expect(recallAt(list, "z", 10)).toBe(0);
  });
});

describe("nDCG@10 with grades", () => {
  test("gain 2^g - 1, log2 discount, ideal from all labels", () => {
    // results x (grade 1) at 1, t (grade 2) at 2, z unlabelled at 3:
    // DCG = 1/log2(2) + 3/log2(3) = 2.8927892607143724
    // ideal t, x, y (labels listed out of order): 3/log2(2) + 1/log2(3) + 1/log2(4) = 4.130929753571458
    expect(ndcgAt(["x", "t", "z"], { x: 1, t: 2, y: 1 })).toBeCloseTo(0.7002755876478819, 12);
    // the ideal counts labels that were not retrieved: DCG 3, ideal 3 + 1/log2(3)
    expect(ndcgAt(["t"], new Map([["t", 2], ["u", 1]]))).toBeCloseTo(0.8262346571285599, 12);
    // the target alone at position 3: (3 / log2(4)) / 3
    expect(ndcgAt(["p", "q", "t"], { t: 2 })).toBeCloseTo(0.5, 15);
    expect(ndcgAt(["t", "x", "y"], { t: 2, x: 1, y: 1 })).toBeCloseTo(1, 15);
    expect(ndcgAt(["a"], {})).toBe(0);
    expect(ndcgAt(["a"], { a: 0 })).toBe(0);
    // a repeat does not earn the gain twice
    expect(ndcgAt(["t", "t"], { t: 2, x: 1 })).toBeCloseTo(3 / (3 + 1 / Math.log2(3)), 12);
  });

  test("only the first 10 results count", () => {
    const eleven = Array.from({ length: 10 }, (_, i) => `p${i}`).concat(["t"]);
    expect(ndcgAt(eleven, { t: 2 })).toBe(0);
  });
});

describe("aggregates", () => {
  const queries = [
    { target: "a", relevant: { a: 2 } },
    { target: "b", relevant: { b: 2, c: 1 } },
    { target: "z", relevant: { z: 2 } },
  ];
  const lists = [["a", "x"], ["c", "b"], ["x", "y"]];

  test("score: means over the queries", () => {
    const s = score(lists, queries);
    // ranks 1, 2, absent
    expect(s.mrr10).toBeCloseTo((1 + 0.5 + 0) / 3, 15);
    expect(s.r1).toBeCloseTo(1 / 3, 15);
    expect(s.r10).toBeCloseTo(2 / 3, 15);
    // query 2: DCG 1 + 3/log2(3), ideal 3 + 1/log2(3)
    const q2 = (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3));
    expect(s.ndcg10).toBeCloseTo((1 + q2 + 0) / 3, 12);
    expect(s.perQuery.map((p) => p.rank)).toEqual([1, 2, 0]);
    expect(() => score(lists.slice(1), queries)).toThrow(RangeError);
  });

  test("evaluate runs an async search per query and scores its hits", async () => {
    const seen = [];
    const r = await evaluate(async (q) => { seen.push(q.target); return lists[queries.indexOf(q)].map((path) => ({ path })); }, queries);
    expect(seen).toEqual(["a", "b", "z"]);
    expect(r.mrr10).toBeCloseTo(0.5, 15);
    expect(r.lists).toEqual(lists);
    expect(r.perQuery.every((p) => p.ms >= 0)).toBe(true);
  });

  test("median", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});
