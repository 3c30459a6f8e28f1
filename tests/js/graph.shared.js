// The graph module's JS suite, run on one wasm build by graph.test.js (clang)
// and graph.emcc.test.js: agreement with the plain-JavaScript reference
// (tests/oracles/baseline-graph.js, written from the design), the Graph handle equal
// to the one-shot functions, the design's properties, and bad input.
import fc from "fast-check";
import * as ref from "../oracles/baseline-graph.js";
import { rng as mulberry } from "../oracles/rng.js";

// Keys that exercise UTF-16 order (astral vs U+FF5E), spaces (the fold-key
// divergence), a lone surrogate and the empty string.
const KEYS = ["a", "b", "B", "c", "é", "\u{1F600}", "\uFF5E", "\uD800", "a b", "b c", "", "z", "m", "q"];
const keyArb = fc.constantFrom(...KEYS);
const strengthArb = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1, 0.5, -0.5, 2, NaN, Infinity, -Infinity) },
);
const edgeArb = fc.record({ src: keyArb, dst: keyArb, strength: strengthArb });
const graphArb = fc.record({
  nodes: fc.array(keyArb, { maxLength: 12 }),
  edges: fc.array(edgeArb, { maxLength: 30 }),
});
// In-contract strengths. Subnormal strengths are left out: (mass * s) / w
// underflows there, so the reference arithmetic itself leaks mass.
const cleanEdgeArb = fc.record({
  src: keyArb, dst: keyArb,
  strength: fc.oneof(fc.constant(0), fc.double({ min: 1e-9, max: 1, noNaN: true })),
});
const cleanGraphArb = fc.record({
  nodes: fc.uniqueArray(keyArb, { minLength: 1, maxLength: 14 }),
  edges: fc.array(cleanEdgeArb, { maxLength: 40 }),
});
const countArb = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0.5, 1.5, 2.0001, -1, NaN, 0));

/** Object.is over Maps, with entries in order. */
export function sameMap(a, b) {
  const x = [...a], y = [...b];
  if (x.length !== y.length) return false;
  return x.every(([k, v], i) => Object.is(k, y[i][0]) && Object.is(v, y[i][1]));
}

function shuffle(xs, rnd) {
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A random graph with string keys: n nodes, about m edges, some dangling nodes. */
export function randomGraph(n, m, seed) {
  const rnd = mulberry(seed);
  const nodes = Array.from({ length: n }, (_, i) => `n${i}`);
  const edges = [];
  for (let i = 0; i < m; i++) {
    const s = Math.floor(rnd() * n), d = Math.floor(rnd() ** 2 * n);
    if (s % 7 === 3) continue; // dangling sources
    edges.push({ src: nodes[s], dst: nodes[d], strength: rnd() });
  }
  return { nodes, edges };
}

const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);

export function graphSuite(label, md, exportsObj) {
  describe(`${label}: agreement with the reference-style JavaScript`, () => {
    test("pagerank equals the reference bit for bit (quirky strengths and counts included)", () => {
      fc.assert(fc.property(graphArb, fc.record({
        damping: fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 1, noNaN: true })),
        maxIterations: fc.oneof(fc.constant(undefined), countArb),
        tolerance: fc.oneof(fc.constant(undefined), fc.constantFrom(0, 1e-12, 1e-3, 1)),
        seeds: fc.oneof(fc.constant(undefined), fc.array(fc.tuple(fc.oneof(keyArb, fc.constant("absent")), strengthArb), { maxLength: 5 }).map((e) => new Map(e))),
      }, { requiredKeys: [] }), ({ nodes, edges }, o) => {
        expect(sameMap(md.pagerank(nodes, edges, o), ref.pagerank(nodes, edges, o))).toBe(true);
      }), { numRuns: 400 });
    });

    test("pagerank at damping 1: the dangling mass reaches a seed that holds none (sparse steps), as the reference", () => {
      // fast-check's counterexample (seed -218183983): the walk alternates between "b c" and "a"; the sparse step
      // left "b c" out once it held no mass, so dangling * t never reached it and every score fell to 0
      const nodes = ["a", "é", "\ud800", "～", "m", "b c", "b", "q"];
      for (const strength of [5e-324, 1]) for (const w of [5e-324, 1]) for (const maxIterations of [1, 2, 3, 100, undefined]) {
        const edges = [{ src: "b c", dst: "a", strength }], o = { damping: 1, seeds: new Map([["b c", w]]), maxIterations };
        expect(sameMap(md.pagerank(nodes, edges, o), ref.pagerank(nodes, edges, o))).toBe(true);
      }
      expect(md.pagerank(nodes, [{ src: "b c", dst: "a", strength: 1 }], { damping: 1, seeds: new Map([["b c", 1]]), maxIterations: 2 }).get("b c")).toBe(1);
    });

    test("labelPropagation equals the reference", () => {
      fc.assert(fc.property(graphArb, fc.record({
        minCommunitySize: fc.oneof(fc.constant(undefined), fc.constantFrom(0, 1, 2, 3, 2.5, NaN, 5)),
        maxSweeps: fc.oneof(fc.constant(undefined), countArb),
      }, { requiredKeys: [] }), ({ nodes, edges }, o) => {
        expect(sameMap(md.labelPropagation(nodes, edges, o), ref.labelPropagation(nodes, edges, o))).toBe(true);
      }), { numRuns: 400 });
    });

    test("bridgeCounts equals the reference, for computed and arbitrary communities", () => {
      const labelArb = fc.oneof(keyArb, fc.constant(undefined));
      fc.assert(fc.property(graphArb, fc.array(fc.tuple(keyArb, labelArb), { maxLength: 12 }), ({ nodes, edges }, cs) => {
        const lp = md.labelPropagation(nodes, edges, { minCommunitySize: 2 });
        expect(sameMap(md.bridgeCounts(nodes, edges, lp), ref.bridgeCounts(nodes, edges, lp))).toBe(true);
        const c = new Map(cs);
        expect(sameMap(md.bridgeCounts(nodes, edges, c), ref.bridgeCounts(nodes, edges, c))).toBe(true);
      }), { numRuns: 300 });
    });

    test("personalized walks over sparse, power-law and adversarial graphs equal the reference (the walk over the nodes holding mass)", () => {
      // A seeded walk steps over the nodes holding mass only, until it holds mass on an eighth of
      // the graph; these cover walks that stay local, that cross that line midway, that end on a
      // tolerance, quirky strengths (negative, infinite: every node is then stepped), dangling seeds.
      const rnd = mulberry(11);
      let cases = 0;
      for (const [n, m, skew] of [[200, 60, 1], [400, 300, 3], [1000, 500, 2], [300, 2000, 1], [2000, 1200, 4]]) {
        for (let round = 0; round < 6; round++) {
          const nodes = Array.from({ length: n }, (_, i) => `n${i}`);
          const edges = [];
          for (let i = 0; i < m; i++) {
            const s = Math.floor(rnd() ** skew * n), d = Math.floor(rnd() ** skew * n);
            const q = rnd();
            edges.push({ src: nodes[s], dst: nodes[d], strength: q < 0.05 ? 0 : q < 0.07 ? -0.5 : q < 0.08 && round === 5 ? Infinity : rnd() });
          }
          const seeds = new Map(Array.from({ length: 1 + round }, (_, i) => [nodes[Math.floor(rnd() * n)], i === 2 ? 0 : 0.1 + rnd()]));
          for (const o of [{ seeds }, { seeds, maxIterations: 1 + round }, { seeds, tolerance: 0, maxIterations: 12 },
            { seeds, damping: round === 4 ? 1 : 0.6 }]) {
            const want = ref.pagerank(nodes, edges, o), got = md.pagerank(nodes, edges, o);
            expect(sameMap(got, want)).toBe(true);
            cases++;
          }
        }
      }
      expect(cases).toBe(120);
    });

    test("larger random graphs agree exactly", () => {
      for (const seed of [1, 2, 3]) {
        const { nodes, edges } = randomGraph(800, 4000, seed);
        const seeds = new Map([["n5", 1], ["n77", 0.25], ["absent", 3]]);
        expect(sameMap(md.pagerank(nodes, edges), ref.pagerank(nodes, edges))).toBe(true);
        expect(sameMap(md.pagerank(nodes, edges, { seeds, tolerance: 1e-12, maxIterations: 500 }),
          ref.pagerank(nodes, edges, { seeds, tolerance: 1e-12, maxIterations: 500 }))).toBe(true);
        const lp = md.labelPropagation(nodes, edges);
        expect(sameMap(lp, ref.labelPropagation(nodes, edges))).toBe(true);
        expect(sameMap(md.bridgeCounts(nodes, edges, lp), ref.bridgeCounts(nodes, edges, lp))).toBe(true);
      }
    });

    test("the dense step's one loop over the edges equals the per-source loop (a source whose strengths sum to 0)", () => {
      // Dense steps run one loop over the edges when every source with edges has an out-weight
      // other than 0, and the per-source loop (which skips such a source) otherwise: the same
      // graph with and without a source whose strengths cancel, walks that go dense.
      for (const seed of [4, 5]) {
        const { nodes, edges } = randomGraph(3000, 15000, seed);
        const cancel = [{ src: "n1", dst: "n2", strength: 0.75 }, { src: "n1", dst: "n9", strength: -0.75 }];
        const seeds = new Map([["n10", 1], ["n20", 0.5]]);
        for (const es of [edges.filter((e) => e.src !== "n1"), edges.filter((e) => e.src !== "n1").concat(cancel)]) {
          for (const o of [undefined, { seeds }, { seeds, tolerance: 0, maxIterations: 30 }]) {
            expect(sameMap(md.pagerank(nodes, es, o), ref.pagerank(nodes, es, o))).toBe(true);
          }
        }
      }
    });

    test("many keys mixing astral, U+E000..U+FFFF and lone surrogates sort as JavaScript does", () => {
      const rnd = mulberry(21);
      const parts = ["a", "/", "é", "\uFF5E", "\uE000", "\u{1F600}", "\u{10000}", "\uD7FF", "z", " "];
      for (const lone of [false, true]) {
        const nodes = Array.from({ length: 400 }, (_, i) => {
          let k = "areas/";
          for (let p = 1 + Math.floor(rnd() * 5); p > 0; p--) k += parts[Math.floor(rnd() * parts.length)];
          return lone && i % 40 === 0 ? k + "\uD800" : k;
        });
        const edges = Array.from({ length: 1500 }, () => ({
          src: nodes[Math.floor(rnd() * 400)], dst: nodes[Math.floor(rnd() * 400)], strength: rnd() }));
        expect([...md.pagerank(nodes, edges).keys()]).toEqual([...new Set(nodes)].sort());
        expect(sameMap(md.pagerank(nodes, edges), ref.pagerank(nodes, edges))).toBe(true);
        expect(sameMap(md.labelPropagation(nodes, edges), ref.labelPropagation(nodes, edges))).toBe(true);
      }
    });

    test("parallel edges fold by the (src, dst) pair: keys with spaces never collide", () => {
      const nodes = ["a", "a b", "b c", "c"];
      const edges = [
        { src: "a b", dst: "c", strength: 0.9 },
        { src: "a", dst: "b c", strength: 0.1 },
      ];
      const pr = md.pagerank(nodes, edges, { maxIterations: 1 });
      // Both edges survive: "c" and "b c" both receive mass.
      expect(pr.get("c")).toBeGreaterThan(pr.get("a"));
      expect(pr.get("b c")).toBeGreaterThan(pr.get("a"));
      expect(sameMap(pr, ref.pagerank(nodes, edges, { maxIterations: 1 }))).toBe(true);
      const g = new md.Graph(nodes, edges);
      expect(g.edgeCount).toBe(2);
      g.free();
    });
  });

  describe(`${label}: the Graph handle`, () => {
    test("every run equals the one-shot function, any number of times", () => {
      fc.assert(fc.property(graphArb, fc.array(fc.tuple(keyArb, strengthArb), { maxLength: 4 }), ({ nodes, edges }, seedList) => {
        const g = new md.Graph(nodes, edges);
        try {
          const seeds = new Map(seedList);
          for (let rep = 0; rep < 2; rep++) {
            expect(sameMap(g.pagerank(), md.pagerank(nodes, edges))).toBe(true);
            expect(sameMap(g.pagerank({ seeds }), md.pagerank(nodes, edges, { seeds }))).toBe(true);
            expect(sameMap(g.pagerank({ seeds, damping: 0.5, maxIterations: 3.5 }),
              md.pagerank(nodes, edges, { seeds, damping: 0.5, maxIterations: 3.5 }))).toBe(true);
            const lp = g.labelPropagation({ minCommunitySize: 2 });
            expect(sameMap(lp, md.labelPropagation(nodes, edges, { minCommunitySize: 2 }))).toBe(true);
            expect(sameMap(g.bridgeCounts(lp), md.bridgeCounts(nodes, edges, lp))).toBe(true);
          }
          expect(g.nodes).toEqual([...md.pagerank(nodes, edges).keys()]);
          const scores = g.pagerankScores({ seeds });
          expect(scores).toBeInstanceOf(Float64Array);
          expect([...scores]).toEqual([...g.pagerank({ seeds }).values()]);
        } finally {
          g.free();
        }
      }), { numRuns: 200 });
    });

    test("personalized queries on one handle equal one-shot calls on a larger graph", () => {
      const { nodes, edges } = randomGraph(3000, 15000, 9);
      const g = md.buildGraph(nodes, edges);
      const rnd = mulberry(4);
      for (let q = 0; q < 5; q++) {
        const seeds = new Map(Array.from({ length: 5 }, () => [nodes[Math.floor(rnd() * nodes.length)], rnd()]));
        expect(sameMap(g.pagerank({ seeds }), md.pagerank(nodes, edges, { seeds }))).toBe(true);
      }
      g.free();
    });

    test("free() releases the memory, is idempotent, and later runs throw", () => {
      const { nodes, edges } = randomGraph(2000, 10000, 5);
      const g = new md.Graph(nodes, edges);
      g.pagerank();
      const before = exportsObj.memory.buffer.byteLength;
      for (let i = 0; i < 50; i++) {
        const h = new md.Graph(nodes, edges);
        h.pagerank({ seeds: new Map([["n1", 1]]) });
        h.labelPropagation();
        h.free();
        h.free();
        expect(h.freed).toBe(true);
        expect(() => h.pagerank()).toThrow(/freed/);
      }
      for (let i = 0; i < 10; i++) {
        md.pagerank(nodes, edges, { seeds: new Map([["n2", 1]]) });
        md.labelPropagation(nodes, edges);
        md.bridgeCounts(nodes, edges, new Map());
      }
      expect(exportsObj.memory.buffer.byteLength).toBe(before);
      g.free();
    });
  });

  test("a graph of a million edges runs in bounded memory, and again without growth", () => {
    const n = 100000, m = 1000000;
    const nodes = Array.from({ length: n }, (_, i) => `areas/notes/${i}.html`);
    const edges = new Array(m);
    for (let i = 0; i < m; i++) {
      edges[i] = { src: nodes[(i * 7) % n], dst: nodes[(i * 7919 + (i >> 10)) % n], strength: (i % 97) / 97 };
    }
    const pr = md.pagerank(nodes, edges);
    expect(pr.size).toBe(n);
    const after1 = exportsObj.memory.buffer.byteLength;
    expect(after1).toBeLessThan(256 * 1024 * 1024);
    md.pagerank(nodes, edges, { seeds: new Map([[nodes[3], 1]]) });
    const g = new md.Graph(nodes, edges);
    g.labelPropagation();
    g.free();
    expect(exportsObj.memory.buffer.byteLength).toBe(after1);
  });

  describe(`${label}: properties from the design`, () => {
    const close = (x, y) => Math.abs(x - y) <= 1e-12;

    test("scores sum to 1 (within 1e-12) with and without seeds, with dangling nodes", () => {
      fc.assert(fc.property(cleanGraphArb, fc.array(fc.tuple(keyArb, fc.double({ min: 0.01, max: 5, noNaN: true })), { maxLength: 4 }),
        ({ nodes, edges }, seedList) => {
          expect(close(sum(md.pagerank(nodes, edges)), 1)).toBe(true);
          expect(close(sum(md.pagerank(nodes, edges, { seeds: new Map(seedList) })), 1)).toBe(true);
          expect(close(sum(md.pagerank(nodes, edges, { tolerance: 1e-14, maxIterations: 300 })), 1)).toBe(true);
        }), { numRuns: 300 });
      const { nodes, edges } = randomGraph(5000, 20000, 11);
      expect(close(sum(md.pagerank(nodes, edges)), 1)).toBe(true);
      expect(close(sum(md.pagerank(nodes, edges, { seeds: new Map([["n3", 2], ["n4000", 1]]) })), 1)).toBe(true);
    });

    test("output is independent of the order of nodes and edges", () => {
      fc.assert(fc.property(cleanGraphArb, fc.integer(), ({ nodes, edges }, seed) => {
        // Distinct (src, dst) strengths make the fold order-free as well.
        const dedup = new Map(edges.map((e) => [JSON.stringify([e.src, e.dst]), e]));
        const es = [...dedup.values()];
        const rnd = mulberry(seed);
        const n2 = shuffle(nodes, rnd), e2 = shuffle(es, rnd);
        const seeds = new Map(nodes.slice(0, 2).map((k, i) => [k, i + 1]));
        expect(sameMap(md.pagerank(n2, e2), md.pagerank(nodes, es))).toBe(true);
        expect(sameMap(md.pagerank(n2, e2, { seeds }), md.pagerank(nodes, es, { seeds }))).toBe(true);
        const lp = md.labelPropagation(nodes, es, { minCommunitySize: 2 });
        expect(sameMap(md.labelPropagation(n2, e2, { minCommunitySize: 2 }), lp)).toBe(true);
        expect(sameMap(md.bridgeCounts(n2, e2, lp), md.bridgeCounts(nodes, es, lp))).toBe(true);
      }), { numRuns: 300 });
    });

    test("parallel edges keep the maximum strength whatever their order", () => {
      fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 5 }), (ws) => {
        const nodes = ["a", "b", "c"];
        const edges = ws.map((strength) => ({ src: "a", dst: "b", strength })).concat([{ src: "b", dst: "c", strength: 0.5 }]);
        const one = [{ src: "a", dst: "b", strength: Math.max(...ws) }, { src: "b", dst: "c", strength: 0.5 }];
        expect(sameMap(md.pagerank(nodes, edges), md.pagerank(nodes, one))).toBe(true);
      }));
    });

    test("seeds naming absent nodes are dropped; an all-absent seed map is the uniform result", () => {
      fc.assert(fc.property(cleanGraphArb, fc.array(fc.tuple(keyArb, fc.double({ min: 0.01, max: 5, noNaN: true })), { maxLength: 4 }),
        ({ nodes, edges }, seedList) => {
          const present = new Map(seedList.filter(([k]) => nodes.includes(k)));
          const withAbsent = new Map([["absent-1", 3], ...present, ["absent-2", 0.5]]);
          expect(sameMap(md.pagerank(nodes, edges, { seeds: withAbsent }), md.pagerank(nodes, edges, { seeds: present }))).toBe(true);
          const uniform = md.pagerank(nodes, edges);
          expect(sameMap(md.pagerank(nodes, edges, { seeds: new Map([["absent-1", 1], ["absent-2", 2]]) }), uniform)).toBe(true);
          expect(sameMap(md.pagerank(nodes, edges, { seeds: new Map() }), uniform)).toBe(true);
        }), { numRuns: 200 });
    });

    test("a community below the size floor is undefined and its nodes count 0 bridges", () => {
      fc.assert(fc.property(cleanGraphArb, fc.integer({ min: 1, max: 6 }), ({ nodes, edges }, floor) => {
        const lp = md.labelPropagation(nodes, edges, { minCommunitySize: floor });
        const all = md.labelPropagation(nodes, edges, { minCommunitySize: 0 });
        const sizes = new Map();
        for (const c of all.values()) sizes.set(c, (sizes.get(c) ?? 0) + 1);
        const bridges = md.bridgeCounts(nodes, edges, lp);
        for (const [k, c] of lp) {
          const full = all.get(k);
          expect(c).toBe(sizes.get(full) >= floor ? full : undefined);
          if (c === undefined) expect(bridges.get(k)).toBe(0);
        }
        // A pair is never a community at the default floor, so it has no bridges.
        const pair = md.labelPropagation(["x", "y", "p", "q", "r"], [
          { src: "x", dst: "y", strength: 1 }, { src: "p", dst: "q", strength: 1 },
          { src: "q", dst: "r", strength: 1 }, { src: "y", dst: "p", strength: 0.1 }]);
        expect(pair.get("x")).toBeUndefined();
        expect(pair.get("p")).toBe("p");
        const b = md.bridgeCounts(["x", "y", "p", "q", "r"], [{ src: "y", dst: "p", strength: 0.1 }], pair);
        expect(b.get("y")).toBe(0);
        expect(b.get("p")).toBe(0);
      }), { numRuns: 200 });
    });
  });

  describe(`${label}: counts follow JavaScript loops and never hang`, () => {
    const nodes = ["a", "b", "c", "d"];
    const edges = [
      { src: "a", dst: "b", strength: 1 }, { src: "b", dst: "c", strength: 0.5 },
      { src: "c", dst: "a", strength: 0.7 }, { src: "a", dst: "c", strength: 0.2 },
    ];
    test("NaN and negative counts run no iteration; fractional counts round up", () => {
      const teleport = md.pagerank(nodes, edges, { maxIterations: 0 });
      expect([...teleport.values()]).toEqual([0.25, 0.25, 0.25, 0.25]);
      expect(sameMap(md.pagerank(nodes, edges, { maxIterations: NaN }), teleport)).toBe(true);
      expect(sameMap(md.pagerank(nodes, edges, { maxIterations: -3 }), teleport)).toBe(true);
      expect(sameMap(md.pagerank(nodes, edges, { maxIterations: 2.2, tolerance: 0 }),
        md.pagerank(nodes, edges, { maxIterations: 3, tolerance: 0 }))).toBe(true);
      const lp0 = md.labelPropagation(nodes, edges, { maxSweeps: NaN, minCommunitySize: 1 });
      expect([...lp0.values()]).toEqual(nodes);
    });

    test("an infinite count stops at convergence, or at a fixed point of the states", () => {
      expect(sameMap(md.pagerank(nodes, edges, { maxIterations: Infinity }),
        ref.pagerank(nodes, edges, { maxIterations: 1e6 }))).toBe(true);
      expect(sameMap(md.labelPropagation(nodes, edges, { maxSweeps: Infinity }), md.labelPropagation(nodes, edges))).toBe(true);
      const huge = md.pagerank(nodes, edges, { maxIterations: 1e15, tolerance: 0 });
      expect(sameMap(huge, ref.pagerank(nodes, edges, { maxIterations: 5000, tolerance: 0 }))).toBe(true);
    });

    test("a periodic iteration: huge counts land on the right phase, infinite ones are a RangeError", () => {
      // damping 1 on a 2-cycle with a one-sided start oscillates forever.
      const n2 = ["a", "b"], e2 = [{ src: "a", dst: "b", strength: 1 }, { src: "b", dst: "a", strength: 1 }];
      const o = { damping: 1, tolerance: 0, seeds: new Map([["a", 1]]) };
      expect(sameMap(md.pagerank(n2, e2, { ...o, maxIterations: 1e15 + 1 }), ref.pagerank(n2, e2, { ...o, maxIterations: 3 }))).toBe(true);
      expect(sameMap(md.pagerank(n2, e2, { ...o, maxIterations: 1e15 }), ref.pagerank(n2, e2, { ...o, maxIterations: 4 }))).toBe(true);
      expect(() => md.pagerank(n2, e2, { ...o, maxIterations: Infinity })).toThrow(RangeError);
      expect(() => md.pagerank(n2, e2, { ...o, maxIterations: Infinity })).toThrow(/options\.maxIterations/);
      expect(() => md.pagerank(n2, e2, { ...o, maxIterations: 2 ** 60 })).toThrow(RangeError);
      expect(() => new md.Graph(n2, e2).pagerank({ ...o, maxIterations: Infinity })).toThrow(RangeError);
      // Still usable afterwards.
      expect(md.pagerank(n2, e2).get("a")).toBe(0.5);
    });
  });

  describe(`${label}: bad input`, () => {
    const cases = [
      [() => md.pagerank("a", []), TypeError, /pagerank: nodes must be an array/],
      [() => md.pagerank(["a", 1], []), TypeError, /pagerank: nodes\[1\] must be a string/],
      [() => md.pagerank(["a"], null), TypeError, /pagerank: edges must be an array/],
      [() => md.pagerank(["a"], [null]), TypeError, /pagerank: edges\[0\] must be/],
      [() => md.pagerank(["a"], [{ src: 1, dst: "a", strength: 1 }]), TypeError, /edges\[0\]\.src/],
      [() => md.pagerank(["a"], [{ src: "a", dst: "a", strength: "1" }]), TypeError, /edges\[0\]\.strength/],
      [() => md.pagerank(["a"], [], 5), TypeError, /pagerank: options/],
      [() => md.pagerank(["a"], [], { damping: "0.5" }), TypeError, /options\.damping/],
      [() => md.pagerank(["a"], [], { seeds: { a: 1 } }), TypeError, /options\.seeds must be a Map/],
      [() => md.pagerank(["a"], [], { seeds: new Map([["a", "1"]]) }), TypeError, /options\.seeds\.get\("a"\)/],
      [() => md.labelPropagation(["a", null], []), TypeError, /labelPropagation: nodes\[1\]/],
      [() => md.labelPropagation(["a"], [], { maxSweeps: "2" }), TypeError, /options\.maxSweeps/],
      [() => md.bridgeCounts(["a"], [], {}), TypeError, /bridgeCounts: communities must be a Map/],
      [() => md.bridgeCounts(["a"], [], new Map([["a", 3]])), TypeError, /communities\.get\("a"\)/],
      [() => new md.Graph(["a", 2], []), TypeError, /Graph: nodes\[1\]/],
    ];
    test.each(cases.map((c, i) => [i, ...c]))("case %i", (_i, f, E, re) => {
      expect(f).toThrow(E);
      expect(f).toThrow(re);
    });

    test("edges naming absent nodes are dropped; null options mean defaults; empty graphs are empty", () => {
      expect(sameMap(md.pagerank(["a", "b"], [{ src: "a", dst: "zz", strength: 1 }]), md.pagerank(["a", "b"], []))).toBe(true);
      expect(sameMap(md.pagerank(["a", "b"], [], null), md.pagerank(["a", "b"], []))).toBe(true);
      expect(sameMap(md.pagerank(["a"], [], { damping: null, seeds: null }), md.pagerank(["a"], []))).toBe(true);
      expect(md.pagerank([], []).size).toBe(0);
      expect(md.labelPropagation([], []).size).toBe(0);
      expect(md.bridgeCounts([], [], new Map()).size).toBe(0);
      const g = new md.Graph([], [{ src: "a", dst: "b", strength: 1 }]);
      expect(g.pagerank().size).toBe(0);
      expect(g.nodeCount).toBe(0);
      g.free();
    });
  });
}
