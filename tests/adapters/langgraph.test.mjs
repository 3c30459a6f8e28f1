// memdomain/langgraph against the real packages (@langchain/langgraph, @langchain/langgraph-checkpoint,
// @langchain/core; no mocks): the same operation sequences on LangGraph's own InMemoryStore and on
// MemdomainStore compared result by result, the differences checked as documented
// (docs/LANGGRAPH.md), a file-backed cache reopened, and a StateGraph that remembers across threads.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore, InvalidNamespaceError } from "@langchain/langgraph-checkpoint";
import { Annotation, MemorySaver, StateGraph, START, END, getStore } from "@langchain/langgraph";
import { Embeddings } from "@langchain/core/embeddings";
import { MemdomainStore } from "../../js/adapters/langgraph.js";
import { openMemoryCache } from "../../js/cache/index.js";
import { check, finish, same, firstDiff } from "../runtimes/lib.mjs";

const short = (x) => (typeof x === "string" ? x : JSON.stringify(x)).slice(0, 3000);
/** An item or search hit without its times (each store stamps its own), the times' kinds kept. */
const bare = (it) => (it === null || it === undefined ? it : {
  value: it.value, key: it.key, namespace: it.namespace,
  times: it.createdAt instanceof Date && it.updatedAt instanceof Date && it.updatedAt >= it.createdAt,
  ...("score" in it ? { score: it.score === undefined ? "undefined" : typeof it.score } : {}),
});
const norm = (r) => (Array.isArray(r) ? r.map(norm) : r && typeof r === "object" && "key" in r ? bare(r) : r);
const byPlace = (a, b) => (a.namespace.join("\u0000") + "\u0001" + a.key < b.namespace.join("\u0000") + "\u0001" + b.key ? -1 : 1);
const sorted = (r) => [...r].sort(byPlace);
const outcome = async (f) => {
  try {
    return { ok: await f() };
  } catch (e) {
    return { error: e.constructor.name, message: e.message };
  }
};

/** Run `f` on both stores; check the normalized results equal (`order: false` compares as sets). */
async function compare(what, mem, md, f, { order = true } = {}) {
  const a = await outcome(() => f(mem)), b = await outcome(() => f(md));
  const fix = (o) => (o.ok === undefined ? o : { ok: Array.isArray(o.ok) && !order ? norm(sorted(o.ok)) : norm(o.ok) });
  const x = fix(a), y = fix(b);
  check(same(x, y), `same as InMemoryStore: ${what}`, `InMemoryStore ${short(x)}\nMemdomainStore ${short(y)}\n${firstDiff(x, y)}`);
  return [a.ok, b.ok];
}

// ---------------------------------------------------------------- get, put, delete, search, listNamespaces
{
  console.log("get, put, delete, search by prefix and filter");
  const mem = new InMemoryStore(), md = new MemdomainStore();
  const seed = [
    [["docs"], "a", { text: "python tutorial", n: 1, tag: "x", nested: { deep: true } }],
    [["docs"], "b", { text: "typescript guide", n: 2, tag: "y" }],
    [["docs"], "key/with/slashes %2f", { text: "escaped key", n: 5, tag: "x" }],
    [["docs", "v1"], "c", { text: "rust book", n: 3, tag: "x", list: [1, 2] }],
    [["docs", "v1", "deep"], "d", { text: "go notes", n: "4", tag: "z" }],
    [["dogs"], "e", { text: "not a doc", n: 9 }],
    [["users", "u1"], "prefs", { theme: "dark", n: 7 }],
    [["users", "u2"], "prefs", { theme: "light", n: 8 }],
    [["users", "u2", "ünïcode"], "ключ 🔑", { theme: "dark", n: 10 }],
  ];
  for (const s of [mem, md]) for (const [ns, k, v] of seed) await s.put(ns, k, v);

  await compare("get an item", mem, md, (s) => s.get(["docs"], "a"));
  await compare("get a key holding / and %", mem, md, (s) => s.get(["docs"], "key/with/slashes %2f"));
  await compare("get unicode namespace and key", mem, md, (s) => s.get(["users", "u2", "ünïcode"], "ключ 🔑"));
  await compare("get a missing key", mem, md, (s) => s.get(["docs"], "nope"));
  await compare("get in a missing namespace", mem, md, (s) => s.get(["nowhere"], "a"));
  await compare("get a key of a deeper namespace from its parent (no)", mem, md, (s) => s.get(["docs"], "c"));

  const prefixes = [[], ["docs"], ["docs", "v1"], ["do"], ["users"], ["users", "u2"], ["none"]];
  for (const p of prefixes) await compare(`search ${JSON.stringify(p)}, limit 100`, mem, md, (s) => s.search(p, { limit: 100 }), { order: false });
  await compare("search default limit 10 over 9 items", mem, md, (s) => s.search([]), { order: false });
  const filters = [
    { tag: "x" }, { tag: "x", n: 1 }, { n: { $gt: 1 } }, { n: { $gte: 3, $lt: 9 } }, { n: { $in: [1, 3, "4"] } },
    { n: { $ne: 2 } }, { missing: { $nin: [1] } }, { missing: { $ne: 1 } }, { missing: 1 }, { n: "1" }, { n: { $eq: 2 } },
    { nested: { deep: true } }, { list: [1, 2] }, { tag: { $in: "x" } }, { tag: { $nin: ["x", "y"] } }, { theme: "dark" },
    { n: { $lte: "3" } }, {},
  ];
  for (const f of filters) {
    await compare(`search [] filter ${JSON.stringify(f)}`, mem, md, (s) => s.search([], { filter: f, limit: 100 }), { order: false });
  }
  await compare("search [docs] filter tag x", mem, md, (s) => s.search(["docs"], { filter: { tag: "x" }, limit: 100 }), { order: false });

  // update: createdAt kept, updatedAt moves; the value replaced
  const before = await md.get(["docs"], "a");
  await new Promise((r) => setTimeout(r, 5));
  for (const s of [mem, md]) await s.put(["docs"], "a", { text: "python tutorial, second edition", n: 11 });
  await compare("get after an update", mem, md, (s) => s.get(["docs"], "a"));
  const after = await md.get(["docs"], "a");
  check(after.createdAt.getTime() === before.createdAt.getTime() && after.updatedAt > before.updatedAt,
    "an update keeps createdAt and moves updatedAt", `${before.createdAt.toISOString()} ${after.createdAt.toISOString()} ${after.updatedAt.toISOString()}`);
  await compare("search filter on the updated value", mem, md, (s) => s.search(["docs"], { filter: { n: 11 } }), { order: false });
  await compare("search filter on the old value (gone)", mem, md, (s) => s.search(["docs"], { filter: { tag: "x", n: 1 } }), { order: false });

  for (const s of [mem, md]) await s.delete(["docs"], "b");
  await compare("get after delete", mem, md, (s) => s.get(["docs"], "b"));
  await compare("search after delete", mem, md, (s) => s.search(["docs"], { limit: 100 }), { order: false });
  await compare("delete a missing key", mem, md, (s) => s.delete(["docs"], "never"));

  console.log("listNamespaces");
  const lists = [
    {}, { prefix: ["docs"] }, { prefix: ["users", "*"] }, { prefix: ["*", "v1"] }, { suffix: ["prefs"] }, { suffix: ["u2"] },
    { suffix: ["*", "u2"] }, { maxDepth: 1 }, { maxDepth: 2 }, { prefix: ["docs"], maxDepth: 2 }, { limit: 2 }, { limit: 2, offset: 2 },
    { offset: 100 }, { prefix: ["users"], suffix: ["ünïcode"] }, { prefix: ["docs", "v1", "deep", "more"] },
  ];
  for (const o of lists) await compare(`listNamespaces ${JSON.stringify(o)}`, mem, md, (s) => s.listNamespaces(o));

  console.log("batch");
  const ops = [
    { namespace: ["users", "u1"], key: "prefs" },
    { namespace: ["docs"], key: "a", value: { text: "third edition", n: 12 } },
    { namespacePrefix: ["docs"], filter: { n: 12 }, limit: 10, offset: 0 }, // reads see the store before the batch's writes
    { namespace: ["docs", "v1"], key: "c", value: null },
    { namespace: ["fresh"], key: "f1", value: { text: "new" } },
    { namespace: ["fresh"], key: "f1", value: { text: "newer" } }, // the last write of a key wins
    { matchConditions: [{ matchType: "prefix", path: ["fresh"] }], limit: 10, offset: 0 },
    { namespace: ["nowhere"], key: "x" },
  ];
  await compare("batch of mixed operations", mem, md, (s) => s.batch(ops));
  await compare("batch's writes applied", mem, md, (s) => s.batch([
    { namespace: ["docs"], key: "a" }, { namespace: ["docs", "v1"], key: "c" }, { namespace: ["fresh"], key: "f1" },
    { namespacePrefix: ["fresh"], limit: 10, offset: 0 },
  ]));
  await compare("empty batch", mem, md, (s) => s.batch([]));

  console.log("errors");
  const errs = [
    ["put an empty namespace", (s) => s.put([], "k", { a: 1 })],
    ["put a label with a period", (s) => s.put(["a.b"], "k", { a: 1 })],
    ["put a label with a colon", (s) => s.put(["a:b"], "k", { a: 1 })],
    ["put an empty label", (s) => s.put(["a", ""], "k", { a: 1 })],
    ["put under the reserved root langgraph", (s) => s.put(["langgraph", "x"], "k", { a: 1 })],
    ["put a label holding NUL", (s) => s.put(["a\u0000b"], "k", { a: 1 })],
    ["put a non-string label", (s) => s.put(["a", 3], "k", { a: 1 })],
    ["get an empty namespace (batch refuses)", (s) => s.get([], "k")],
    ["get a label with a period", (s) => s.get(["a.b"], "k")],
    ["search a prefix with a period", (s) => s.search(["a.b"])],
    ["search a prefix with a colon", (s) => s.search(["a:b"])],
    ["listNamespaces a prefix with a period", (s) => s.listNamespaces({ prefix: ["a.b"] })],
    ["batch get an empty namespace", (s) => s.batch([{ namespace: [], key: "k" }])],
  ];
  for (const [what, f] of errs) {
    const [a, b] = [await outcome(() => f(mem)), await outcome(() => f(md))];
    check(a.error && same(a, b), `same error as InMemoryStore: ${what} (${a.error})`, `${short(a)}\n${short(b)}`);
  }
  check((await outcome(() => md.put(["langgraph"], "k", { a: 1 }))).error === "InvalidNamespaceError",
    "the reserved root is BaseStore's own InvalidNamespaceError", "");
  check(InvalidNamespaceError.name === "InvalidNamespaceError", "InvalidNamespaceError exported by the checkpoint package", "");
  const own = [
    ["a non-string key is a TypeError naming key", (s) => s.batch([{ namespace: ["a"], key: 3, value: { a: 1 } }]), "TypeError", /key/],
    ["a value that is not an object is a TypeError naming value", (s) => s.put(["a"], "k", "text"), "TypeError", /value/],
    ["a negative limit is a RangeError naming limit", (s) => s.search(["a"], { limit: -1 }), "RangeError", /limit/],
    ["a fractional offset is a RangeError naming offset", (s) => s.search(["a"], { offset: 1.5 }), "RangeError", /offset/],
    ["a query that is not a string is a TypeError naming query", (s) => s.search(["a"], { query: 3 }), "TypeError", /query/],
    ["maxDepth 0 is a RangeError naming maxDepth", (s) => s.listNamespaces({ maxDepth: 0 }), "RangeError", /maxDepth/],
    ["an unknown operation is a TypeError", (s) => s.batch([{ what: 1 }]), "TypeError", /operation/],
    ["a value JSON cannot hold is a TypeError", (s) => s.put(["a"], "k", { n: 1n }), "TypeError", /JSON/],
    ["a path past the cache's limits.path is a RangeError naming key", (s) => s.put(["a"], "x".repeat(2000), { n: 1 }), "RangeError", /key.*limits\.path 1024/],
    ["offset + limit past 10,000 with a query is a RangeError", (s) => s.search(["a"], { query: "x", offset: 9995, limit: 10 }), "RangeError", /offset \+ limit/],
  ];
  for (const [what, f, name, re] of own) {
    const r = await outcome(() => f(md));
    check(r.error === name && re.test(r.message), what, short(r));
  }
  check((await outcome(() => new MemdomainStore({ root: "no-slash" }))).error === "RangeError", "options.root without a trailing / is a RangeError", "");
  check((await outcome(() => new MemdomainStore({ index: { dims: 8 } }))).error === "TypeError", "options.index without embeddings is a TypeError", "");
  check((await outcome(() => new MemdomainStore({ search: { limit: 3 } }))).error === "RangeError", "options.search.limit is a RangeError (set per search)", "");

  console.log("differences, as documented");
  // InMemoryStore returns its own objects, which a later write changes (a get before a put in one batch shows the
  // put's value); MemdomainStore returns copies read before the batch's writes.
  const live = [{ namespace: ["users", "u1"], key: "prefs" }, { namespace: ["users", "u1"], key: "prefs", value: { theme: "blue", n: 7 } }];
  const [bm, bd] = [await mem.batch(live), await md.batch(live)];
  check(bm[0].value.theme === "blue" && bd[0].value.theme === "dark" && (await md.get(["users", "u1"], "prefs")).value.theme === "blue",
    "a get before a put of the same key in one batch: InMemoryStore's item shows the put, MemdomainStore's the value before", `${short(bm)} ${short(bd)}`);
  // InMemoryStore keeps a namespace whose items were all deleted; the cache lists namespaces from the items it holds.
  for (const s of [mem, md]) await s.delete(["dogs"], "e");
  const [lm, ld] = await Promise.all([mem.listNamespaces({ prefix: ["dogs"] }), md.listNamespaces({ prefix: ["dogs"] })]);
  check(same(lm, [["dogs"]]) && same(ld, []), "a namespace emptied by deletes: InMemoryStore still lists it, MemdomainStore does not", `${short(lm)} ${short(ld)}`);
  // Without an index InMemoryStore ignores a query; MemdomainStore ranks by the cache's text search.
  const [qm, qd] = [await mem.search(["users"], { query: "light" }), await md.search(["users"], { query: "light" })];
  check(qm.length === 3 && qm.every((h) => h.score === undefined), "InMemoryStore without an index ignores query (every item, no score)", short(qm));
  check(qd.length === 1 && qd[0].value.theme === "light" && typeof qd[0].score === "number" && qd[0].score > 0,
    "MemdomainStore ranks a query by the cache's text search (the one match, a fused score)", short(qd));
  // a key holding "/" and a deeper namespace never share a path
  for (const s of [mem, md]) { await s.put(["x"], "a/b", { v: 1 }); await s.put(["x", "a"], "b", { v: 2 }); await s.put(["x"], "a%002fb", { v: 3 }); }
  await compare("key a/b in [x], key b in [x, a] and key a%002fb in [x] stay apart", mem, md,
    (s) => s.batch([{ namespace: ["x"], key: "a/b" }, { namespace: ["x", "a"], key: "b" }, { namespace: ["x"], key: "a%002fb" },
      { namespacePrefix: ["x", "a"], limit: 10, offset: 0 }]));
  await md.stop();
}

// ---------------------------------------------------------------- pages
{
  console.log("pages (insertion order = path order, so both stores list alike)");
  const mem = new InMemoryStore(), md = new MemdomainStore();
  const keys = Array.from({ length: 23 }, (_, i) => `k${String(i).padStart(2, "0")}`);
  for (const s of [mem, md]) {
    await s.batch(keys.map((k, i) => ({ namespace: ["page"], key: k, value: { i, even: i % 2 === 0, text: `item ${i}` } })));
  }
  const pages = [{}, { limit: 5 }, { limit: 5, offset: 5 }, { limit: 5, offset: 20 }, { limit: 5, offset: 23 }, { limit: 0 }, { limit: 100 },
    { filter: { even: true }, limit: 3, offset: 2 }, { filter: { even: false }, limit: 100, offset: 10 }, { filter: { i: { $gte: 7 } }, limit: 4, offset: 4 }];
  for (const o of pages) await compare(`search [page] ${JSON.stringify(o)}`, mem, md, (s) => s.search(["page"], o));
  await md.stop();
}

// ---------------------------------------------------------------- vector search with an index
{
  console.log("vector search with index { dims, embeddings, fields }");
  /** A deterministic Embeddings (counts of eight letters): LangChain's class, no model. */
  class LetterEmbeddings extends Embeddings {
    constructor() { super({}); }
    vec(t) { return Array.from("etaoinsh", (ch) => t.toLowerCase().split(ch).length - 1); }
    async embedDocuments(texts) { return texts.map((t) => this.vec(t)); }
    async embedQuery(t) { return this.vec(t); }
  }
  const index = { dims: 8, embeddings: new LetterEmbeddings(), fields: ["text"] };
  const mem = new InMemoryStore({ index });
  // vector arm alone, no MMR reordering: the cosine order InMemoryStore gives
  const md = new MemdomainStore({ index, search: { weights: { lexical: 0, vector: 1, salience: 0, lateral: 0 }, lambda: 1, duplicate: null } });
  const texts = ["the cat sat on the mat", "a shiny new toaster oven", "notes on einstein", "haste makes waste",
    "ocean tides and moon", "ship hits iceberg", "tiny ants in a nest", "hello there"];
  for (const s of [mem, md]) await s.batch(texts.map((text, i) => ({ namespace: ["vec"], key: `t${i}`, value: { text, i, odd: i % 2 === 1 } })));
  const keysOf = (r) => r.map((h) => h.key);
  for (const q of ["the sea and the moon", "a hot oven", "sitting cats", "einstein notes", "ants"]) {
    const [a, b] = [await mem.search(["vec"], { query: q, limit: 4 }), await md.search(["vec"], { query: q, limit: 4 })];
    check(same(keysOf(a), keysOf(b)), `vector query ${JSON.stringify(q)}: the same top 4 as InMemoryStore's cosine`, `${keysOf(a)} vs ${keysOf(b)}`);
  }
  const [fa, fb] = [await mem.search(["vec"], { query: "the sea", filter: { odd: true }, limit: 2, offset: 1 }),
    await md.search(["vec"], { query: "the sea", filter: { odd: true }, limit: 2, offset: 1 })];
  check(same(keysOf(fa), keysOf(fb)), "vector query with a filter and a page: the same items", `${keysOf(fa)} vs ${keysOf(fb)}`);
  check(fb.every((h) => typeof h.score === "number"), "vector hits carry a score", short(fb));
  // index: false leaves an item out of the vector arm
  await md.put(["vec"], "unindexed", { text: "the sea and the moon" }, false);
  const hits = await md.search(["vec"], { query: "the sea and the moon", limit: 10 });
  check(!keysOf(hits).includes("unindexed"), "put(..., index: false) keeps the item out of vector search", keysOf(hits).join(","));
  check((await md.get(["vec"], "unindexed"))?.value.text === "the sea and the moon", "an unindexed item is still stored", "");
  await md.stop();

  // the cache's own embed hook, no index option: the store passes text, the cache embeds
  const embed = async (ts) => ts.map((t) => Float32Array.from("etaoinsh", (ch) => t.split(ch).length - 1));
  const cache = await openMemoryCache({ embed });
  const hooked = new MemdomainStore({ cache });
  await hooked.put(["h"], "1", { text: "ocean tides and moon" });
  await hooked.put(["h"], "2", { text: "a shiny new toaster oven" });
  const hh = await hooked.search(["h"], { query: "toaster" });
  check(hh[0]?.key === "2" && cache.dim === 8, "the cache's embed hook embeds items and queries", short(hh));
  await hooked.stop();
  check(!(await outcome(() => cache.count())).error, "stop() leaves a cache passed in open", "");
  await cache.close();
}

// ---------------------------------------------------------------- a file-backed cache reopened
{
  console.log("a file-backed cache, reopened");
  const dir = mkdtempSync(join(tmpdir(), "memdomain-langgraph-"));
  const path = join(dir, "store.db");
  try {
    const a = new MemdomainStore({ path });
    await a.put(["users", "u1"], "prefs", { theme: "dark" });
    await a.put(["users", "u1", "notes"], "n1", { text: "likes teal" });
    const first = await a.get(["users", "u1"], "prefs");
    await a.stop();
    const b = new MemdomainStore({ path });
    await b.start();
    const again = await b.get(["users", "u1"], "prefs");
    check(again?.value.theme === "dark" && again.createdAt.getTime() === first.createdAt.getTime(),
      `reopened (${(await b.cache()).backend}): the item and its createdAt`, short(again));
    check(same(await b.listNamespaces(), [["users", "u1"], ["users", "u1", "notes"]]), "reopened: its namespaces", short(await b.listNamespaces()));
    check((await b.search(["users"], { query: "teal" }))[0]?.key === "n1", "reopened: text search finds the note", "");
    await b.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- an agent that remembers across threads
{
  console.log("a StateGraph that remembers across threads");
  const State = Annotation.Root({
    user: Annotation(),
    input: Annotation(),
    recalled: Annotation({ reducer: (_, b) => b, default: () => [] }),
    reply: Annotation(),
  });
  const graph = new StateGraph(State)
    .addNode("remember", async (state, config) => {
      // a statement starting "remember:" is stored under the user's namespace (config.store)
      if (state.input.startsWith("remember:")) {
        await config.store.put(["memories", state.user], `m${Date.now()}`, { text: state.input.slice(9).trim() });
      }
      return {};
    })
    .addNode("recall", async (state) => {
      const store = getStore(); // the same store, from the node's context
      const hits = await store.search(["memories", state.user], { query: state.input, limit: 3 });
      const recalled = hits.map((h) => h.value.text);
      return { recalled, reply: recalled.length ? `You told me: ${recalled[0]}` : "I know nothing about that." };
    })
    .addEdge(START, "remember")
    .addEdge("remember", "recall")
    .addEdge("recall", END);
  const store = new MemdomainStore();
  const checkpointer = new MemorySaver();
  const app = graph.compile({ checkpointer, store });
  await app.invoke({ user: "ada", input: "remember: my favourite colour is teal" }, { configurable: { thread_id: "1" } });
  const out = await app.invoke({ user: "ada", input: "what is my favourite colour?" }, { configurable: { thread_id: "2" } });
  check(out.reply === "You told me: my favourite colour is teal", "thread 2 reads back by search what thread 1 stored", short(out));
  const other = await app.invoke({ user: "bob", input: "what is my favourite colour?" }, { configurable: { thread_id: "3" } });
  check(other.recalled.length === 0, "another user's namespace holds nothing of it", short(other));
  const t1 = await app.getState({ configurable: { thread_id: "1" } });
  const t2 = await app.getState({ configurable: { thread_id: "2" } });
  check(t1.values.input.startsWith("remember:") && t2.values.input.startsWith("what"), "the checkpointer keeps each thread's own state", "");
  const items = await store.search(["memories"], { limit: 10 });
  check(items.length === 1 && same(items[0].namespace, ["memories", "ada"]), "one memory, in the user's namespace", short(items));
  await store.stop();
}

finish("langgraph");
