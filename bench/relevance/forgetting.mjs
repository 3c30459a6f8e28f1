#!/usr/bin/env node
// The forgetting benchmark (issue 40): what sleep keeps, measured by what can still be found.
//
// An agent's months with a corpus of real documents (bench/relevance: sections of Debian-packaged
// documentation), as sessions, one a day:
//   - the day's share of the documents is put, as "semantic" memories, in the corpus's order;
//   - the agent asks QUESTIONS known-item questions (a section's title, written by its author),
//     their targets drawn from a seeded Zipf popularity over the sections put so far (what an
//     agent needs recurs), searches for each, and reinforces the target ("positive") when it is
//     in the top 10; every question also leaves an episodic note of the session ("While working on
//     day 12 I looked up <title>; the answer was <path>"): the kind of memory no later question needs;
//   - each night, sleep({ now, evict: true, policy }).
// After the last session, FINAL questions are asked, drawn from the same popularity over every
// section (popular ones and the long tail the agent never asked about); their evidence is known.
// Reported per policy, beside the same months without any sleep: the share of the final
// questions whose evidence is in the top 10 (recall@10), its ratio to never sleeping, the live
// text bytes (what archiving saved), and what was archived by type.
//
//   node bench/relevance/forgetting.mjs [--corpus=python] [--days=90] [--questions=20] [--final=500]
//     [--zipf=1] [--seed=1] [--policies=default,seed] [--json=FILE]
//
// A policy is a name of POLICIES below or a JSON CachePolicy. The default policy (js/cache/policy.js)
// must keep at least 99% of never-sleeping's recall here and on the held-out conversation corpus
// (`--corpus=debian`, whose FAQ is questions), and must not empty a fresh corpus in one pass.
import { writeFileSync } from "node:fs";
import { importCache, loadCorpus } from "./lib.mjs";
import { rng } from "../../tests/oracles/rng.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

/** Named policies: the cache's default, the design's thresholds with no minimum age, and variants. */
export const POLICIES = {
  default: {},
  "the whole evict band": { archiveBelow: null },
  "the whole band, no minimum age": { archiveBelow: null, minAgeDays: 0 },
  "archive below 0.25": { archiveBelow: 0.25 },
  "archive below 0.15": { archiveBelow: 0.15 },
  "min age 7": { minAgeDays: 7 },
  "min age 60": { minAgeDays: 60 },
  "no reprieve": { reprieve: { maxReprieves: 0 } },
};

function args(argv) {
  const o = { corpus: "python", days: 90, questions: 20, final: 500, zipf: 1, seed: 1, policies: Object.keys(POLICIES), json: null };
  for (const a of argv) {
    const m = /^--([a-z]+)=(.*)$/.exec(a);
    if (!m) throw new RangeError(`forgetting: unknown argument ${a}`);
    const [, k, v] = m;
    if (k === "corpus" || k === "json") o[k] = v;
    else if (k === "policies") o.policies = v.split(",");
    else if (k in o) o[k] = Number(v);
    else throw new RangeError(`forgetting: unknown flag --${k}`);
  }
  return o;
}

/** A seeded Zipf draw over `n` items (item i has weight 1 / (rank_i)^s, ranks a seeded permutation). */
function zipf(n, s, r) {
  const rank = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [rank[i], rank[j]] = [rank[j], rank[i]]; }
  const w = rank.map((k) => 1 / (k + 1) ** s);
  return w;
}

/** Draw an index among the first `upto` items by weight `w`. */
function draw(w, upto, r) {
  let total = 0;
  for (let i = 0; i < upto; i++) total += w[i];
  let x = r() * total;
  for (let i = 0; i < upto; i++) { x -= w[i]; if (x < 0) return i; }
  return upto - 1;
}

async function months(mod, corpus, o, policy) {
  const r = rng(o.seed);
  const cache = await mod.openMemoryCache();
  const mems = corpus.memories;
  // the sections that have a known-item title, in corpus order: the questions' targets
  const titleOf = new Map([...corpus.queries.tune, ...corpus.queries.test].map((q) => [q.target, q]));
  const asked = mems.map((m, i) => i).filter((i) => titleOf.has(mems[i].path));
  const w = zipf(asked.length, o.zipf, rng(o.seed + 1000));
  const perDay = Math.ceil(mems.length / o.days);
  let sessionsFound = 0, sessionsAsked = 0, passes = 0, passMs = 0;
  for (let d = 0; d < o.days; d++) {
    const now = T0 + d * DAY;
    const batch = mems.slice(d * perDay, (d + 1) * perDay).map((m, k) => ({ ...m, createdAt: now + k }));
    if (batch.length) await cache.put(batch);
    const putSoFar = Math.min(mems.length, (d + 1) * perDay);
    const upto = asked.filter((i) => i < putSoFar).length;
    const notes = [];
    for (let k = 0; upto && k < o.questions; k++) {
      const q = titleOf.get(mems[asked[draw(w, upto, r)]].path);
      const t = now + 3_600_000 + k * 1_000_000; // the day's questions, 1,000 s apart (past the cooldown)
      const hits = (await cache.search({ text: q.text, vector: q.vector.some((x) => x !== 0) ? q.vector : null, limit: 10, now: t })).map((h) => h.path);
      sessionsAsked++;
      if (hits.includes(q.target)) {
        sessionsFound++;
        await cache.reinforce([q.target], { now: t, signal: "positive" });
      }
      notes.push({ path: `session/${d}/${k}`, gist: `While working on day ${d + 1} I looked up ${q.text}`,
        body: hits.includes(q.target) ? `The answer was in ${q.target}.` : "I did not find it.", type: "episodic", embedding: q.vector,
        createdAt: t });
    }
    if (notes.length) await cache.put(notes);
    if (policy !== null) {
      const t = performance.now();
      await cache.sleep({ now: now + 20 * 3_600_000, evict: true, policy, calibrate: false });
      passMs += performance.now() - t;
      passes++;
    }
  }
  // the final questions: the same popularity, over every section with a title
  const rf = rng(o.seed + 7);
  let found = 0;
  const end = T0 + o.days * DAY + 7 * DAY;
  for (let k = 0; k < o.final; k++) {
    const q = titleOf.get(mems[asked[draw(w, asked.length, rf)]].path);
    const hits = (await cache.search({ text: q.text, vector: q.vector.some((x) => x !== 0) ? q.vector : null, limit: 10, now: end })).map((h) => h.path);
    if (hits.includes(q.target)) found++;
  }
  const all = await cache.all();
  const live = all.filter((m) => m.archivedAt === null && m.supersededBy === null);
  const bytes = (xs) => xs.reduce((a, m) => a + Buffer.byteLength(m.gist) + Buffer.byteLength(m.body), 0);
  const archived = all.filter((m) => m.archivedAt !== null);
  const byType = (xs) => xs.reduce((a, m) => ({ ...a, [m.type]: (a[m.type] ?? 0) + 1 }), {});
  await cache.close();
  return { recall: found / o.final, sessionsRecall: sessionsFound / Math.max(1, sessionsAsked), memories: all.length, live: live.length,
    bytes: bytes(all), liveBytes: bytes(live), archived: byType(archived), passMs: passes ? passMs / passes : 0 };
}

async function main() {
  const o = args(process.argv.slice(2));
  const mod = await importCache();
  const corpus = await loadCorpus(o.corpus);
  const base = await months(mod, corpus, o, null);
  const rows = [];
  console.log(`\n### ${o.corpus}: ${o.days} daily sessions of ${o.questions} questions, ${o.final} final questions (Zipf ${o.zipf}, seed ${o.seed})\n`);
  console.log(`${corpus.memories.length.toLocaleString("en")} sections put over the days, ${(base.memories - corpus.memories.length).toLocaleString("en")} episodic session notes; ` +
    `during the sessions ${(100 * base.sessionsRecall).toFixed(1)}% of the questions found their section.\n`);
  console.log("| policy | final recall@10 | of never sleeping | live memories | live text | archived (by type) | ms per pass |");
  console.log("|---|--:|--:|--:|--:|---|--:|");
  const line = (name, x) => console.log(`| ${name} | ${x.recall.toFixed(3)} | ${(100 * x.recall / base.recall).toFixed(1)}% | ${x.live.toLocaleString("en")} | ` +
    `${(x.liveBytes / 1e6).toFixed(2)} MB (${(100 * x.liveBytes / x.bytes).toFixed(0)}%) | ${Object.entries(x.archived).map(([t, n]) => `${t} ${n}`).join(", ") || "none"} | ${x.passMs.toFixed(0)} |`);
  line("never sleeping", base);
  for (const name of o.policies) {
    const policy = POLICIES[name] ?? JSON.parse(name);
    const x = await months(mod, corpus, o, policy);
    rows.push({ name, policy, ...x });
    line(name, x);
  }
  if (o.json) writeFileSync(o.json, JSON.stringify({ options: o, base, rows }, null, 1));
}

main().catch((e) => { console.error(e?.stack ?? e); process.exit(1); });
