// scoreRetentionMany on a module whose memory cannot grow past 64 MiB: a batch
// too large for memory is a RangeError naming the function, and the instance
// stays usable (the frame was freed).
import { readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import { ROOT } from "./golden/runner.js";

const ex = md.initSync(readFileSync(`${ROOT}build/memdomain.small.wasm`));

function columns(n) {
  const cols = { memoryType: new Array(n).fill("episodic") };
  for (const f of ["ageDays", "accessCount", "confidence", "graphRank", "maxGraphRank", "bridgeCount",
    "reinforcementCount", "wordCount", "contradictionCount"]) cols[f] = new Float64Array(n).fill(1);
  return cols;
}

test("a batch too large for memory is a RangeError, and the next batch answers", () => {
  const big = columns(1_000_000); // 82 MB of inputs and outputs
  expect(() => md.scoreRetentionMany(big)).toThrow(RangeError);
  expect(() => md.scoreRetentionMany(big, { signals: true })).toThrow(/^scoreRetentionMany: input/);
  const small = md.scoreRetentionMany(columns(1000), { signals: true });
  expect(small.score.length).toBe(1000);
  const one = md.scoreRetention({ memoryType: "episodic", ageDays: 1, accessCount: 1, confidence: 1, graphRank: 1,
    maxGraphRank: 1, bridgeCount: 1, reinforcementCount: 1, wordCount: 1, contradictionCount: 1 });
  expect(small.score[999]).toBe(one.score);
  expect(small.signals.recency[0]).toBe(one.signals.recency);
  // the failed frames were released: a 40 MB block can be had again
  const p = ex.md_alloc(40 * 1024 * 1024);
  expect(p).not.toBe(0);
  ex.md_free(p);
});
