// merge module: the near-duplicate merge guards, mergeOutcomes with its role
// guard, connectedComponents and excludeSelfSupersede.
import { call, keys, out, slots, u32, f64 } from "./core.js";
import { arg, elementBad, fields, item, obj, str, typeError } from "./validate.js";
import { ARGS } from "./args.js";
import { MAX_MERGE_PAIRS, MERGE_STAGES as STAGES, NEAR_DUPLICATE_THRESHOLD, OUT_COMPONENTS_IDS_BLOCK, OUT_COMPONENTS_IDS_COMPONENTS,
  OUT_COMPONENTS_IDS_MEMBERS, OUT_MERGE_PREDICATE_RESULT } from "./constants.js";

export { MAX_MERGE_PAIRS, NEAR_DUPLICATE_THRESHOLD };

const COMMITTED = STAGES.indexOf("committed");
// Pairs and edges are u32-indexed key tables in the core (6 and 2 keys each; a
// pair also has a Float64Array slot, kept under core.js's element limit): their
// rows in wasm/boundary.def state the most entries each takes (`of at most`),
// checked up front so a huge (sparse) array is a RangeError naming the argument.
const REASONS = [[1, "negation"], [2, "numeric"], [4, "variant"]];

function mergeText(fn, arg, t) {
  obj(fn, arg, t);
  str(fn, `${arg}.gist`, t.gist);
  str(fn, `${arg}.body`, t.body);
  return t;
}

/** textA and textB of a row that takes two MergeTexts (mergeVetoReasons, mergeVetoed): [gistA, bodyA, gistB, bodyB]. */
const twoTexts = (d, textA, textB) => [...fields(d, 0, textA), ...fields(d, 1, textB)];

/** The joined text the negation and variant predicates read: claim, newline, article. */
export function joinMergeText(text) {
  const t = mergeText("joinMergeText", "text", text);
  return `${t.gist}\n${t.body}`;
}

function predicate(fn, which, strings) {
  return call(fn, "mdw_merge_predicate", [keys(strings), strings.length, which, slots],
    (r) => r.slot(OUT_MERGE_PREDICATE_RESULT));
}

/** True when exactly one side carries a negation marker. */
export function negationDivergent(textA, textB) {
  const d = ARGS.negationDivergent;
  return predicate(d[0], 0, [arg(d, 0, textA), arg(d, 1, textB)]) !== 0;
}

/** True when the two texts carry different numeric tokens. */
export function numericTokenDivergent(textA, textB) {
  const d = ARGS.numericTokenDivergent;
  return predicate(d[0], 1, [arg(d, 0, textA), arg(d, 1, textB)]) !== 0;
}

/** True when the two texts carry different variant qualifiers. */
export function variantQualifierDivergent(textA, textB) {
  const d = ARGS.variantQualifierDivergent;
  return predicate(d[0], 2, [arg(d, 0, textA), arg(d, 1, textB)]) !== 0;
}

function vetoMask(d, textA, textB) {
  return predicate(d[0], 3, twoTexts(d, textA, textB));
}

/** Which divergence predicates fire: negation and variant over the joined text, numeric over the gist. */
export function mergeVetoReasons(textA, textB) {
  const mask = vetoMask(ARGS.mergeVetoReasons, textA, textB);
  return REASONS.filter(([bit]) => mask & bit).map(([, name]) => name);
}

/** The veto: true when any divergence predicate fires. */
export function mergeVetoed(textA, textB) {
  return vetoMask(ARGS.mergeVetoed, textA, textB) !== 0;
}

const NO_TEXT = 0xffffffff;

/**
 * The stage of every pair. Paths cross as ids (a Map, as the reference's
 * Sets would hash them anyway) and each distinct MergeText object once
 * (its gist and body, read once), so C tokenizes a text once however many
 * pairs name it.
 */
function stagesOf(d, pairs, options) {
  const fn = d[0];
  arg(d, 0, pairs);
  // The reference reads both with `??`: null is the default too.
  const [maxPairs, threshold] = fields(d, 1, options);
  const n = pairs.length;
  const ids = new Uint32Array(4 * n), sims = new Float64Array(n);
  const paths = Object.create(null), textIds = new Map(), strings = [];
  let nPaths = 0;
  const text = (i, field, t) => {
    if (t === undefined || t === null) return NO_TEXT;
    let id = textIds.get(t);
    if (id === undefined) {
      mergeText(fn, `pairs[${i}].${field}`, t);
      id = strings.length >>> 1;
      strings.push(t.gist, t.body);
      textIds.set(t, id);
    }
    return id;
  };
  const path = (i, q, p) => {
    if (typeof p !== "string") elementBad(d, 0, i, q, p);
    let id = paths[p];
    if (id === undefined) paths[p] = id = nPaths++;
    return id;
  };
  for (let i = 0; i < n; i++) {
    const p = pairs[i];
    // The table's element fields in its order (keepPath 0, dropPath 1, similarity 2, keepText 3, dropText 4),
    // checked inline (a sleep pass sends 100,000 pairs); a name is built only for an error.
    if (p === null || typeof p !== "object") elementBad(d, 0, i, -1, p);
    ids[i] = path(i, 0, p.keepPath);
    ids[n + i] = path(i, 1, p.dropPath);
    const s = p.similarity;
    sims[i] = typeof s === "number" ? s : elementBad(d, 0, i, 2, s);
    ids[2 * n + i] = text(i, "keepText", p.keepText);
    ids[3 * n + i] = text(i, "dropText", p.dropText);
  }
  const stages = out.u8(n), at = (k) => u32(ids.subarray(k * n, (k + 1) * n));
  return call(fn, "mdw_merge_outcomes", [keys(strings), strings.length >>> 1, at(0), at(1), nPaths, at(2), at(3),
    f64(sims), n, maxPairs, threshold, stages],
  (r) => r.view(stages).slice());
}

/** Every pair with the stage where it stopped: cap, threshold, vetoed, self, role-guard or committed. */
export function mergeOutcomes(pairs, options) {
  const stages = stagesOf(ARGS.mergeOutcomes, pairs, options);
  const out = new Array(stages.length);
  for (let i = 0; i < stages.length; i++) out[i] = { pair: pairs[i], stage: STAGES[stages[i]] };
  return out;
}

/** The committed outcomes of mergeOutcomes, in input order, as decisions. */
export function mergeCandidates(pairs, options) {
  const stages = stagesOf(ARGS.mergeCandidates, pairs, options);
  const out = [];
  for (let i = 0; i < stages.length; i++) {
    if (stages[i] !== COMMITTED) continue;
    const p = pairs[i];
    out.push({ keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity });
  }
  return out;
}

/** Connected components over an undirected edge list, as sorted member lists ordered by root. */
export function connectedComponents(edges) {
  const fn = "connectedComponents";
  arg(ARGS.connectedComponents, 0, edges);
  const m = edges.length;
  // Strings cross once: each distinct key is sent once (its bytes: C orders
  // them), every edge end as that key's id.
  // A null-prototype object as the intern table: for string keys the same
  // lookup as a Map (every string an ordinary own key), and faster in V8.
  const index = Object.create(null), names = [], ends = new Uint32Array(2 * m);
  for (let i = 0; i < m; i++) {
    const e = edges[i];
    if (!Array.isArray(e) || e.length < 2) throw typeError(fn, `edges[${i}]`, "a [string, string] pair", e);
    const a = e[0], b = e[1];
    if (typeof a !== "string") str(fn, `edges[${i}][0]`, a);
    if (typeof b !== "string") str(fn, `edges[${i}][1]`, b);
    let ia = index[a];
    if (ia === undefined) { index[a] = ia = names.length; names.push(a); }
    let ib = index[b];
    if (ib === undefined) { index[b] = ib = names.length; names.push(b); }
    ends[2 * i] = ia;
    ends[2 * i + 1] = ib;
  }
  return call(fn, "mdw_components_ids", [keys(names), names.length, u32(ends), m, slots], (r) => {
    const block = r.block(OUT_COMPONENTS_IDS_BLOCK) >>> 2, nMembers = r.slot(OUT_COMPONENTS_IDS_MEMBERS),
      nComp = r.slot(OUT_COMPONENTS_IDS_COMPONENTS);
    const { u32: h } = r.heap;
    const comps = new Array(nComp);
    for (let c = 0; c < nComp; c++) {
      const a = h[block + nMembers + c], b = h[block + nMembers + c + 1];
      const members = new Array(b - a);
      for (let j = a; j < b; j++) members[j - a] = names[h[block + j]];
      comps[c] = members;
    }
    return comps;
  });
}

/** The members of a batch to supersede, with the canonical removed and order preserved. */
export function excludeSelfSupersede(canonicalPath, memberPaths) {
  const fn = "excludeSelfSupersede", a = ARGS.excludeSelfSupersede;
  arg(a, 0, canonicalPath);
  arg(a, 1, memberPaths);
  const all = new Array(memberPaths.length + 1);
  all[0] = canonicalPath;
  for (let i = 0; i < memberPaths.length; i++) {
    const p = memberPaths[i];
    all[i + 1] = typeof p === "string" ? p : item(a, 1, i, p);
  }
  const keep = out.u8(memberPaths.length);
  return call(fn, "mdw_exclude_self_supersede", [keys(all), memberPaths.length, keep], (r) => {
    const k = r.view(keep);
    return memberPaths.filter((_, i) => k[i] !== 0);
  });
}
