// frameKeyOf over 1,000,000 claims and mergeOutcomes over 100,000 pairs with
// texts: memdomain vs a plain-JavaScript implementation written the way the
// reference is (regex, split, Sets), same inputs, same process.
import { frameKeyOf as jsFrameKeyOf, mergeOutcomes as jsOutcomes } from "../tests/oracles/baseline-text.js";
import { load, row, rng, time } from "./lib.mjs";

const md = await load();
const rand = rng(4);
const pick = (a) => a[Math.floor(rand() * a.length)];

// ---- inputs ----
const SUBJ = ["The capital", "The population", "The CEO", "Die Hauptstadt", "La capitale", "The retry limit",
  "The default port", "Le président", "Η πρωτεύουσα", "The owner"];
const LINK = ["of", "is", "in", "to", "by", "as"];
const OBJ = ["India", "France", "São Paulo", "the gateway", "the deploy script", "Zürich", "東京", "Ελλάδα"];
const VAL = ["New Delhi", "42", "Marie Curie", "8080", "3 times", "Paris.", "not set", "v2.10 rc.1"];
const claims = Array.from({ length: 1_000_000 }, () =>
  `${pick(SUBJ)} ${pick(LINK)} ${pick(OBJ)}${rand() < 0.5 ? " is" : ""} ${pick(VAL)}${rand() < 0.3 ? "." : ""}`);
const WORDS = ["run", "the", "cutover", "during", "business", "hours", "draining", "does", "NOT", "complete", "retry",
  "3", "13", "times", "M1", "Pro", "deploy", "gateway", "isn't", "safe", "v2.10", "rc.1", "legacy", "port", "8080",
  "Zürich", "naïve", "ΣΟΦΙΑ", "café", "İstanbul"];
const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
const text = () => ({ gist: sentence(8), body: `${sentence(30)}\n${sentence(30)}` });
const paths = Array.from({ length: 5000 }, (_, i) => `areas/topic${i % 50}/memory-${i}.html`);
const pairs = Array.from({ length: 100_000 }, () => {
  const t = text();
  return { keepPath: pick(paths), dropPath: pick(paths), similarity: 0.9 + rand() * 0.1, keepText: t,
    dropText: rand() < 0.5 ? t : text() };
});
const opts = { maxPairs: Infinity };

// ---- same answers first ----
for (let i = 0; i < 20000; i++) if (md.frameKeyOf(claims[i]) !== jsFrameKeyOf(claims[i])) throw new Error(`frame mismatch: ${claims[i]}`);
const a = md.mergeOutcomes(pairs, opts), b = jsOutcomes(pairs, opts);
if (a.some((o, i) => o.stage !== b[i].stage)) throw new Error("mergeOutcomes mismatch");

row("frameKeyOf, 1,000,000 claims", time(() => { for (const c of claims) jsFrameKeyOf(c); }, 3, 1),
  time(() => { for (const c of claims) md.frameKeyOf(c); }, 3, 1));
const batch = md.frameKeysOf(claims);
if (batch.some((k, i) => k !== jsFrameKeyOf(claims[i]))) throw new Error("frameKeysOf mismatch");
row("frameKeysOf (batch), 1,000,000 claims", time(() => claims.map(jsFrameKeyOf), 3, 1),
  time(() => md.frameKeysOf(claims), 3, 1));
row("mergeOutcomes, 100,000 pairs with texts", time(() => jsOutcomes(pairs, opts), 3, 1),
  time(() => md.mergeOutcomes(pairs, opts), 3, 1));
