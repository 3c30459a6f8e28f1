// Worker for bench/boundary.mjs's per-call rows (rrfContribution, decayConfidenceN): one side per
// worker, so each side's JIT state (inlining, type feedback of the shared effect/Option functions) is
// its own, as in an application that uses only one of them. In one process the side that ran first
// kept its optimized code and the other inherited polluted feedback, and the order decided the ratio.
// The loop is the same source on both sides with the function as a constant.
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import * as Option from "effect/Option";

// The inputs come from bench/boundary.mjs, which checks both sides agree on them.
// side "md" and "ref" (bench/boundary.mjs --ref): a glue (`glue`, a file URL) with its wasm (`wasm`, a file URL)
const { side, name, glue, wasm, inputs } = workerData;
let api;
if (side === "md" || side === "ref") {
  api = await import(glue);
  api.initSync(readFileSync(new URL(wasm)));
} else {
  api = await import("../tests/oracles/baseline-scalars.js");
}
const f = api[name];
const { ranks, weights, confs, cycles } = inputs;
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
