// Runs every benchmark in bench/ (each compares memdomain's wasm with a
// plain-JavaScript baseline, or an npm peer, in the same process) one after
// another, showing each one's output as it goes, and writes docs/PERFORMANCE.md
// from what they printed: per benchmark, what it measures (its own header
// comment) and its output as printed (its markdown tables as tables, the rest
// as text), under a header naming the machine, the Node and the commit.
//   node bench/run.mjs                  every benchmark; writes docs/PERFORMANCE.md
//   node bench/run.mjs cache allpairs   only those (printed; docs/PERFORMANCE.md is not written)
//   node bench/run.mjs --out=FILE ...   write FILE instead (a selection too)
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../", import.meta.url));
const out = process.argv.find((a) => a.startsWith("--out="))?.slice(6);
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const files = readdirSync(dir).filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("lib"))
  .filter((f) => !only.length || only.some((o) => f.includes(o))).sort();

// The order and titles of the sections (a benchmark not listed comes last, under its file name),
// with Node's flags and the benchmark's own arguments where it needs them.
const SECTIONS = [
  ["boundary.mjs", "Every call, side by side", ["--expose-gc"]],
  ["fusion.mjs", "Fusion and single cosines"],
  ["retention.mjs", "Retention scoring, a whole pass"],
  ["neighbors.mjs", "Neighbour pairs and the 1 x n arm"],
  ["mmr.mjs", "MMR"],
  ["graph.mjs", "PageRank and communities"],
  ["lateral.mjs", "The lateral arm's PageRank"],
  ["frame_merge.mjs", "Frame keys and merges"],
  ["decay.mjs", "Decay folds over long counts"],
  ["resident.mjs", "Exact top-k over resident rows"],
  ["allpairs.mjs", "All pairs, one and two workers"],
  ["pruning.mjs", "Where pruning stops paying"],
  ["cache.mjs", "The local memory cache"],
  // issue 44 asks make bench for 10k, 100k and 1M memories: the 1M corpus's puts alone take minutes.
  ["lexindex.mjs", "The lexical arm from the resident index", [], ["--sizes=10000,100000,1000000"]],
];
const order = (f) => { const i = SECTIONS.findIndex(([s]) => s === f); return i < 0 ? SECTIONS.length : i; };
files.sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));

/** A benchmark's header comment, as prose: what it measures and how. */
function about(file) {
  const lines = [];
  for (const l of readFileSync(`${dir}${file}`, "utf8").split("\n")) {
    if (!l.startsWith("//")) break;
    lines.push(l.replace(/^\/\/ ?/, ""));
  }
  const text = lines.join("\n").replace(/\s*\(issue \d+[^)]*\)/g, "");
  // Paragraphs of prose stay prose; indented lines (usage, flags) stay as printed.
  return text.split(/\n\s*\n/).map((p) => (/^\s{2,}\S/m.test(p) ? "```text\n" + p.replace(/^\s*\n|\s+$/g, "") + "\n```" : p.replace(/\s*\n\s*/g, " "))).join("\n\n");
}

/** Output as markdown: runs of table lines ("| ...") as tables, everything else fenced. */
function asMarkdown(text) {
  const clean = text.replace(/\x1b\[[0-9;]*m/g, "").replace(/\r/g, "").replace(/\s+$/, "");
  const parts = [];
  for (const line of clean.split("\n")) {
    const table = /^\s*\|.*\|\s*$/.test(line);
    const last = parts[parts.length - 1];
    if (last && last.table === table) last.lines.push(line.trimEnd());
    else parts.push({ table, lines: [line.trimEnd()] });
  }
  return parts.map((p) => (p.table ? p.lines.join("\n").trim() : "```text\n" + p.lines.join("\n").replace(/^\n+|\n+$/g, "") + "\n```"))
    .filter((p) => p !== "```text\n\n```").join("\n\n");
}

function runOne(file) {
  const [, , flags = [], args = []] = SECTIONS.find(([f]) => f === file) ?? [];
  return new Promise((resolve) => {
    const load = loadavg()[0];
    const t0 = performance.now();
    const child = spawn(process.execPath, [...flags, `${dir}${file}`, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (d) => { process.stdout.write(d); text += d; });
    child.on("close", (code) => resolve({ file, code, text, seconds: (performance.now() - t0) / 1000, load: [load, loadavg()[0]] }));
  });
}

const results = [];
for (const f of files) {
  console.log(`\n## ${f}`);
  results.push(await runOne(f));
}
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) console.log(`bench: ${r.file} failed (exit ${r.code})`);

if ((only.length && !out) || failed.length) {
  console.log(`bench: ${failed.length ? "a benchmark failed" : "a selection ran"}; docs/PERFORMANCE.md not written`);
} else {
  const git = (...a) => spawnSync("git", a, { cwd: root, encoding: "utf8" }).stdout.trim();
  const commit = `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " with uncommitted changes" : ""}`;
  const cpu = cpus()[0]?.model?.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  const title = (f) => SECTIONS.find(([s]) => s === f)?.[1] ?? f;
  const slug = (s) => s.toLowerCase().replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-");
  const doc = [
    "# Performance",
    "",
    "<!-- Written by `make bench` (bench/run.mjs) from the benchmarks' output; edit the benchmarks, not this file. -->",
    "",
    "Every figure on this page is what a benchmark under `bench/` printed in one `make bench` run. Each",
    "compares memdomain with a plain-JavaScript implementation written the way the reference is",
    "(`tests/oracles/baseline-*.js`) or with a library from npm, side by side in one process, and checks that",
    "both sides give the same answer before timing them. Times depend on the machine and on what else",
    "runs on it (the load average before and after each benchmark is given); the ratios come from the",
    "same interleaved run.",
    "",
    `Run on ${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}, ` +
      `commit ${commit}; ${results.reduce((s, r) => s + r.seconds, 0).toFixed(0)} s in all.`,
    "",
    ...results.map((r) => `- [${title(r.file)}](#${slug(title(r.file))}) (\`bench/${r.file}\`)`),
    "",
    ...results.flatMap((r) => [
      `## ${title(r.file)}`,
      "",
      `\`node ${(SECTIONS.find(([f]) => f === r.file)?.[2] ?? []).map((x) => `${x} `).join("")}bench/${r.file}\`: ` +
        `${r.seconds.toFixed(0)} s, load average ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after.`,
      "",
      about(r.file),
      "",
      asMarkdown(r.text),
      "",
    ]),
  ].join("\n");
  const file = out ?? `${root}docs/PERFORMANCE.md`;
  writeFileSync(file, doc.replace(/\n{3,}/g, "\n\n"));
  console.log(`bench: wrote ${file}`);
}
process.exit(failed.length ? 1 : 0);
