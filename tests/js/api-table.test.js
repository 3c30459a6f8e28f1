// The public JavaScript API as wasm/boundary.def's `as` lines state it (tools/api.mjs): every
// function the table states is exported, each argument's wrong type is a TypeError naming it as
// the table does, each default is what an absent argument gets, and the declarations and the
// docs' argument table list every function. Also mmrReorders, the export added through the table.
import { rng } from "../oracles/rng.js";
import { readdirSync, readFileSync } from "node:fs";
import * as md from "../../js/index.js";
import * as workers from "../../js/src/workers.js";
import { ARGS } from "../../js/src/args.js";
import { table } from "../../tools/boundary.mjs";
import { apiOf, leaves } from "../../tools/api.mjs";
import * as base from "../oracles/baseline-mmr.js";
import { BUILD, wasmBytes } from "./build.js";

const ROOT = new URL("../../", import.meta.url);
const api = apiOf(table());
const generated = api.filter((f) => f.generated);

/** Valid arguments for f: 0.5 for every number, objects built from their fields. */
const valid = (args) => args.map((a) => (a.fields ? Object.fromEntries(a.fields.map((x) => [x.name, 0.5])) : 0.5));

describe(`the API table (${BUILD})`, () => {
  beforeAll(() => md.initSync(wasmBytes()));

  test("every function the table states is exported (or a method of its handle), with a descriptor", () => {
    expect(api.length).toBeGreaterThan(40);
    const rows = md.residentRows(new Float32Array(2), 2), ix = md.lexicalIndex();
    const owner = { residentRows: rows, Graph: md.Graph.prototype, lexicalIndex: ix };
    for (const f of api) {
      const [head, method] = f.name.split(".");
      expect([f.name, typeof (method ? owner[head][method] : md[f.name] ?? workers[f.name])]).toEqual([f.name, "function"]);
      expect([f.name, ARGS[f.name]?.[0]]).toEqual([f.name, f.name]);
    }
    rows.free();
    ix.free();
  });

  test("a wrong type at each argument is a TypeError naming it as the table does", () => {
    let n = 0;
    for (const f of generated) {
      const good = valid(f.args);
      expect(() => md[f.name](...good)).not.toThrow();
      f.args.forEach((a, i) => {
        const one = (v) => { const x = good.slice(); x[i] = v; return () => md[f.name](...x); };
        if (!a.fields) {
          expect(one("0.5")).toThrow(new TypeError(`${f.name}: ${a.name} must be a number, got a string`));
          n++;
          return;
        }
        expect(one(7)).toThrow(new TypeError(`${f.name}: ${a.name} must be an object, got 7`));
        for (const x of a.fields) {
          const o = { ...good[i], [x.name]: "0.5" };
          expect(one(o)).toThrow(new TypeError(`${f.name}: ${a.name}.${x.name} must be a number, got a string`));
          n++;
        }
      });
    }
    expect(n).toBeGreaterThan(30);
  });

  test("an absent argument is its default: undefined always, null where the table says ??", () => {
    let n = 0;
    for (const f of generated) {
      const good = valid(f.args);
      f.args.forEach((a, i) => {
        for (const x of a.fields ?? [a]) {
          if (!x.optional || x.value === undefined) continue;
          const withValue = good.slice(), absent = good.slice(), asNull = good.slice();
          if (a.fields) {
            withValue[i] = { ...good[i], [x.name]: x.value };
            absent[i] = { ...good[i], [x.name]: undefined };
            asNull[i] = { ...good[i], [x.name]: null };
          } else {
            withValue[i] = x.value;
            absent[i] = undefined;
            asNull[i] = null;
          }
          const want = md[f.name](...withValue);
          expect([f.name, x.name, md[f.name](...absent)]).toEqual([f.name, x.name, want]);
          if (x.nullish) expect([f.name, x.name, md[f.name](...asNull)]).toEqual([f.name, x.name, want]);
          else expect(() => md[f.name](...asNull)).toThrow(TypeError);
          n++;
        }
      });
    }
    expect(n).toBeGreaterThanOrEqual(6);
  });

  test("the declarations and docs/API.md's argument table list every function and argument", () => {
    const dts = readFileSync(new URL("js/index.d.ts", ROOT), "utf8"), doc = readFileSync(new URL("docs/API.md", ROOT), "utf8");
    const types = readdirSync(new URL("js/types/", ROOT)).map((f) => readFileSync(new URL(`js/types/${f}`, ROOT), "utf8")).join("\n");
    for (const f of api) {
      // Generated functions are declared in index.d.ts's generated block; the others (overloads, generics) in js/types.
      if (f.generated) expect([f.name, dts.includes(`export function ${f.name}(`)]).toEqual([f.name, true]);
      else if (!f.name.includes(".")) expect([f.name, new RegExp(`(function|const) ${f.name}\\b`).test(types)]).toEqual([f.name, true]);
      expect([f.name, doc.includes(`| \`${f.name}\` |`)]).toEqual([f.name, true]);
      for (const l of leaves(f.args)) expect([f.name, l.path, doc.includes(`\`${l.path}\``)]).toEqual([f.name, l.path, true]);
    }
  });

  test("an array's most entries (`of at most N`) are refused as a RangeError naming it, from the table", () => {
    const sparse = (n) => new Array(n); // no elements: the length alone is refused, before any is read
    const cases = {
      Graph: (n) => new md.Graph(sparse(n), []), buildGraph: (n) => md.buildGraph([], sparse(n)), pagerank: (n) => md.pagerank(sparse(n), []),
      labelPropagation: (n) => md.labelPropagation([], sparse(n)), bridgeCounts: (n) => md.bridgeCounts(sparse(n), [], new Map()),
      mergeOutcomes: (n) => md.mergeOutcomes(sparse(n)), mergeCandidates: (n) => md.mergeCandidates(sparse(n)),
      connectedComponents: (n) => md.connectedComponents(sparse(n)), excludeSelfSupersede: (n) => md.excludeSelfSupersede("a", sparse(n)),
      partitionByCooldown: (n) => md.partitionByCooldown(sparse(n), new Date(0)), lexicalIndex: (n) => md.lexicalIndex(sparse(n)),
    };
    const argOf = { Graph: "nodes", buildGraph: "edges", pagerank: "nodes", labelPropagation: "edges", bridgeCounts: "nodes" };
    const limited = api.filter((f) => f.args.some((a) => a.most));
    expect(limited.map((f) => f.name).sort()).toEqual(Object.keys(cases).sort());
    for (const f of limited) {
      const a = f.args.find((x) => x.most && (argOf[f.name] ?? x.name) === x.name);
      const n = a.most + 1;
      if (n > 2 ** 32 - 1) continue; // past an array's own limit: no array can hold more
      expect(() => cases[f.name](n)).toThrow(new RangeError(`${f.name}: ${a.name} has ${n} entries, more than memdomain accepts`));
    }
    expect(() => md.pagerank(sparse(2 ** 32 - 1), [])).toThrow(new RangeError("pagerank: nodes has 4294967295 entries, more than memdomain accepts"));
    expect(() => md.pagerank(["a"], sparse(2 ** 32 - 1))).toThrow(new RangeError("pagerank: edges has 4294967295 entries, more than memdomain accepts"));
    expect(md.excludeSelfSupersede("a", ["b", "a"])).toEqual(["b"]); // under the limit, as before
  });

  test("lexicalIndex's checks come from its rows: each argument named, ranges as the table states them", () => {
    const u = (...v) => Uint32Array.of(...v);
    const doc = { doc: 1, key: "a", len: 3, terms: u(1, 2), gist: u(1, 0), body: u(0, 2) };
    const bad = (f, e) => expect(f).toThrow(e);
    bad(() => md.lexicalIndex(null), new TypeError("lexicalIndex: docs must be an array, got null"));
    bad(() => md.lexicalIndex([doc, 5]), new TypeError("lexicalIndex: docs[1] must be an object, got 5"));
    bad(() => md.lexicalIndex([{ ...doc, key: 7 }]), new TypeError("lexicalIndex: docs[0].key must be a string, got 7"));
    bad(() => md.lexicalIndex([{ ...doc, terms: [1, 2] }]), new TypeError("lexicalIndex: docs[0].terms must be a Uint32Array, got an array"));
    bad(() => md.lexicalIndex([{ ...doc, doc: 2 ** 30 }]), new RangeError("lexicalIndex: docs[0].doc must be an integer in [0, 1073741823]"));
    bad(() => md.lexicalIndex([{ ...doc, len: 1.5 }]), new RangeError("lexicalIndex: docs[0].len must be an integer in [0, 4294967295]"));
    bad(() => md.lexicalIndex([{ ...doc, body: u(1) }]), new RangeError("lexicalIndex: docs[0].body has 1 entries, terms 2"));
    const ix = md.lexicalIndex([doc]);
    expect([ix.count, ix.df(1), ix.df(2), ix.df(3), ix.df(-1)]).toEqual([1, 1, 1, 0, 0]);
    bad(() => ix.put(2, "b", 1, u(2 ** 30), u(1), u(0)), new RangeError("lexicalIndex.put: terms[0] must be below 2^30, got 1073741824"));
    bad(() => ix.put(2, "b", 1, u(4), u(0), u(0)), new RangeError("lexicalIndex.put: gist[0] and body: a term needs a hit"));
    bad(() => ix.delete("1"), new TypeError("lexicalIndex.delete: doc must be a number, got a string"));
    bad(() => ix.df("1"), new TypeError("lexicalIndex.df: term must be a number, got a string"));
    bad(() => ix.top(u(1), -1), new RangeError("lexicalIndex.top: k must be an integer in [0, 67108864]"));
    bad(() => ix.top(u(1), 5, null), new TypeError("lexicalIndex.top: options must be an object, got null"));
    bad(() => ix.top(u(1), 5, { gistWeight: "3" }), new TypeError("lexicalIndex.top: options.gistWeight must be a number, got a string"));
    bad(() => ix.top(u(1), 5, { idf: [1] }), new TypeError("lexicalIndex.top: options.idf must be a Float64Array, got an array"));
    bad(() => ix.top(u(1), 5, { idf: Float64Array.of(0) }), new RangeError("lexicalIndex.top: options.idf[0] must be finite and > 0, got 0"));
    // Absent options are the table's defaults: gistWeight 1, idf the index's own.
    const own = ix.top(u(1, 2), 5);
    expect(ix.top(u(1, 2), 5, { gistWeight: undefined, idf: null })).toEqual(own);
    expect(ix.top(u(1, 2), 5, { gistWeight: 1 })).toEqual(own);
    expect(ix.top(u(1, 2), 5, { gistWeight: 3 }).scores[0]).not.toBe(own.scores[0]);
    expect([...own.docs]).toEqual([1]);
    expect(ix.delete(1)).toBe(true);
    expect(ix.delete(1)).toBe(false);
    ix.free();
    for (const call of [() => ix.put(2, "b", 1, u(1), u(1), u(0)), () => ix.delete(1), () => ix.df(1), () => ix.top(u(1), 1), () => ix.bytes()])
      bad(call, /was freed/);
  });

  test("lexicalIndex.putMany is put() of each document in turn, its arguments checked by name", () => {
    const r = rng(44), n = 700; // past one of putMany's chunks of postings
    const docs = [], keys = [], lens = [], start = [0], terms = [], gist = [], body = [];
    for (let i = 0; i < n; i++) {
      const doc = i % 97 === 5 ? docs[i - 1] : Math.floor(r() * 2000); // some rewritten at once
      const nt = Math.floor(r() * 200 * r()), seen = new Set();
      let len = 0;
      for (let j = 0; j < nt; j++) {
        const t = Math.floor(r() * r() * 3000);
        if (seen.has(t)) continue;
        seen.add(t);
        const g = r() < 0.3 ? 1 + Math.floor(r() * 3) : 0, b = g && r() < 0.5 ? 0 : 1 + Math.floor(r() * 4);
        terms.push(t), gist.push(g), body.push(b);
        len += g + b;
      }
      docs.push(doc), keys.push(i % 3 ? `p/${doc}/é` : ""), lens.push(len + Math.floor(r() * 5)), start.push(terms.length);
    }
    const U = (a) => Uint32Array.from(a);
    const one = md.lexicalIndex(), many = md.lexicalIndex();
    for (let i = 0; i < n; i++)
      one.put(docs[i], keys[i], lens[i], U(terms.slice(start[i], start[i + 1])), U(gist.slice(start[i], start[i + 1])), U(body.slice(start[i], start[i + 1])));
    many.putMany(U(docs), keys, U(lens), U(start), U(terms), U(gist), U(body));
    expect([many.count, many.bytes()]).toEqual([one.count, one.bytes()]);
    for (let t = 0; t < 3000; t += 7) expect(many.df(t)).toBe(one.df(t));
    for (let q = 0; q < 40; q++) {
      const qt = U(Array.from({ length: 1 + (q % 4) }, () => Math.floor(r() * r() * 3000)));
      expect(many.top(qt, 20, { gistWeight: 3 })).toEqual(one.top(qt, 20, { gistWeight: 3 }));
    }
    const u = (...v) => Uint32Array.of(...v);
    const bad = (f, e) => expect(f).toThrow(e);
    bad(() => many.putMany([1], ["a"], u(1), u(0, 1), u(1), u(1), u(0)), new TypeError("lexicalIndex.putMany: docs must be a Uint32Array, got an array"));
    bad(() => many.putMany(u(1), "a", u(1), u(0, 1), u(1), u(1), u(0)), new TypeError("lexicalIndex.putMany: keys must be an array of strings, got a string"));
    bad(() => many.putMany(u(1), [7], u(1), u(0, 1), u(1), u(1), u(0)), new TypeError("lexicalIndex.putMany: keys[0] must be a string, got 7"));
    bad(() => many.putMany(u(1), ["a"], u(1), u(0), u(1), u(1), u(0)), new RangeError("lexicalIndex.putMany: start has 1 entries, must have 2"));
    bad(() => many.putMany(u(1), ["a"], u(1), u(0, 2), u(1), u(1), u(0)), new RangeError("lexicalIndex.putMany: start must run from 0 to terms.length (1)"));
    bad(() => many.putMany(u(2 ** 30), ["a"], u(1), u(0, 1), u(1), u(1), u(0)), new RangeError("lexicalIndex.putMany: docs[0] must be below 2^30, got 1073741824"));
    bad(() => many.putMany(u(1), ["a"], u(1), u(0, 1), u(2 ** 30), u(1), u(0)), new RangeError("lexicalIndex.putMany: terms[0] must be below 2^30, got 1073741824"));
    bad(() => many.putMany(u(1), ["a"], u(1), u(0, 1), u(1), u(0), u(0)), new RangeError("lexicalIndex.putMany: gist[0] and body: a term needs a hit"));
    bad(() => many.putMany(u(1, 2, 3), ["a", "b", "c"], u(1, 1, 1), u(0, 2, 1, 3), u(1, 2, 3), u(1, 1, 1), u(0, 0, 0)), new RangeError("lexicalIndex.putMany: start[2] is below start[1]"));
    // a term twice: that document is refused (absent), the ones before it stay
    const before = many.count;
    bad(() => many.putMany(u(5000, 5001), ["x", "y"], u(2, 2), u(0, 1, 3), u(1, 4, 4), u(1, 1, 0), u(1, 0, 1)), new RangeError("lexicalIndex.putMany: terms[1..3] (docs[1]) has a term twice"));
    expect(many.count).toBe(before + 1);
    expect(many.delete(5000)).toBe(true);
    expect(many.delete(5001)).toBe(false);
    one.free();
    many.free();
    bad(() => many.putMany(u(), [], u(), u(0), u(), u(), u()), /was freed/);
  });

  test("mmrReorders states applyMmr's shortcut: the input order exactly when it says false", () => {
    const cands = [{ path: "a", score: 0.1, vector: [1, 0] }, { path: "b", score: 0.9, vector: [0.9, 0.1] },
      { path: "c", score: 0.5, vector: [0, 1] }];
    for (const lambda of [0, 0.5, 0.99, 1, 1.5, Infinity, -Infinity, NaN]) for (const n of [0, 1, 2, 3]) {
      const c = cands.slice(0, n), shortcut = !(lambda >= 1) && n > 1;
      expect([lambda, n, md.mmrReorders(lambda, n)]).toEqual([lambda, n, shortcut]);
      const got = md.applyMmr(c, 3, lambda);
      expect(got).toEqual(base.applyMmr(c, 3, lambda));
      if (!md.mmrReorders(lambda, n)) expect(got).toEqual(c);
    }
    expect(md.applyMmr(cands, 3, 0.5).map((c) => c.path)).not.toEqual(["a", "b", "c"]);
    expect(() => md.mmrReorders(0.5, "2")).toThrow(new TypeError("mmrReorders: n must be a number, got a string"));
  });
});

// The declarations written by hand (js/types: overloads, generics) against the table: the same
// parameters, in the same order, optional exactly where the table lets them be absent.
test("the hand-written declarations name and make optional the parameters the table states", async () => {
  const ts = (await import("typescript")).default;
  const declared = new Map();
  for (const file of readdirSync(new URL("js/types/", ROOT)).filter((f) => f.endsWith(".d.ts"))) {
    const src = ts.createSourceFile(file, readFileSync(new URL(`js/types/${file}`, ROOT), "utf8"), ts.ScriptTarget.ES2022);
    ts.forEachChild(src, (node) => {
      // The last overload is the general one (scoreRetentionMany's first pins { signals: true }).
      if (ts.isFunctionDeclaration(node) && node.name)
        declared.set(node.name.text, node.parameters.map((p) => `${p.name.getText(src)}${p.questionToken ? "?" : ""}`));
    });
  }
  let n = 0;
  for (const f of api.filter((x) => !x.generated && !x.name.includes("."))) {
    if (!declared.has(f.name)) continue; // Graph: a const with call and construct signatures
    // (`x: T | undefined` is a parameter that must be passed, undefined allowed.)
    const opt = (a) => (a.optional && !/\|\s*undefined$/.test(a.type)) || (a.fields !== null && a.fields.every((x) => x.optional));
    expect([f.name, declared.get(f.name)]).toEqual([f.name, f.args.map((a) => `${a.name}${opt(a) ? "?" : ""}`)]);
    n++;
  }
  expect(n).toBeGreaterThan(35);
});
