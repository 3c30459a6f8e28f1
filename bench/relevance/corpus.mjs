// Build, cache and load the relevance corpora (bench/relevance). A corpus lives in
// build/relevance/<name>/ and is rebuilt only when its key changes: the hash of the builder's
// source files and the versions of the Debian packages its documents come from.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fitLsa, foldIn } from "./lsa.mjs";
import { gistBody, queryKey, shuffled, words } from "./text.mjs";
import * as man from "./corpora/man.mjs";
import * as python from "./corpora/python.mjs";
import * as postgres from "./corpora/postgres.mjs";
import * as kernel from "./corpora/kernel.mjs";
import * as handbook from "./corpora/handbook.mjs";
import * as debian from "./corpora/debian.mjs";
import * as rustbook from "./corpora/rustbook.mjs";
import * as gnu from "./corpora/gnu.mjs";
import * as jargon from "./corpora/jargon.mjs";
import * as rmanuals from "./corpora/rmanuals.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, "..", "..");
export const OUT = process.env.RELEVANCE_OUT ?? join(ROOT, "build", "relevance");
export const CORPORA = { man, python, postgres, kernel, handbook, debian, rustbook, gnu, jargon, rmanuals };
/** What run.mjs builds and ranks without --corpora: the others only on request. */
export const DEFAULT_CORPORA = ["man", "python", "postgres", "kernel", "handbook"];

/** Corpus constants (also in the cache key through this file's hash). */
export const SETTINGS = Object.freeze({
  minWords: 10, // memories with fewer words are skipped
  sample: 1200, // known-item queries sampled per corpus: the first `tune` go to tune, the rest to test
  tune: 200, // or 20% of the sample when it is smaller than 1,000
  querySeed: 24, // the issue's number
  lsa: { dim: 256, oversample: 16, powerIters: 2, minDf: 2, seed: 1 },
  createdAt0: Date.UTC(2026, 0, 1), // memory i was created at createdAt0 + i minutes
});

const SOURCES = ["corpus.mjs", "text.mjs", "html.mjs", "lsa.mjs", "corpora/html-sections.mjs"];

function packageVersions(pkgs) {
  const out = {};
  for (const p of pkgs) {
    let v = "";
    try {
      v = execFileSync("dpkg-query", ["-W", "-f=${Status}\t${Version}", p], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch { /* not known to dpkg */ }
    const [status, version] = v.split("\t");
    if (status !== "install ok installed") throw new Error(`relevance corpus: the Debian package ${p} is not installed (run tools/deps-relevance.sh or make bench-relevance)`);
    out[p] = version;
  }
  return out;
}

/** The corpus's cache key and what it is made of. */
export function corpusKey(name) {
  const mod = CORPORA[name];
  if (!mod) throw new RangeError(`loadCorpus: name is ${JSON.stringify(name)}, not a corpus (corpora: ${Object.keys(CORPORA).join(", ")})`);
  const h = createHash("sha256");
  for (const f of [...SOURCES, `corpora/${name}.mjs`]) h.update(f).update("\0").update(readFileSync(join(HERE, f))).update("\0");
  const packages = packageVersions(mod.packages());
  const builder = h.digest("hex");
  const key = createHash("sha256").update(JSON.stringify({ builder, packages })).digest("hex").slice(0, 32);
  return { key, builder, packages };
}

/**
 * A query's kind: "question" for a heading that asks ("What is pinmuxing?", "How do I ...",
 * matched case-sensitively so the CAN bus is a name), else "name".
 */
export function queryKind(title) {
  const t = title.trim();
  return /\?[^\p{L}\p{N}]*$/u.test(t) || /^(?:What|How|Why|When|Which|Who|Where|Can|Does|Is|Should)\b/.test(t) ? "question" : "name";
}

const vectorOf = (v) => Float32Array.from(v);

function readJsonl(file) {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

function readQueries(file) {
  return readJsonl(file).map((q) => ({ ...q, vector: vectorOf(q.vector) }));
}

function load(dir, meta) {
  const rows = readJsonl(join(dir, "memories.jsonl"));
  const buf = readFileSync(join(dir, "embeddings.f32"));
  const dim = meta.lsa.dim;
  if (buf.byteLength !== rows.length * dim * 4) throw new Error(`relevance corpus ${meta.name}: embeddings.f32 has ${buf.byteLength} bytes, not ${rows.length} x ${dim} x 4`);
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const memories = rows.map((m, i) => ({ ...m, embedding: all.subarray(i * dim, (i + 1) * dim) }));
  return {
    name: meta.name, memories, links: JSON.parse(readFileSync(join(dir, "links.json"), "utf8")),
    queries: { tune: readQueries(join(dir, "queries.tune.jsonl")), test: readQueries(join(dir, "queries.test.jsonl")) }, meta,
  };
}

/**
 * The corpus `name` (a key of CORPORA): built into build/relevance/<name>/ unless a build
 * with the same key is there. Returns { name, memories (cache.put's fields), queries: { tune,
 * test } ({ text, kind, vector, relevant: { path: grade }, target }), links ({ src, dst, strength }),
 * meta }. options: { rebuild, log }.
 */
export async function loadCorpus(name, { rebuild = false, log = (s) => console.error(s) } = {}) {
  const { key, builder, packages } = corpusKey(name);
  const dir = join(OUT, name);
  const metaFile = join(dir, "meta.json");
  if (!rebuild && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8"));
    if (meta.key === key) return load(dir, meta);
    log(`relevance: ${name}: inputs or builder changed, rebuilding`);
  }
  const meta = await build(name, { key, builder, packages, log });
  return load(dir, meta);
}

async function build(name, { key, builder, packages, log }) {
  const mod = CORPORA[name];
  const dir = join(OUT, name);
  const t0 = performance.now();
  log(`relevance: building corpus ${name} (${Object.entries(packages).map(([p, v]) => `${p} ${v}`).join(", ")})`);
  // maxBuffer: linux-doc's file list is over a megabyte, execFileSync's default.
  const files = Object.keys(packages).flatMap((pkg) => execFileSync("dpkg", ["-L", pkg], { encoding: "utf8", maxBuffer: 256 << 20 })
    .split("\n").filter(Boolean).map((file) => ({ pkg, file })));
  const { items, root } = await mod.extract({ files });
  const extractSeconds = (performance.now() - t0) / 1000;

  // Memories: items with at least minWords words, in the builder's order.
  const kept = items.filter((it) => words(it.lines.join(" ")).length >= SETTINGS.minWords);
  const keptSet = new Set(kept.map((it) => it.path));
  if (keptSet.size !== kept.length) throw new Error(`relevance corpus ${name}: duplicate paths`);
  const memories = kept.map((it, i) => ({ path: it.path, ...gistBody(it.lines), type: "semantic", createdAt: SETTINGS.createdAt0 + i * 60000 }));

  // Links between memories (deduplicated, no self-links).
  const links = [];
  for (const it of kept) for (const dst of [...it.links].sort()) if (dst !== it.path && keptSet.has(dst)) links.push({ src: it.path, dst, strength: 1 });

  // Known-item queries: a title (heading, NAME description) of at least 2 words, unique in the corpus.
  const titleCount = new Map();
  for (const it of items) if (it.title) { const k = queryKey(it.title); titleCount.set(k, (titleCount.get(k) ?? 0) + 1); }
  const eligible = kept.filter((it) => it.title && words(it.title).length >= 2 && titleCount.get(queryKey(it.title)) === 1);
  const sample = shuffled(eligible, SETTINGS.querySeed).slice(0, SETTINGS.sample);
  const nTune = sample.length >= 1000 ? SETTINGS.tune : Math.round(sample.length * 0.2);

  const kinds = { question: 0, name: 0 };
  for (const it of eligible) kinds[queryKind(it.title)]++;
  log(`relevance: ${name}: ${items.length} documents, ${memories.length} memories, ${links.length} links, ${eligible.length} eligible queries ` +
    `(${kinds.question} questions, ${kinds.name} names) (${extractSeconds.toFixed(1)} s); LSA...`);
  const model = fitLsa(memories.map((m) => `${m.gist}\n${m.body}`), SETTINGS.lsa);
  log(`relevance: ${name}: LSA d=${model.dim} over ${model.stats.terms} terms, ${model.stats.nnz} nonzeros: ${model.stats.seconds.toFixed(1)} s`);
  let zero = 0;
  const queries = sample.map((it) => {
    const vector = foldIn(model, it.title);
    if (vector.every((x) => x === 0)) zero++;
    const relevant = { [it.path]: 2 };
    for (const dst of [...it.links].sort()) if (dst !== it.path && keptSet.has(dst)) relevant[dst] = 1;
    return { text: it.title, kind: queryKind(it.title), vector, relevant, target: it.path };
  });

  const meta = {
    name, description: mod.description, heldOut: mod.heldOut, key, builder, packages, root, settings: SETTINGS,
    counts: { documents: items.length, memories: memories.length, links: links.length, eligibleQueries: eligible.length,
      eligibleKinds: kinds, sampledKinds: { question: queries.filter((q) => q.kind === "question").length, name: queries.filter((q) => q.kind === "name").length },
      tune: nTune, test: queries.length - nTune, zeroVectorQueries: zero },
    lsa: { ...model.stats, topSingularValues: Array.from(model.singular.slice(0, 8), (s) => Number(s.toFixed(4))) },
    extractSeconds: Number(extractSeconds.toFixed(2)), buildSeconds: Number(((performance.now() - t0) / 1000).toFixed(2)),
    ...(mod.extraMeta ?? {}),
  };
  // Write to a temporary directory, then swap it in, so an interrupted build leaves no half corpus.
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, "memories.jsonl"), memories.map((m) => JSON.stringify(m)).join("\n") + "\n");
  writeFileSync(join(tmp, "embeddings.f32"), Buffer.from(model.docVectors.buffer, model.docVectors.byteOffset, model.docVectors.byteLength));
  writeFileSync(join(tmp, "links.json"), JSON.stringify(links));
  const line = (q) => JSON.stringify({ ...q, vector: Array.from(q.vector) });
  writeFileSync(join(tmp, "queries.tune.jsonl"), queries.slice(0, nTune).map(line).join("\n") + "\n");
  writeFileSync(join(tmp, "queries.test.jsonl"), queries.slice(nTune).map(line).join("\n") + "\n");
  writeFileSync(join(tmp, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`relevance: ${name}: built in ${meta.buildSeconds} s`);
  return meta;
}
