// Plain-JavaScript frameKeyOf, merge guards, mergeOutcomes and
// connectedComponents written the way the reference is (regex, split, Sets,
// a Map union-find): the baselines of bench/boundary.mjs and
// bench/frame_merge.mjs, and the merge suite's reference (tests/js/merge.test.js).
// Not part of the package.
export function frameKeyOf(gist) {
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
export const NEGATIONS = new Set(["not", "no", "never", "none", "cannot", "without", "neither", "nor", "avoid", "disallow",
  "disallowed", "forbidden", "unsafe", "invalid", "false", "fail", "fails", "failed", "deny", "denied", "reject", "rejected"]);
const VAR = new Set(["pro", "max", "beta", "alpha", "rc", "preview", "legacy", "deprecated", "experimental"]);
/** The reference's tokens: NFC, lowercase, contractions expanded, then [a-z0-9]+ with dotted numbers. */
export function tokens(text) {
  let t = text.normalize("NFC").toLowerCase();
  for (const [a, b] of EXPANSIONS) t = t.replaceAll(a, b);
  return t.match(/[a-z0-9]+(?:\.[0-9]+)*/g) ?? [];
}
const eq = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const numeric = (s) => new Set(tokens(s).filter((t) => /[0-9]/.test(t)));
export const negationDivergent = (a, b) => tokens(a).some((t) => NEGATIONS.has(t)) !== tokens(b).some((t) => NEGATIONS.has(t));
export function numericTokenDivergent(a, b) {
  const na = numeric(a), nb = numeric(b);
  return (na.size > 0 || nb.size > 0) && !eq(na, nb);
}
export const variantQualifierDivergent = (a, b) =>
  !eq(new Set(tokens(a).filter((t) => VAR.has(t))), new Set(tokens(b).filter((t) => VAR.has(t))));
/** The three guards over two memories' texts; each joined text is tokenized once (the benchmark's baseline). */
export function mergeVetoReasons(a, b) {
  const ta = tokens(`${a.gist}\n${a.body}`), tb = tokens(`${b.gist}\n${b.body}`);
  const r = [];
  if (ta.some((t) => NEGATIONS.has(t)) !== tb.some((t) => NEGATIONS.has(t))) r.push("negation");
  if (numericTokenDivergent(a.gist, b.gist)) r.push("numeric");
  if (!eq(new Set(ta.filter((t) => VAR.has(t))), new Set(tb.filter((t) => VAR.has(t))))) r.push("variant");
  return r;
}
export function mergeOutcomes(pairs, { maxPairs = 100, threshold = 0.92 } = {}) {
  const dropped = new Set(), kept = new Set();
  let n = 0;
  return pairs.map((pair) => {
    let stage;
    if (n >= maxPairs) stage = "cap";
    else if (pair.similarity <= threshold) stage = "threshold";
    else if (pair.keepText && pair.dropText && mergeVetoReasons(pair.keepText, pair.dropText).length) stage = "vetoed";
    else if (pair.keepPath === pair.dropPath) stage = "self";
    else if (dropped.has(pair.dropPath) || kept.has(pair.dropPath) || dropped.has(pair.keepPath)) stage = "role-guard";
    else { stage = "committed"; dropped.add(pair.dropPath); kept.add(pair.keepPath); n++; }
    return { pair, stage };
  });
}

/** Union-find over a Map where the smaller key always becomes the root (path halving). */
export function connectedComponents(edges) {
  const parent = new Map();
  const find = (x) => {
    let p = parent.get(x);
    while (p !== x) {
      const g = parent.get(p);
      parent.set(x, g);
      x = p;
      p = g;
    }
    return x;
  };
  for (const [a, b] of edges) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a), rb = find(b);
    if (ra === rb) continue;
    if (ra < rb) parent.set(rb, ra);
    else parent.set(ra, rb);
  }
  const groups = new Map();
  for (const k of parent.keys()) {
    const r = find(k);
    const g = groups.get(r);
    if (g) g.push(k); else groups.set(r, [k]);
  }
  const out = [...groups.values()];
  for (const g of out) g.sort();
  out.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return out;
}
