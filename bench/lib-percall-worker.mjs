// Worker for bench/boundary.mjs's per-call rows (rrfContribution, decayConfidenceN): one side per
// worker, so each side's JIT state (inlining, type feedback of the shared effect/Option functions) is
// its own, as in an application that uses only one of them. In one process the side that ran first
// kept its optimized code and the other inherited polluted feedback, and the order decided the ratio.
// The loop is the same source on both sides with the function as a constant.
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import * as Option from "effect/Option";

const { side, name, wasm } = workerData;
let api;
if (side === "md") {
  api = await import("../js/index.js");
  api.initSync(readFileSync(new URL(`../${wasm}`, import.meta.url)));
} else {
  api = await import("./baseline-scalars.js");
}
const f = api[name];
const ranks = Array.from({ length: 64 }, (_, i) => i - 3), weights = [1, 0.5, 0, -1, NaN];
const confs = [0.9, 0.5, 0.21, 1, 0.35], cycles = [3, 1, 10, 0, 30];
const loops = {
  rrfContribution(calls) {
    let s = 0, i = 0;
    for (let n = 0; n < calls; n++) if (Option.isSome(f(ranks[i++ & 63], weights[i % 5]))) s++;
    return s;
  },
  decayConfidenceN(calls) {
    let s = 0, j = 0;
    for (let n = 0; n < calls; n++) s += f(confs[j % 5], cycles[j++ % 5]);
    return s;
  },
};
const loop = loops[name];
parentPort.on("message", (calls) => {
  const t = performance.now();
  const s = loop(calls);
  parentPort.postMessage({ ms: (performance.now() - t) / calls, s });
});
parentPort.postMessage("ready");
