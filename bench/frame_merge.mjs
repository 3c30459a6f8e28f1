// frameKeyOf over 1,000,000 claims and mergeOutcomes over 100,000 pairs with
// texts: memdomain vs a plain-JavaScript implementation written the way the
// reference is (regex, split, Sets), same inputs, same process.
import { load, row, rng, time } from "./lib.mjs";

const md = await load();
const rand = rng(4);
const pick = (a) => a[Math.floor(rand() * a.length)];

// ---- the reference, as plain JavaScript ----
function jsFrameKeyOf(gist) {
  const s = gist.replace(/\s+/g, " ").trim();
  const m = s.match(/^(.*\b(?:of|is|in|to|by|as)\b)\s+(.+?)\.?$/);
  if (!m) return null;
  if (m[1].split(" ").length < 3) return null;
  const n = m[2].split(" ").length;
  if (n < 1 || n > 6) return null;
  return m[1].toLowerCase();
}
const EXPANSIONS = [["isn't", "is not"], ["aren't", "are not"], ["wasn't", "was not"], ["weren't", "were not"],
  ["don't", "do not"], ["doesn't", "does not"], ["didn't", "did not"], ["won't", "will not"], ["can't", "can not"],
  ["cannot", "can not"], ["couldn't", "could not"], ["shouldn't", "should not"], ["wouldn't", "would not"],
  ["mustn't", "must not"], ["haven't", "have not"], ["hasn't", "has not"], ["hadn't", "had not"], ["n't", " not"]];
const NEG = new Set(["not", "no", "never", "none", "cannot", "without", "neither", "nor", "avoid", "disallow",
  "disallowed", "forbidden", "unsafe", "invalid", "false", "fail", "fails", "failed", "deny", "denied", "reject", "rejected"]);
const VAR = new Set(["pro", "max", "beta", "alpha", "rc", "preview", "legacy", "deprecated", "experimental"]);
function tokens(text) {
  let t = text.normalize("NFC").toLowerCase();
  for (const [a, b] of EXPANSIONS) t = t.replaceAll(a, b);
  return t.match(/[a-z0-9]+(?:\.[0-9]+)*/g) ?? [];
}
const eq = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
function jsReasons(a, b) {
  const ta = tokens(`${a.gist}\n${a.body}`), tb = tokens(`${b.gist}\n${b.body}`);
  const r = [];
  if (ta.some((t) => NEG.has(t)) !== tb.some((t) => NEG.has(t))) r.push("negation");
  const na = new Set(tokens(a.gist).filter((t) => /[0-9]/.test(t))), nb = new Set(tokens(b.gist).filter((t) => /[0-9]/.test(t)));
  if ((na.size || nb.size) && !eq(na, nb)) r.push("numeric");
  if (!eq(new Set(ta.filter((t) => VAR.has(t))), new Set(tb.filter((t) => VAR.has(t))))) r.push("variant");
  return r;
}
function jsOutcomes(pairs, { maxPairs = 100, threshold = 0.92 } = {}) {
  const dropped = new Set(), kept = new Set();
  let n = 0;
  return pairs.map((pair) => {
    let stage;
    if (n >= maxPairs) stage = "cap";
    else if (pair.similarity <= threshold) stage = "threshold";
    else if (pair.keepText && pair.dropText && jsReasons(pair.keepText, pair.dropText).length) stage = "vetoed";
    else if (pair.keepPath === pair.dropPath) stage = "self";
    else if (dropped.has(pair.dropPath) || kept.has(pair.dropPath) || dropped.has(pair.keepPath)) stage = "role-guard";
    else { stage = "committed"; dropped.add(pair.dropPath); kept.add(pair.keepPath); n++; }
    return { pair, stage };
  });
}

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
