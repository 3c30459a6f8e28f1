// Where pruning stops paying: bench/prune-cost.c (native, built against
// build/libmemdomain.a and the internal headers, so it can force the exact
// and the pruned paths) on the scenarios the README's performance section
// quotes. Prints exact / pruned / automatic times and whether the automatic
// choice pruned; every answer is checked equal to the exact pass's.
//   node bench/pruning.mjs [--json=out.json]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { ROOT, args, fmt, report } from "./lib-vectors.mjs";

const a = args();
if (!existsSync(`${ROOT}build/libmemdomain.a`)) throw new Error("no build/libmemdomain.a (run make)");
mkdirSync(`${ROOT}build/bench`, { recursive: true });
const bin = `${ROOT}build/bench/prune-cost`;
execFileSync("cc", ["-std=c11", "-O2", `-I${ROOT}include`, `-I${ROOT}src`, `${ROOT}bench/prune-cost.c`,
  `${ROOT}build/libmemdomain.a`, "-lm", "-o", bin]);
const results = JSON.parse(execFileSync(bin, { encoding: "utf8" }));
const x = (p, q) => (p / q).toFixed(2) + "x";
const show = results.map((r) => ({
  scenario: r.scenario, n: r.n, d: r.d, k: r.k, "exact ms": fmt(r.exact), "pruned (forced) ms": fmt(r.pruned),
  "pruned / exact": x(r.pruned, r.exact), "automatic ms": fmt(r.auto), "automatic pruned": r.autoPruned ?? "",
  "survivors (exact sums)": r.survivors || "", identical: r.identical,
}));
report(show, results, a.json);
