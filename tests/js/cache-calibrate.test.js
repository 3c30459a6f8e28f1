// memdomain/cache's calibration (js/cache/calibrate.js): the cache measures its arms on
// pseudo-queries drawn from its own memories, without labels, and search's default composition
// takes the vector weight it chose. A weak vector arm falls to near zero, a strong one keeps its
// weight, labels from positive reinforcements move it the way they point, and the same database
// and seed give the same calibration.
import * as md from "../../js/index.js";
import { PRESETS, openMemoryCache } from "../../js/cache/index.js";
import { CALIBRATION_VERSION, UNLABELLED_MAX, VECTOR_GRID, pseudoQuery } from "../../js/cache/calibrate.js";
import { wasmBytes } from "./build.js";
import { rng } from "../oracles/rng.js";

md.initSync(wasmBytes());

const N = 160;
const FILLER = "time file list data value name path mode part line text rule case kind form step note item test code"
  .split(" ");
const unique = (i, j) => `q${i}z${j}`; // one memory's own words: letters and digits, one token each

/**
 * N memories of 24 words: 12 of their own and 12 fillers. `twice`: each own word occurs twice, so
 * the lexical arm still finds a memory whose window was taken out; else once, so it cannot.
 */
function corpus(twice) {
  const r = rng(11);
  return Array.from({ length: N }, (_, i) => {
    const own = Array.from({ length: twice ? 6 : 12 }, (_, j) => unique(i, j));
    const words = [...own, ...(twice ? own : []), ...Array.from({ length: 12 }, () => FILLER[Math.floor(r() * FILLER.length)])];
    for (let k = words.length - 1; k > 0; k--) { const j = Math.floor(r() * (k + 1)); [words[k], words[j]] = [words[j], words[k]]; }
    return { path: `m/${String(i).padStart(3, "0")}`, gist: words.slice(0, 8).join(" "), body: words.slice(8).join(" "), type: "semantic", createdAt: 0 };
  });
}

/** An embedding that knows whose words a text holds: a one-hot of each memory's own words, counted. */
function strongEmbed(texts) {
  return texts.map((t) => {
    const v = new Float32Array(N);
    for (const m of t.matchAll(/q(\d+)z\d+/g)) v[Number(m[1])] += 1;
    return v;
  });
}

/** An embedding that knows nothing: a vector drawn from the text's hash. */
function weakEmbed(texts) {
  return texts.map((t) => {
    let h = 2166136261;
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619) >>> 0;
    const r = rng(h);
    return Float32Array.from({ length: N }, () => r() - 0.5);
  });
}

async function cacheOf(memories, embed) {
  const cache = await openMemoryCache(embed ? { embed } : {});
  await cache.put(memories.map((m) => ({ ...m, embedding: (embed ?? strongEmbed)([`${m.gist}\n${m.body}`])[0] })));
  return cache;
}

describe("pseudo-queries", () => {
  test("a window of the memory's words, taken out of its text; none from a memory too short", () => {
    const r = rng(3);
    const gist = "alpha beta gamma delta", body = "epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma";
    const q = pseudoQuery(gist, body, r);
    const words = q.text.split(" ");
    expect(words.length).toBeGreaterThanOrEqual(3);
    expect(words.length).toBeLessThanOrEqual(8);
    const rest = `${q.gist} ${q.body}`.split(/\s+/).filter(Boolean);
    expect(rest.length + words.length).toBe(4 + 14);
    for (const w of words) expect(rest).not.toContain(w);
    expect(`${gist} ${body}`).toContain(q.text);
    expect(pseudoQuery("one two", "three four five", rng(1))).toBeNull();
  });
});

describe("calibration", () => {
  test("a weak vector arm falls to near zero; the lexical arm measures far above it", async () => {
    const c = await cacheOf(corpus(true), weakEmbed);
    try {
      const cal = await c.calibrate();
      expect(cal.reason).toBe("pseudo-queries");
      expect(cal.queries).toBe(N);
      expect(cal.vector).toBeLessThanOrEqual(0.1);
      expect(cal.arms.lexical.mrr).toBeGreaterThan(0.5);
      expect(cal.arms.vector.mrr).toBeLessThan(0.2);
      expect(cal.table.map((r) => r.vector)).toEqual([...VECTOR_GRID]);
      expect(cal.plateau).toContain(cal.vector);
    } finally { await c.close(); }
  });

  test("a strong vector arm keeps its weight (the most pseudo-queries alone give, the preset's own)", async () => {
    const c = await cacheOf(corpus(false), strongEmbed);
    try {
      const cal = await c.calibrate();
      expect(cal.arms.vector.mrr).toBeGreaterThan(0.9);
      expect(cal.arms.vector.mrr).toBeGreaterThan(cal.arms.lexical.mrr + 0.3);
      expect(UNLABELLED_MAX).toBe(PRESETS.default.weights.vector);
      expect(cal.plateau[0]).toBeGreaterThan(UNLABELLED_MAX); // the cap, not the plateau, decided
      expect(cal.vector).toBe(UNLABELLED_MAX);
    } finally { await c.close(); }
  });

  test("deterministic for a database and a seed; stored, and search's default composition takes it", async () => {
    const memories = corpus(true);
    const a = await cacheOf(memories, weakEmbed), b = await cacheOf(memories, weakEmbed);
    try {
      const x = await a.calibrate({ seed: 5 }), y = await b.calibrate({ seed: 5 }), z = await a.calibrate({ seed: 5 });
      expect(JSON.stringify(y)).toBe(JSON.stringify(x));
      expect(JSON.stringify(z)).toBe(JSON.stringify(x));
      expect((await a.calibrate({ seed: 6 })).seed).toBe(6);
      await a.calibrate({ seed: 5 });
      const again = await openMemoryCache({ bytes: await a.exportBytes() });
      try {
        expect(JSON.stringify(await again.calibration())).toBe(JSON.stringify(await a.calibration()));
      } finally { await again.close(); }
      const q = { text: "q3z1 q3z2 time", limit: 5 };
      const { trace } = await a.explain(q, []);
      expect(trace.settings.weights.vector).toBe(x.vector);
      expect(trace.settings.calibrated).toBe(true);
      const off = (await a.explain({ ...q, calibrated: false }, [])).trace.settings;
      expect(off.weights.vector).toBe(PRESETS.default.weights.vector);
      expect(off.calibrated).toBe(false);
      expect((await a.explain({ ...q, weights: { vector: 0.7 } }, [])).trace.settings).toMatchObject({ calibrated: false, weights: { vector: 0.7 } });
      expect(x.version).toBe(CALIBRATION_VERSION);
    } finally { await a.close(); await b.close(); }
  });

  test("a calibration another version measured is not applied, and the next sleep measures again", async () => {
    const c = await cacheOf(corpus(false), strongEmbed);
    try {
      const cal = await c.calibrate();
      // the same result as version 1 would have stored it (its cap was 1)
      const old = { ...cal, version: CALIBRATION_VERSION - 1, vector: 1 };
      const text = (await c.exportJsonl()).split("\n").filter(Boolean)
        .map((l) => (JSON.parse(l).calibration ? JSON.stringify({ calibration: old }) : l)).join("\n");
      const d = await openMemoryCache({ embed: strongEmbed });
      try {
        await d.importJsonl(text);
        expect((await d.calibration()).version).toBe(CALIBRATION_VERSION - 1);
        const { trace } = await d.explain({ text: "q3z1 q3z2 time", limit: 5 }, []);
        expect(trace.settings.weights.vector).toBe(PRESETS.default.weights.vector);
        expect(trace.settings.calibrated).toBe(false);
        const slept = await d.sleep({ now: 86_400_000 });
        expect(slept.calibration.vector).toBe(cal.vector);
        expect((await d.calibration()).version).toBe(CALIBRATION_VERSION);
        expect((await d.explain({ text: "q3z1 q3z2 time", limit: 5 }, [])).trace.settings).toMatchObject({ calibrated: true, weights: { vector: cal.vector } });
      } finally { await d.close(); }
    } finally { await c.close(); }
  });

  test("without an embed hook and labels nothing is measured: the defaults stay", async () => {
    const c = await cacheOf(corpus(true));
    try {
      const cal = await c.calibrate();
      expect(cal.vector).toBeNull();
      expect(cal.reason).toMatch(/no embed hook/);
      const { trace } = await c.explain({ text: "q1z1", limit: 3 }, []);
      expect(trace.settings.weights.vector).toBe(PRESETS.default.weights.vector);
      expect(trace.settings.calibrated).toBe(false);
    } finally { await c.close(); }
  });

  test("labels: positive reinforcements of searched paths move the weight toward the arm that found them", async () => {
    const memories = corpus(true);
    for (const favour of ["vector", "lexical"]) {
      const c = await cacheOf(memories); // no hook: the labels are all calibration has
      try {
        for (let i = 0; i < 60; i++) {
          const target = memories[i];
          // the vector arm's label: a text of fillers (the lexical arm finds others), the target's own vector;
          // the lexical arm's: the target's own words, a vector pointing elsewhere
          const own = `${unique(i, 0)} ${unique(i, 1)}`;
          const q = favour === "vector" ? { text: "time file list", vector: strongEmbed([own])[0] }
            : { text: own, vector: strongEmbed([`${unique((i + 80) % N, 0)}`])[0] };
          // (searched with the arm that finds it weighted, so that it is among the hits to reinforce)
          const hits = await c.search({ ...q, limit: 10, weights: favour === "vector" ? { vector: 3 } : { vector: 0.1 } });
          expect(hits.map((h) => h.path)).toContain(target.path);
          await c.reinforce([target.path], { now: 1_000_000 + i, signal: "positive" });
        }
        const cal = await c.calibrate();
        expect(cal.reason).toBe("labels");
        expect(cal.labels).toBe(60);
        if (favour === "vector") expect(cal.vector).toBeGreaterThanOrEqual(1);
        else expect(cal.vector).toBeLessThanOrEqual(0.1);
      } finally { await c.close(); }
    }
  });

  test("sleep calibrates when the calibration is stale, not again when nothing changed; options.calibrate", async () => {
    const c = await cacheOf(corpus(true), weakEmbed);
    try {
      const first = await c.sleep({ now: 86_400_000 });
      expect(first.calibration.ran).toBe(true);
      expect(first.calibration.vector).toBe((await c.calibration()).vector);
      const second = await c.sleep({ now: 86_400_000 });
      expect(second.calibration.ran).toBe(false);
      expect(second.written.statements).toBe(0);
      expect((await c.sleep({ now: 86_400_000, calibrate: true })).calibration.ran).toBe(true);
      expect((await c.sleep({ now: 86_400_000, calibrate: { seed: 2 } })).calibration.ran).toBe(true);
      expect((await c.calibration()).seed).toBe(2);
      await expect(c.sleep({ now: 0, calibrate: { seeds: 1 } })).rejects.toThrow(/sleep: options.calibrate.seeds is not a known option/);
      await expect(c.sleep({ now: 0, calibrate: "yes" })).rejects.toThrow(/sleep: options.calibrate must be an object/);
    } finally { await c.close(); }
  });

  test("bad options and a bad hook are clear errors", async () => {
    const c = await cacheOf(corpus(true), weakEmbed);
    try {
      await expect(c.calibrate({ seed: -1 })).rejects.toThrow(/calibrate: options.seed must be in/);
      await expect(c.calibrate({ sample: 3 })).rejects.toThrow(/calibrate: options.sample is not a known option/);
      await expect(c.calibrate(null)).rejects.toThrow(TypeError);
    } finally { await c.close(); }
    const bad = await openMemoryCache({ embed: (texts) => texts.map(() => new Float32Array(3)) });
    try {
      await bad.put(corpus(true).slice(0, 60).map((m) => ({ ...m, embedding: new Float32Array(N).fill(1) })));
      await expect(bad.calibrate()).rejects.toThrow(/calibrate: options.embed's vector for pseudo-query 0 has 3 elements, not the cache's dimension 160/);
    } finally { await bad.close(); }
  });
});
