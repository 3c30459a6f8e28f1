// The merge module (on the build tests/js/build.js selects): agreement with a plain-JavaScript port
// written the way the reference is (regex tokens, Sets), and the design's
// properties: the predicates and the veto are symmetric, connectedComponents
// is invariant under shuffle and mirror of its edge set, mergeOutcomes never
// drops a path twice, never drops a keeper, never keeps a dropped path, and
// its committed subset is mergeCandidates.
import fc from "fast-check";
import * as md from "../../js/index.js";
import { call, encodeWtf8, slots, u8 } from "../../js/src/core.js";
import { BUILD, testWasmBytes as wasmBytes } from "./build.js";
// The reference, from the design and FACTS section 8: the plain-JavaScript port in tests/oracles.
import * as ref from "../oracles/baseline-text.js";
import { NEGATIONS, tokens } from "../oracles/baseline-text.js";

// ---- generators ----
const WORDS = ["not", "NOT", "Not", "ＮＯＴ", "never", "none", "cannot", "xcannot", "isn't", "don't", "ain't", "n't",
  "won’t", "can't", "n\u0303't", "pro", "Pro", "PRO", "proactive", "pro-active", "max", "MAX", "ΜΑΧ", "beta", "2beta",
  "rc", "rc.1", "RC", "preview", "legacy", "deprecated", "experimental", "alpha", "3", "13", "03", "1.2.3.4", "v2.10",
  "1e5", "0.92", "3.", ".5", "x86_64", "M1", "İNVALID", "i\u0307nvalid", "invalid", "\u212aey", "cafe\u0301", "ﬁx",
  "safe", "unsafe", "retry", "the", "deploy", "Σ", "ΟΔΟΣ", "😀", "\ud800", "fail", "failed", "deny", "reject", "nor"];
const SEPS = [" ", " ", "\n", ", ", "; ", " - ", "'", ".", ""];
const text = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { maxLength: 10 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));
const mergeText = fc.record({ gist: text, body: text });
const PATHS = ["a", "b", "c", "d", "e", "K", "é", "\ud800", "\u{1f600}", "\uff5e"];
const path = fc.constantFrom(...PATHS);
const pair = fc.record({
  keepPath: path,
  dropPath: path,
  similarity: fc.oneof(fc.constantFrom(0.92, 0.93, 1, NaN, -Infinity, Infinity, 0.5), fc.double({ min: 0.8, max: 1 })),
  keepText: fc.option(mergeText, { nil: undefined }),
  dropText: fc.option(mergeText, { nil: undefined }),
}, { requiredKeys: ["keepPath", "dropPath", "similarity"] });
const options = fc.option(fc.record({
  maxPairs: fc.constantFrom(0, 1, 2, 3, 2.5, 100, NaN, -1),
  threshold: fc.constantFrom(0.92, 0.9, 0.5, 1, NaN, -Infinity),
}, { requiredKeys: [] }), { nil: undefined });

function shuffle(arr, seed) {
  const a = [...arr];
  let s = seed >>> 0;
  for (let i = a.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

  describe(`merge (${BUILD})`, () => {
    beforeAll(() => md.initSync(wasmBytes()));

    test("the design's examples", () => {
      expect(md.negationDivergent("X is safe", "X is NOT safe")).toBe(true);
      expect(md.numericTokenDivergent("retry 3 times", "retry 13 times")).toBe(true);
      expect(md.numericTokenDivergent("no numbers", "none here")).toBe(false);
      expect(md.variantQualifierDivergent("M1", "M1 Pro")).toBe(true);
      expect(md.joinMergeText({ gist: "a", body: "b" })).toBe("a\nb");
      // numeric reads the gist only; negation reads the body too
      expect(md.mergeVetoReasons({ gist: "x", body: "retry 3" }, { gist: "x", body: "retry 13" })).toEqual([]);
      expect(md.mergeVetoReasons({ gist: "x 1", body: "draining does NOT complete" }, { gist: "x 2", body: "pro" }))
        .toEqual(["negation", "numeric", "variant"]);
      const chain = md.mergeOutcomes([{ keepPath: "gf", dropPath: "a", similarity: 1 }, { keepPath: "b", dropPath: "gf", similarity: 1 }]);
      expect(chain.map((o) => o.stage)).toEqual(["committed", "role-guard"]);
      const keeper = md.mergeOutcomes([{ keepPath: "k", dropPath: "a", similarity: 1 }, { keepPath: "k", dropPath: "b", similarity: 1 }]);
      expect(keeper.map((o) => o.stage)).toEqual(["committed", "committed"]);
    });

    test("agrees with the reference port on random texts", () => {
      fc.assert(fc.property(text, text, (a, b) => {
        for (const fn of ["negationDivergent", "numericTokenDivergent", "variantQualifierDivergent"])
          expect([fn, md[fn](a, b)]).toEqual([fn, ref[fn](a, b)]);
      }), { numRuns: 3000 });
      fc.assert(fc.property(mergeText, mergeText, (a, b) => {
        expect(md.mergeVetoReasons(a, b)).toEqual(ref.mergeVetoReasons(a, b));
        expect(md.mergeVetoed(a, b)).toBe(ref.mergeVetoReasons(a, b).length > 0);
      }), { numRuns: 2000 });
    });

    test("the guards' tokens equal the reference's on random texts and contraction soup", () => {
      const mdTokens = (s) => {
        const bytes = new Uint8Array(3 * s.length), len = encodeWtf8(s, bytes, 0); // WTF-8, as a key table holds it
        return call("mdTokens", "mdw_merge_tokens", [u8(bytes, len), len, slots], (r) => {
          const block = r.block(0), n = r.slot(1);
          const joined = new TextDecoder().decode(r.heap.u8.slice(block, block + n));
          return joined ? joined.split(" ") : [];
        });
      };
      const FRAG = ["isn't", "n't", "'t", "n'", "can", "cannot", "not", "no", "is", "does", "do", "wo", "won", "sho",
        "could", "uld", "ha", "ve", "d", "s", "were", "are", "must", "x", "1", ".2", "pro", " ", "'", "\u0303", "N'T"];
      const soup = fc.array(fc.constantFrom(...FRAG), { maxLength: 16 }).map((a) => a.join(""));
      fc.assert(fc.property(fc.oneof(soup, text), (s) => {
        expect(mdTokens(s)).toEqual(tokens(s));
      }), { numRuns: 10000 });
    });

    test("contraction soup: the expansions agree with the reference's replaceAll passes", () => {
      const FRAG = ["isn't", "n't", "'t", "n'", "can", "cannot", "not", "no", "is", "does", "do", "wo", "sho", "could",
        "uld", "ha", "ve", "d", "s", "were", "are", "must", "x", "1", ".2", "pro", " ", "'", "\u0303", "N'T"];
      const soup = fc.array(fc.constantFrom(...FRAG), { maxLength: 16 }).map((a) => a.join(""));
      fc.assert(fc.property(soup, soup, (a, b) => {
        expect(md.negationDivergent(a, b)).toBe(ref.negationDivergent(a, b));
        expect(md.numericTokenDivergent(a, b)).toBe(ref.numericTokenDivergent(a, b));
        expect(md.variantQualifierDivergent(a, b)).toBe(ref.variantQualifierDivergent(a, b));
        // a lone side against nothing exposes its own tokens
        expect(md.negationDivergent(a, "")).toBe(tokens(a).some((t) => NEGATIONS.has(t)));
      }), { numRuns: 5000 });
    });

    test("the predicates and the veto are symmetric", () => {
      fc.assert(fc.property(text, text, (a, b) => {
        expect(md.negationDivergent(a, b)).toBe(md.negationDivergent(b, a));
        expect(md.numericTokenDivergent(a, b)).toBe(md.numericTokenDivergent(b, a));
        expect(md.variantQualifierDivergent(a, b)).toBe(md.variantQualifierDivergent(b, a));
      }), { numRuns: 2000 });
      fc.assert(fc.property(mergeText, mergeText, (a, b) => {
        expect(md.mergeVetoReasons(a, b)).toEqual(md.mergeVetoReasons(b, a));
        expect(md.mergeVetoed(a, b)).toBe(md.mergeVetoed(b, a));
      }), { numRuns: 1000 });
    });

    test("mergeOutcomes agrees with the reference and keeps its invariants", () => {
      fc.assert(fc.property(fc.array(pair, { maxLength: 25 }), options, (pairs, opts) => {
        const out = md.mergeOutcomes(pairs, opts);
        expect(out.map((o) => o.stage)).toEqual(ref.mergeOutcomes(pairs, opts).map((o) => o.stage));
        out.forEach((o, i) => expect(o.pair).toBe(pairs[i])); // the input objects themselves
        const dropped = new Set(), kept = new Set();
        for (const { pair: p, stage } of out) {
          if (stage !== "committed") continue;
          expect(dropped.has(p.dropPath)).toBe(false); // never dropped twice
          expect(kept.has(p.dropPath)).toBe(false); // a keeper is never dropped
          expect(dropped.has(p.keepPath)).toBe(false); // a dropped path is never kept
          expect(p.keepPath).not.toBe(p.dropPath);
          dropped.add(p.dropPath);
          kept.add(p.keepPath);
        }
        const committed = out.filter((o) => o.stage === "committed")
          .map(({ pair: p }) => ({ keepPath: p.keepPath, dropPath: p.dropPath, similarity: p.similarity }));
        expect(md.mergeCandidates(pairs, opts)).toEqual(committed);
        const cap = opts?.maxPairs ?? 100;
        expect(committed.length <= Math.max(0, Math.ceil(cap)) || Number.isNaN(cap)).toBe(true);
      }), { numRuns: 1500 });
    });

    test("connectedComponents is invariant under shuffle and mirror of the edge set", () => {
      const edge = fc.tuple(path, path);
      fc.assert(fc.property(fc.array(edge, { maxLength: 20 }), fc.integer(), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        (edges, seed, flips) => {
          const base = md.connectedComponents(edges);
          const moved = shuffle(edges, seed).map((e, i) => (flips[i] ? [e[1], e[0]] : e));
          expect(md.connectedComponents(moved)).toEqual(base);
          expect(md.connectedComponents([...edges, ...edges.map(([a, b]) => [b, a])])).toEqual(base);
          // Members sorted, components ordered by root, each key once.
          for (const c of base) expect(c).toEqual([...c].sort());
          expect(base.map((c) => c[0])).toEqual(base.map((c) => c[0]).sort());
          expect(base.flat().length).toBe(new Set(edges.flat()).size);
          // Two keys share a component exactly when a path of edges joins them.
          const comp = new Map();
          base.forEach((c, i) => c.forEach((k) => comp.set(k, i)));
          for (const [a, b] of edges) expect(comp.get(a)).toBe(comp.get(b));
        }), { numRuns: 1000 });
    });

    test("excludeSelfSupersede removes the canonical and keeps order", () => {
      fc.assert(fc.property(path, fc.array(path, { maxLength: 12 }), (c, members) => {
        expect(md.excludeSelfSupersede(c, members)).toEqual(members.filter((m) => m !== c));
      }), { numRuns: 500 });
    });

    test("bad input throws a TypeError naming the argument", () => {
      expect(() => md.negationDivergent("a", 1)).toThrow(/negationDivergent: textB/);
      expect(() => md.mergeVetoReasons({ gist: "a" }, { gist: "b", body: "" })).toThrow(/mergeVetoReasons: textA.body/);
      expect(() => md.joinMergeText(null)).toThrow(/joinMergeText: text/);
      expect(() => md.mergeOutcomes("x")).toThrow(/mergeOutcomes: pairs/);
      expect(() => md.mergeOutcomes([{ keepPath: "a", dropPath: 2, similarity: 1 }])).toThrow(/pairs\[0\]\.dropPath/);
      expect(() => md.mergeOutcomes([{ keepPath: "a", dropPath: "b", similarity: "1" }])).toThrow(/pairs\[0\]\.similarity/);
      expect(() => md.mergeCandidates([], { maxPairs: "3" })).toThrow(/options\.maxPairs/);
      expect(() => md.mergeCandidates([{ keepPath: "a", dropPath: "b", similarity: 1, keepText: 5, dropText: { gist: "", body: "" } }]))
        .toThrow(/pairs\[0\]\.keepText/);
      expect(() => md.connectedComponents([["a"]])).toThrow(/connectedComponents: edges\[0\]/);
      expect(() => md.connectedComponents([["a", 1]])).toThrow(/edges\[0\]\[1\]/);
      expect(() => md.excludeSelfSupersede("a", [1])).toThrow(/memberPaths\[0\]/);
      for (const f of [() => md.mergeOutcomes(null), () => md.excludeSelfSupersede(1, [])]) expect(f).toThrow(TypeError);
      expect(md.mergeCandidates([{ keepPath: "a", dropPath: "b", similarity: 1 }]).length).toBe(1); // still usable
    });
  });
