// memdomain/cache's embed hook (js/cache/embed.js): openMemoryCache({ embed }) embeds what put()
// stores without an embedding and what search(), explain() and tune() are asked without a vector,
// in batches, with each vector checked like a given one.
import * as md from "../../js/index.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { wasmBytes } from "./build.js";

md.initSync(wasmBytes());

/** A deterministic embedder of the hook's signature: letter counts a..h, and the calls it saw. */
function letters() {
  const calls = [];
  const embed = async (texts, { kind }) => {
    calls.push({ n: texts.length, kind });
    return texts.map((t) => {
      const v = new Float32Array(8);
      for (const ch of t.toLowerCase()) { const i = ch.charCodeAt(0) - 97; if (i >= 0 && i < 8) v[i]++; }
      return v;
    });
  };
  return { embed, calls };
}

const memory = (i, extra = {}) => ({ path: `n/${i}`, gist: `note ${"abcdefgh"[i % 8].repeat(3)} ${i}`, body: "", type: "semantic", createdAt: 0, ...extra });

describe("the embed hook", () => {
  test("put embeds what has no embedding (undefined), in batches; null stores none; a given one is kept", async () => {
    const { embed, calls } = letters();
    const c = await openMemoryCache({ embed, embedBatch: 4 });
    try {
      const given = new Float32Array([0, 0, 0, 0, 0, 0, 0, 1]);
      await c.put([...Array.from({ length: 9 }, (_, i) => memory(i)), memory(9, { embedding: null }), memory(10, { embedding: given })]);
      expect(calls).toEqual([{ n: 4, kind: "document" }, { n: 4, kind: "document" }, { n: 1, kind: "document" }]);
      const got = new Map((await c.all()).map((m) => [m.path, m.embedding]));
      expect(Array.from(got.get("n/1"))).toEqual(Array.from((await embed(["note bbb 1"], { kind: "document" }))[0]));
      expect(got.get("n/9")).toBeNull();
      expect(Array.from(got.get("n/10"))).toEqual(Array.from(given));
      expect(c.dim).toBe(8);
    } finally { await c.close(); }
  });

  test("search and explain embed a query without a vector; vector null searches without the vector arm", async () => {
    const { embed, calls } = letters();
    const c = await openMemoryCache({ embed });
    try {
      await c.put(Array.from({ length: 8 }, (_, i) => memory(i)));
      calls.length = 0;
      const hits = await c.search({ text: "ccc", limit: 3, weights: { lexical: 0, vector: 1 } });
      expect(calls).toEqual([{ n: 1, kind: "query" }]);
      expect(hits[0].path).toBe("n/2");
      // vector null: no vector arm; with the lexical arm off too, no arm can run
      await expect(c.search({ text: "ccc", vector: null, limit: 3, weights: { lexical: 0, vector: 1 } })).rejects.toThrow(/search: query.weights give the lexical arm weight 0 and the query has no vector/);
      expect((await c.search({ text: "ccc", vector: null, limit: 3 })).map((h) => h.path)).toEqual(["n/2"]);
      expect(calls.length).toBe(1);
      const ex = await c.explain({ text: "ddd", limit: 2, weights: { lexical: 0, vector: 1 } }, ["n/3"]);
      expect(ex.paths[0].rank).toBe(1);
      // a query the model knows no word of (a vector of zeros) goes without the vector arm
      expect(await c.search({ text: "zzz", limit: 3, weights: { lexical: 0, vector: 1 } })).toEqual([]);
      const t = await c.tune([{ text: "aaa", relevant: ["n/0"] }, { text: "bbb", relevant: ["n/1"] }], { folds: 2 });
      expect(t.heldOut.queries).toBe(2);
    } finally { await c.close(); }
  });

  test("a hook that returns the wrong thing, or throws, is a clear error and writes nothing", async () => {
    const wrongDim = await openMemoryCache({ dim: 4, embed: (texts) => texts.map(() => new Float32Array(3)) });
    try {
      await expect(wrongDim.put([memory(0)])).rejects.toThrow(/put: options.embed's vector for memories\[0\] has 3 elements, not the cache's dimension 4/);
      expect(await wrongDim.count()).toBe(0);
    } finally { await wrongDim.close(); }
    const short = await openMemoryCache({ embed: (texts) => texts.slice(1).map(() => [1, 0]) });
    try {
      await expect(short.put([memory(0), memory(1)])).rejects.toThrow(/put: options.embed's result has 1 vectors for 2 document text\(s\)/);
    } finally { await short.close(); }
    const notArray = await openMemoryCache({ embed: () => 42 });
    try {
      await expect(notArray.put([memory(0)])).rejects.toThrow(TypeError);
    } finally { await notArray.close(); }
    const nan = await openMemoryCache({ embed: (texts) => texts.map(() => [NaN, 1]) });
    try {
      await expect(nan.put([memory(0)])).rejects.toThrow(/put: options.embed's vector for memories\[0\]\[0\] must be finite, got NaN/);
    } finally { await nan.close(); }
    const throws = await openMemoryCache({ embed: async () => { throw new Error("model not loaded"); } });
    try {
      await expect(throws.put([memory(0)])).rejects.toThrow("model not loaded");
      expect(await throws.count()).toBe(0);
      await throws.put([memory(1, { embedding: [1, 2] })]);
      await expect(throws.search({ text: "note" })).rejects.toThrow("model not loaded");
    } finally { await throws.close(); }
    await expect(openMemoryCache({ embed: "model" })).rejects.toThrow(/openMemoryCache: options.embed must be a function/);
    await expect(openMemoryCache({ embed: () => [], embedBatch: 0 })).rejects.toThrow(/openMemoryCache: options.embedBatch must be in \[1, 65536\]/);
  });
});
