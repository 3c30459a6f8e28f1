#!/usr/bin/env node
// Deterministic generator of the demo's default corpus.
//   node web-demo/tools/gen-corpus.mjs [--out build/demo] [--seed 7] [--check]
// Writes corpus.json (memories, edges, queries, how it was made) and vectors.f32
// (little-endian Float32: every memory's 384-dim embedding, then the topic centroids,
// then the sub-topic directions). Same seed, same bytes, on any machine: the PRNG is
// mulberry32 (integer arithmetic: tests/oracles/rng.js), noise is a sum of uniforms (no Math.log/cos), and
// the only transcendental is Math.sqrt, which IEEE-754 rounds correctly everywhere.
//
// The embeddings are SYNTHETIC: each memory's vector is
//   normalize(0.62 * topicCentroid + 0.5 * subtopicDirection + 0.6 * noise)
// and a near-duplicate or a variant is normalize(original + s * noise) with s chosen
// so its cosine to the original lands between about 0.90 and 0.98.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FILLER, FRAME_CONFLICTS, PARAPHRASE, PEOPLE, QUALIFIERS, TOOLS, TOPICS } from "./topics.mjs";
import { rng } from "../../tests/oracles/rng.js";
import { queryVector } from "../lib/arms.js";

export const DIM = 384;
const REFERENCE_DAY = Date.UTC(2026, 10, 1); // ages are days before 2026-11-01
const TYPES = ["episodic", "semantic", "procedural", "arc", "error_pattern", "task"];
const TYPE_SHARE = [0.3, 0.3, 0.14, 0.08, 0.11, 0.07];
const PER_TOPIC = 45;

export function generate(seed = 7) {
  const rnd = rng(seed);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const gauss = () => rnd() + rnd() + rnd() + rnd() - 2; // Irwin-Hall, variance 1/3

  const unit = (v) => {
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * v[i];
    const n = Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = Math.fround(v[i] / n);
    return v;
  };
  const noise = () => unit(Float64Array.from({ length: DIM }, gauss));
  const mix = (terms) => {
    const out = new Float64Array(DIM);
    for (const [w, v] of terms) for (let i = 0; i < DIM; i++) out[i] += w * v[i];
    return unit(out);
  };

  const centroids = TOPICS.map(() => noise());
  const subdirs = TOPICS.map(() => [0, 1, 2, 3].map(() => noise()));

  const memories = [];
  const vectors = [];
  const usedPaths = new Set();
  const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").split("-").slice(0, 5).join("-");
  const dateOf = (age) => new Date(REFERENCE_DAY - Math.round(age * 86400000)).toISOString().slice(0, 10);
  const pickType = () => {
    let r = rnd();
    for (let i = 0; i < TYPES.length; i++) if ((r -= TYPE_SHARE[i]) < 0) return TYPES[i];
    return TYPES[TYPES.length - 1];
  };
  const ageFor = (type) => {
    const base = { episodic: 60, semantic: 400, procedural: 300, arc: 150, error_pattern: 90, task: 40 }[type];
    return Math.round(rnd() * rnd() * base * 2 * 100) / 100 + 0.25;
  };
  const fill = (claim, n, v = "") => claim.replace("{n}", String(n)).replace("{v}", v);
  const numberFor = () => pick([2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 45, 60, 90, 120, 250, 500]);
  const lc = (s) => (/^[A-Z][a-z]*$/.test(s.split(" ")[0]) ? s[0].toLowerCase() + s.slice(1) : s); // keep SQLite, VACUUM, PKCE

  function gistFor(type, claim, topic, sub) {
    switch (type) {
      case "episodic": return `On ${dateOf(int(1, 400))} ${pick(PEOPLE)} noted that ${lc(claim)}.`;
      case "procedural": return `How-to for ${topic.sub[sub]}: ${lc(claim)}, checked with ${pick(TOOLS)}.`;
      case "arc": return `${topic.label} ${topic.sub[sub]} arc, part ${int(1, 9)}: ${lc(claim)}.`;
      case "error_pattern": return `Error pattern in ${topic.sub[sub]}: forgetting that ${lc(claim)}.`;
      case "task": return `Task: confirm that ${lc(claim)}.`;
      default: return `${claim}.`;
    }
  }
  function bodyFor(gist, topic, { extra = "", long = false } = {}) {
    const parts = [gist];
    const nDetails = long ? int(6, 9) : int(0, 3);
    for (let i = 0; i < nDetails; i++) parts.push(pick(topic.details));
    if (extra) parts.push(extra);
    const nFill = long ? int(5, 8) : int(0, 2);
    for (let i = 0; i < nFill; i++) parts.push(pick(FILLER));
    if (rnd() < 0.6) parts.push(`Seen in ticket ${topic.id.toUpperCase()}-${int(100, 9999)} on ${dateOf(int(1, 700))}.`);
    if (!long && rnd() < 0.08) return `${topic.label}: ${topic.sub[0]}.`; // a terse stub, low content density
    return parts.join(" ");
  }

  function add(m, vec) {
    let base = `${m.type}/${m.topic}/${slug(m.gist)}`;
    let path = `${base}.md`;
    for (let k = 2; usedPaths.has(path); k++) path = `${base}-${k}.md`;
    usedPaths.add(path);
    const mem = {
      path, gist: m.gist, body: m.body, type: m.type, topic: m.topic, sub: m.sub,
      ageDays: m.ageDays, accessCount: m.accessCount, confidence: m.confidence,
      hoursSinceAccess: m.hoursSinceAccess, kind: m.kind ?? "base", of: m.of ?? null,
      reinforcementCount: 0, contradictionCount: 0, wordCount: m.body.split(/\s+/).filter(Boolean).length,
    };
    memories.push(mem);
    vectors.push(vec);
    return memories.length - 1;
  }
  const stats = () => ({
    accessCount: Math.floor(rnd() * rnd() * 25),
    confidence: Math.round((0.25 + 0.75 * rnd()) * 100) / 100,
    hoursSinceAccess: Math.round(rnd() * 24 * 60 * 10) / 10,
  });

  // ---- base memories, topic by topic
  const byTopic = TOPICS.map(() => []);
  const numSlot = new Map(); // memory index -> the number its claim's {n} slot holds
  TOPICS.forEach((topic, t) => {
    for (let j = 0; j < PER_TOPIC; j++) {
      const [sub, claimT] = topic.claims[j % topic.claims.length];
      const frameTopic = topic.id === "geo" || topic.id === "owners";
      const type = frameTopic && rnd() < 0.6 ? "semantic" : pickType();
      const n = numberFor();
      const claim = fill(claimT, n);
      const gist = gistFor(type, claim, topic, sub);
      const vec = mix([[0.62, centroids[t]], [0.5, subdirs[t][sub]], [0.6, noise()]]);
      // the first memory of each claim is a well-used, well-written core page (and a link hub below)
      const core = j < topic.claims.length;
      const st = stats();
      if (core) Object.assign(st, { accessCount: int(10, 40), confidence: Math.round((0.85 + 0.15 * rnd()) * 100) / 100 });
      const i = add({ gist, body: bodyFor(gist, topic, { long: core }), type, topic: topic.id, sub, ageDays: core ? Math.min(ageFor(type), int(1, 20)) : ageFor(type), ...st }, vec);
      byTopic[t].push(i);
      if (claimT.includes("{n}") && type !== "episodic" && type !== "arc") numSlot.set(i, n);
    }
  });

  const near = (i, s) => mix([[1, vectors[i]], [s, noise()]]);
  const younger = (i) => Math.max(0.1, Math.round(memories[i].ageDays * rnd() * 100) / 100);
  const variantOf = (i, kind, gist, body, s, extra = {}) =>
    add({ ...memories[i], ...stats(), gist, body, ageDays: younger(i), kind, of: memories[i].path, ...extra }, near(i, s));

  // ---- honest near-duplicates: safe paraphrase of the gist, body cites different numbers
  const paraphrase = (g) => {
    let out = g;
    for (const [re, to] of PARAPHRASE) if (re.test(out)) { out = out.replace(re, to); break; }
    return out === g ? `Note: ${g}` : out;
  };
  const dupSources = [];
  for (let k = 0; k < 60; k++) {
    const t = k % TOPICS.length;
    const i = byTopic[t][int(0, PER_TOPIC - 1)];
    if (dupSources.includes(i) || memories[i].kind !== "base") continue;
    dupSources.push(i);
    const topic = TOPICS[t];
    const g = paraphrase(memories[i].gist);
    const s = 0.2 + 0.25 * rnd(); // cosine about 0.90 to 0.98 to the original
    variantOf(i, "near-duplicate", g, bodyFor(g, topic), s);
    if (k % 7 === 0) variantOf(i, "near-duplicate", `Reminder: ${memories[i].gist}`, bodyFor(memories[i].gist, topic), 0.22);
  }

  // ---- negated variants (the negation guard must veto), numbered (numeric), qualified (variant)
  const negate = (g) => {
    for (const [re, to] of [[/ is /, " is not "], [/ are /, " are not "], [/ must /, " must not "], [/ lets /, " never lets "], [/ runs /, " never runs "], [/ keeps /, " no longer keeps "]])
      if (re.test(g)) return g.replace(re, to);
    return g.replace(/\.$/, "") + ", which is false.";
  };
  let negs = 0, nums = 0, quals = 0, bodyNegs = 0;
  for (let t = 0; t < TOPICS.length; t++) {
    const topic = TOPICS[t];
    for (const i of byTopic[t]) {
      const m = memories[i];
      if (negs < 20 && rnd() < 0.03) {
        const g = negate(m.gist);
        variantOf(i, "negated", g, bodyFor(g, topic), 0.26, { confidence: 0.9 });
        negs++;
      } else if (nums < 20 && numSlot.has(i) && rnd() < 0.25) {
        const n = numSlot.get(i);
        const g = m.gist.replace(new RegExp(`\\b${n}\\b`), String(n + 10));
        if (g !== m.gist) { variantOf(i, "renumbered", g, bodyFor(g, topic), 0.24); nums++; }
      } else if (bodyNegs < 8 && rnd() < 0.015) {
        variantOf(i, "body-negated", m.gist, bodyFor(m.gist, topic, { extra: "Draining does NOT complete before the old nodes stop." }), 0.22);
        bodyNegs++;
      }
    }
  }
  const hw = TOPICS.findIndex((x) => x.id === "hardware");
  for (const i of byTopic[hw]) {
    const m = memories[i];
    if (quals >= 14) break;
    const q = pick(QUALIFIERS);
    const g = m.gist.replace(/\b(M1|M2|4090|19)\b/, (x) => x + q);
    if (g === m.gist) continue;
    variantOf(i, "qualified", g, bodyFor(g, TOPICS[hw]), 0.24);
    quals++;
  }

  // ---- frame-key conflicts: one slot, two values, embeddings close enough to propose a merge
  for (const [tid, sub, a, b] of FRAME_CONFLICTS) {
    const t = TOPICS.findIndex((x) => x.id === tid);
    const topic = TOPICS[t];
    const va = mix([[0.62, centroids[t]], [0.5, subdirs[t][sub]], [0.6, noise()]]);
    const ia = add({ gist: a, body: bodyFor(a, topic), type: "semantic", topic: tid, sub, ageDays: 200 + int(0, 300), ...stats(), kind: "frame-original" }, va);
    byTopic[t].push(ia);
    variantOf(ia, "frame-conflict", b, bodyFor(b, topic), 0.3);
  }

  // ---- typed edges
  const edges = [];
  const edgeSeen = new Set();
  const edge = (src, dst, type, strength, derived = false) => {
    if (src === dst) return;
    const key = `${src}\u0000${dst}\u0000${type}`;
    if (edgeSeen.has(key)) return;
    edgeSeen.add(key);
    edges.push({ src: memories[src].path, dst: memories[dst].path, type, strength: Math.round(strength * 100) / 100, derived });
  };
  const members = TOPICS.map(() => []);
  memories.forEach((m, i) => members[TOPICS.findIndex((x) => x.id === m.topic)].push(i));
  memories.forEach((m, i) => {
    const t = TOPICS.findIndex((x) => x.id === m.topic);
    const pool = members[t];
    const n = int(2, 4);
    const sameSub = pool.filter((j) => memories[j].sub === m.sub);
    for (let e = 0; e < n; e++) {
      // preferential: early members of a sub-topic gather most links, so communities form around them
      const from = rnd() < 0.93 ? sameSub : pool;
      const j = from[Math.floor(rnd() * rnd() * from.length)];
      const r = rnd();
      if (r < 0.45) edge(i, j, "relates_to", 0.3 + 0.4 * rnd(), true);
      else if (r < 0.75) edge(i, j, "supports", 0.5 + 0.5 * rnd());
      else if (r < 0.9) edge(i, j, "reinforces", 0.5 + 0.4 * rnd());
      else edge(i, j, "derived_from", 0.4 + 0.4 * rnd(), true);
    }
    if (rnd() < 0.025) { // the occasional cross-topic link makes bridges
      const u = pick(members[(t + int(1, TOPICS.length - 1)) % TOPICS.length]);
      edge(i, u, "relates_to", 0.2 + 0.3 * rnd(), true);
    }
    if (m.of) {
      const o = memories.findIndex((x) => x.path === m.of);
      if (m.kind === "near-duplicate") edge(i, o, "duplicates", 0.9, true);
      else edge(i, o, "contradicts", 0.8, m.kind === "body-negated"); // authored, except the mined ones
    }
  });
  const index = new Map(memories.map((m, i) => [m.path, i]));
  for (const e of edges) {
    const d = memories[index.get(e.dst)];
    if (e.type === "supports" || e.type === "reinforces") d.reinforcementCount++;
    if (e.type === "contradicts" && !e.derived) { d.contradictionCount++; memories[index.get(e.src)].contradictionCount++; }
  }

  // ---- preset queries: one per topic (the text names the sub-topic's keywords)
  const queries = TOPICS.map((topic, t) => {
    const sub = t % 4;
    return { text: `${topic.label.toLowerCase()} ${topic.keywords[sub].slice(0, 3).join(" ")}`, topic: topic.id, sub };
  });

  const topics = TOPICS.map((x) => ({ id: x.id, label: x.label, sub: x.sub, keywords: x.keywords }));
  const flat = new Float32Array((memories.length + TOPICS.length * 5) * DIM);
  let at = 0;
  for (const v of vectors) { flat.set(v, at); at += DIM; }
  for (const v of centroids) { flat.set(v, at); at += DIM; }
  for (const vs of subdirs) for (const v of vs) { flat.set(v, at); at += DIM; }

  const counts = {};
  for (const m of memories) counts[m.kind] = (counts[m.kind] ?? 0) + 1;
  const corpus = {
    format: 1, seed, dim: DIM, referenceDay: "2026-11-01",
    howMade: "Synthetic, not from a model: each vector is normalize(0.62*topic centroid + 0.5*sub-topic direction + 0.6*noise) " +
      "with random unit centroids, directions and noise from a seeded PRNG (mulberry32, Irwin-Hall noise); a near-duplicate or variant is " +
      "normalize(original + s*noise) with s in 0.2..0.45, so its cosine to the original is about 0.90 to 0.98. " +
      "Generated by web-demo/tools/gen-corpus.mjs.",
    vectorLayout: { memories: memories.length, centroids: TOPICS.length, subtopicsPerTopic: 4 },
    counts, topics, queries, memories, edges,
  };
  return { corpus, vectors: flat };
}

/** The shortest decimal that reads back as the same float32 (so the JSON stays small and exact). */
function f32(x) {
  for (let p = 6; p < 10; p++) {
    const v = Number(x.toPrecision(p));
    if (Math.fround(v) === x) return v;
  }
  return x;
}

/**
 * The corpus as the workbench's import format (web-demo/lib/data.js): memories with
 * timestamps before the reference day, the typed edges, and the preset queries with
 * their synthetic query vectors and relevance labels (the memories generated for the
 * query's topic and sub-topic).
 */
export function workbenchExample(corpus, vectors) {
  const DAY = 86400000, now = REFERENCE_DAY, dim = corpus.dim, n = corpus.memories.length, T = corpus.topics.length;
  const row = (i) => Array.from(vectors.subarray(i * dim, (i + 1) * dim), f32);
  // memdomain/cache's JSON Lines (what put() and importJsonl() take), and the page's own lines (meta, queries) beside them
  const mem = corpus.memories.map((m, i) => JSON.stringify({
    path: m.path, gist: m.gist, body: m.body, type: m.type, embedding: row(i),
    // decayedAt: these memories come from an agent's cache whose last decay was when each was written, so the
    // first pass decays them (and the policy's minimum age counts) from createdAt, as a long-lived cache's would
    createdAt: Math.round(now - m.ageDays * DAY), decayedAt: Math.round(now - m.ageDays * DAY), accessedAt: Math.round(now - m.hoursSinceAccess * 3600000),
    accessCount: m.accessCount, confidence: m.confidence, outcomeScore: null,
    reinforcementCount: m.reinforcementCount, contradictionCount: m.contradictionCount,
  }));
  for (const e of corpus.edges) mem.push(JSON.stringify({ edge: { src: e.src, dst: e.dst, type: e.type, strength: e.strength, origin: "link" } }));
  const centroid = (t) => vectors.subarray((n + t) * dim, (n + t + 1) * dim);
  const subdir = (t, s) => vectors.subarray((n + T + t * 4 + s) * dim, (n + T + t * 4 + s + 1) * dim);
  const qs = [JSON.stringify({ meta: { name: `synthetic example (seed ${corpus.seed})`, now, note: corpus.howMade, queryEncoder: "synthetic-topics" } })];
  corpus.queries.forEach((q, i) => qs.push(JSON.stringify({
    id: `q${i + 1}`, query: q.text, vector: Array.from(queryVector(q.text, corpus.topics, centroid, subdir, dim), f32),
    relevant: corpus.memories.filter((m) => m.topic === q.topic && m.sub === q.sub).map((m) => m.path),
  })));
  return { memories: mem.join("\n") + "\n", queries: qs.join("\n") + "\n" };
}

function main(argv) {
  let out = "build/demo", seed = 7;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--out") out = argv[++i];
    else if (argv[i] === "--seed") seed = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  const { corpus, vectors } = generate(seed);
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(corpus);
  const bytes = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  writeFileSync(join(dir, "corpus.json"), json);
  writeFileSync(join(dir, "vectors.f32"), bytes);
  const example = workbenchExample(corpus, vectors);
  writeFileSync(join(dir, "example-memories.jsonl"), example.memories);
  writeFileSync(join(dir, "example-queries.jsonl"), example.queries);
  const h = createHash("sha256").update(json).update(bytes).digest("hex").slice(0, 16);
  console.log(`gen-corpus: ${corpus.memories.length} memories, ${corpus.edges.length} edges, ` +
    `${JSON.stringify(corpus.counts)} -> ${out}/corpus.json + vectors.f32 (sha256 ${h})`);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("gen-corpus.mjs")) main(process.argv.slice(2));
