// memdomain/langchain against the real @langchain/core (no mocks), make test-adapters:
// LangChain's vector-store checklist (the Python langchain-tests suite's
// VectorStoreIntegrationTests, its cases ported one by one on a fresh empty store each, with
// deterministic fake embeddings of size 6: SyntheticEmbeddings from
// @langchain/core/utils/testing), then filters, the order of scores, MMR, the hybrid retriever,
// argument errors, a chain (retriever -> prompt -> fake chat model -> parser) that must show
// the retrieved context reached the model's prompt, and a strict TypeScript consumer of the types.
import { Document } from "@langchain/core/documents";
import { VectorStore } from "@langchain/core/vectorstores";
import { BaseRetriever } from "@langchain/core/retrievers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import { FakeListChatModel, SyntheticEmbeddings } from "@langchain/core/utils/testing";
import { openMemoryCache } from "../../js/cache/index.js";
import { MemdomainRetriever, MemdomainVectorStore, toCacheFilter } from "../../js/adapters/langchain.js";
import { mkdirSync, writeFileSync } from "node:fs";
import ts from "typescript";
import { BUILD, ROOT, check, finish, same } from "../runtimes/lib.mjs";

const EMBEDDING_SIZE = 6;
const embeddings = () => new SyntheticEmbeddings({ vectorSize: EMBEDDING_SIZE });
const doc = (pageContent, metadata, id) => new Document({ pageContent, metadata, ...(id === undefined ? {} : { id }) });
/** Documents as plain values: what Python's Document == compares (page_content, metadata, id). */
const plain = (docs) => docs.map((d) => ({ id: d.id ?? null, pageContent: d.pageContent, metadata: d.metadata }));
const eqDocs = (got, want) => same(plain(got), plain(want));

/** Run one checklist case on a fresh, empty store: `body(store)` returns [ok, detail]. */
async function checklist(name, body) {
  const store = await MemdomainVectorStore.open(embeddings());
  try {
    const [ok, detail] = await body(store);
    check(ok, `checklist ${name}`, detail);
  } catch (e) {
    check(false, `checklist ${name}`, e.stack);
  } finally {
    await store.close();
  }
}
const show = (x) => JSON.stringify(x, null, 0);

console.log("langchain: memdomain/langchain against @langchain/core " +
  (await import("@langchain/core/package.json", { with: { type: "json" } })).default.version);

// ---------------------------------------------------------------- the checklist (VectorStoreIntegrationTests)
await checklist("test_vectorstore_is_empty", async (s) => {
  const got = await s.similaritySearch("foo", 1);
  return [eqDocs(got, []), show(plain(got))];
});

await checklist("test_add_documents", async (s) => {
  const original = [doc("foo", { id: 1 }), doc("bar", { id: 2 })];
  const ids = await s.addDocuments(original);
  const got = await s.similaritySearch("bar", 2);
  const ok = eqDocs(got, [doc("bar", { id: 2 }, ids[1]), doc("foo", { id: 1 }, ids[0])]) &&
    eqDocs(original, [doc("foo", { id: 1 }), doc("bar", { id: 2 })]); // the originals are not mutated (no id added)
  return [ok, `${show(plain(got))}\noriginals: ${show(plain(original))}`];
});

await checklist("test_vectorstore_still_empty", async (s) => {
  const got = await s.similaritySearch("foo", 1);
  return [eqDocs(got, []), show(plain(got))];
});

await checklist("test_deleting_documents", async (s) => {
  const ids = await s.addDocuments([doc("foo", { id: 1 }), doc("bar", { id: 2 })], { ids: ["1", "2"] });
  await s.delete({ ids: ["1"] });
  const got = await s.similaritySearch("foo", 1);
  return [same(ids, ["1", "2"]) && eqDocs(got, [doc("bar", { id: 2 }, "2")]), `${show(ids)} ${show(plain(got))}`];
});

await checklist("test_deleting_bulk_documents", async (s) => {
  await s.addDocuments([doc("foo", { id: 1 }), doc("bar", { id: 2 }), doc("baz", { id: 3 })], { ids: ["1", "2", "3"] });
  await s.delete({ ids: ["1", "2"] });
  const got = await s.similaritySearch("foo", 1);
  return [eqDocs(got, [doc("baz", { id: 3 }, "3")]), show(plain(got))];
});

await checklist("test_delete_missing_content", async (s) => {
  await s.delete({ ids: ["1"] });
  await s.delete({ ids: ["1", "2", "3"] });
  await s.delete(["1"]); // Python's positional form
  return [true, ""];
});

await checklist("test_add_documents_with_ids_is_idempotent", async (s) => {
  const docs = [doc("foo", { id: 1 }), doc("bar", { id: 2 })];
  await s.addDocuments(docs, { ids: ["1", "2"] });
  await s.addDocuments(docs, { ids: ["1", "2"] });
  const got = await s.similaritySearch("bar", 2);
  const n = await s.cache.count();
  return [eqDocs(got, [doc("bar", { id: 2 }, "2"), doc("foo", { id: 1 }, "1")]) && n === 2, `${show(plain(got))} count ${n}`];
});

await checklist("test_add_documents_by_id_with_mutation", async (s) => {
  await s.addDocuments([doc("foo", { id: 1 }), doc("bar", { id: 2 })], { ids: ["1", "2"] });
  await s.addDocuments([doc("new foo", { id: 1, some_other_field: "foo" })], { ids: ["1"] });
  const got = await s.similaritySearch("new foo", 2);
  return [eqDocs(got, [doc("new foo", { id: 1, some_other_field: "foo" }, "1"), doc("bar", { id: 2 }, "2")]), show(plain(got))];
});

await checklist("test_get_by_ids", async (s) => {
  const ids = await s.addDocuments([doc("foo", { id: 1 }), doc("bar", { id: 2 })], { ids: ["1", "2"] });
  const got = await s.getByIds(ids);
  return [eqDocs(got, [doc("foo", { id: 1 }, ids[0]), doc("bar", { id: 2 }, ids[1])]), show(plain(got))];
});

await checklist("test_get_by_ids_missing", async (s) => {
  const got = await s.getByIds(["1", "2", "3"]);
  return [eqDocs(got, []), show(plain(got))];
});

await checklist("test_add_documents_documents", async (s) => {
  const ids = await s.addDocuments([doc("foo", { id: 1 }), doc("bar", { id: 2 })]);
  const got = await s.getByIds(ids);
  return [ids.every((id) => typeof id === "string" && id.length > 0) &&
    eqDocs(got, [doc("foo", { id: 1 }, ids[0]), doc("bar", { id: 2 }, ids[1])]), `${show(ids)} ${show(plain(got))}`];
});

await checklist("test_add_documents_with_existing_ids", async (s) => {
  const ids = await s.addDocuments([doc("foo", { id: 1 }, "foo"), doc("bar", { id: 2 })]);
  const got = await s.getByIds(ids);
  return [ids.includes("foo") && eqDocs(got, [doc("foo", { id: 1 }, "foo"), doc("bar", { id: 2 }, ids[1])]), `${show(ids)} ${show(plain(got))}`];
});

// The suite's async variants repeat the cases above through Python's a* methods; LangChain.js has
// one API and it is async, so each is the case above, run once.
for (const name of ["test_vectorstore_is_empty_async", "test_add_documents_async", "test_vectorstore_still_empty_async",
  "test_deleting_documents_async", "test_deleting_bulk_documents_async", "test_delete_missing_content_async",
  "test_add_documents_with_ids_is_idempotent_async", "test_add_documents_by_id_with_mutation_async", "test_get_by_ids_async",
  "test_get_by_ids_missing_async", "test_add_documents_documents_async", "test_add_documents_with_existing_ids_async"])
  console.log(`  n/a  checklist ${name}: not applicable, LangChain.js methods are all async (the case above without _async is this one)`);

// ---------------------------------------------------------------- the store beyond the checklist
{
  const s = await MemdomainVectorStore.open(embeddings());
  check(s instanceof VectorStore && s._vectorstoreType() === "memdomain", "a VectorStore whose _vectorstoreType() is \"memdomain\"");
  const docs = [
    doc("deploys go through the canary pipeline", { team: "infra", year: 2024, reviewed: true }, "a"),
    doc("ranking deploys ship behind a flag", { team: "search", year: 2025, reviewed: false }, "b"),
    doc("the cache expires after one hour", { team: "infra", year: 2026 }, "c"),
    doc("rollbacks use the revert step", { team: "search", year: 2023, reviewed: true }, "d"),
  ];
  await s.addDocuments(docs);
  const scored = await s.similaritySearchWithScore("deploys go through the canary pipeline", 4);
  const scores = scored.map(([, x]) => x);
  check(scored.length === 4 && scored[0][0].id === "a" && Math.abs(scores[0] - 1) < 1e-6 &&
    scores.every((x, i) => i === 0 || x <= scores[i - 1]) && scores.every((x) => x >= -1 - 1e-9 && x <= 1 + 1e-9),
    "similaritySearchWithScore: cosine similarity, the exact text first at 1, scores descending in [-1, 1]", show(scored.map(([d, x]) => [d.id, x])));
  const vec = await s.embeddings.embedQuery("rollbacks use the revert step");
  const byVec = await s.similaritySearchVectorWithScore(vec, 2);
  check(byVec[0][0].id === "d" && byVec.length === 2, "similaritySearchVectorWithScore: the nearest vector first, k results", show(byVec.map(([d, x]) => [d.id, x])));

  const ids = async (filter, k = 4) => (await s.similaritySearch("deploys", k, filter)).map((d) => d.id).sort();
  const cases = [
    [{ team: "infra" }, ["a", "c"]],
    [{ team: { $eq: "search" } }, ["b", "d"]],
    [{ team: { $ne: "infra" } }, ["b", "d"]],
    [{ year: { $gte: 2025 } }, ["b", "c"]],
    [{ year: { $gt: 2023, $lt: 2026 } }, ["a", "b"]],
    [{ team: { $in: ["infra"] }, reviewed: true }, ["a"]],
    [{ reviewed: { $exists: false } }, ["c"]],
    [{ $or: [{ team: "infra", year: 2026 }, { reviewed: false }] }, ["b", "c"]],
    [{ $and: [{ team: "search" }, { $not: { reviewed: true } }] }, ["b"]],
    [{ team: { $nin: ["infra", "search"] } }, []],
  ];
  for (const [f, want] of cases) {
    const got = await ids(f);
    check(same(got, want), `filter ${show(f)} -> ${show(want)}`, show(got));
  }
  check(same((await ids({ team: "infra" }, 1)).length, 1), "a filter with k = 1 still returns one match (the cache filters before its top-k)");

  // MMR: two near-copies and one other; lambda 0 (diversity) picks the other second, lambda 1 the copy
  const m = await MemdomainVectorStore.open(embeddings());
  await m.addDocuments([doc("alpha beta gamma", {}, "x1"), doc("alpha beta gammb", {}, "x2"), doc("zzzz qqqq", {}, "y")]);
  const diverse = (await m.maxMarginalRelevanceSearch("alpha beta gamma", { k: 2, fetchK: 3, lambda: 0.2 })).map((d) => d.id);
  const relevant = (await m.similaritySearch("alpha beta gamma", 2)).map((d) => d.id);
  check(same(diverse, ["x1", "y"]) && same(relevant, ["x1", "x2"]),
    "maxMarginalRelevanceSearch (the cache's MMR, lambda 0.2): the near-copy gives way to a different document", `mmr ${show(diverse)}, similarity ${show(relevant)}`);
  const viaRetriever = (await m.asRetriever({ k: 2, searchType: "mmr", searchKwargs: { fetchK: 3, lambda: 0.2 } }).invoke("alpha beta gamma")).map((d) => d.id);
  check(same(viaRetriever, ["x1", "y"]), "asRetriever({ searchType: \"mmr\" }) runs the same MMR", show(viaRetriever));
  await m.close();

  const r = s.asRetriever({ k: 1, filter: { team: "search" } });
  const got = await r.invoke("deploys");
  check(got.length === 1 && got[0].metadata.team === "search", "asRetriever(k, filter) works", show(plain(got)));

  await s.delete({ filter: { team: "infra" } });
  check(same((await s.getByIds(["a", "b", "c", "d"])).map((d) => d.id), ["b", "d"]), "delete({ filter }) deletes what the filter selects");
  await s.close();
}

// fromTexts / fromDocuments, a path prefix, a shared cache
{
  const s = await MemdomainVectorStore.fromTexts(["foo", "bar"], [{ n: 1 }, { n: 2 }], embeddings(), {});
  const got = await s.similaritySearch("bar", 1);
  check(got[0].pageContent === "bar" && got[0].metadata.n === 2, "fromTexts builds a store (metadatas by index)", show(plain(got)));
  await s.close();
  const cache = await openMemoryCache();
  await cache.put([{ path: "other/memory", gist: "foo is a memory", body: "", type: "semantic", createdAt: 0, embedding: await embeddings().embedQuery("foo") }]);
  const t = await MemdomainVectorStore.fromDocuments([doc("foo", { k: "v" }, "1")], embeddings(), { cache, pathPrefix: "lc/" });
  const hits = await t.similaritySearch("foo", 5);
  check(same(plain(hits), [{ id: "1", pageContent: "foo", metadata: { k: "v" } }]) && same((await cache.paths()).paths, ["lc/1", "other/memory"]),
    "fromDocuments over a shared cache with pathPrefix: ids live under the prefix, searches see only them", show(plain(hits)));
  await t.close(); // not owned: the cache stays open
  check((await cache.count()) === 2, "close() leaves a cache it did not open open");
  await cache.close();
}

// ---------------------------------------------------------------- the hybrid retriever
{
  const cache = await openMemoryCache();
  const s = new MemdomainVectorStore(embeddings(), { cache });
  await s.addDocuments([
    doc("Deploys go out through the canary pipeline", { team: "infra" }, "deploy"),
    doc("Roll back a bad deploy with the revert step", { team: "infra" }, "rollback"),
    doc("The search team ships ranking changes behind a flag", { team: "search" }, "flags"),
  ]);
  const r = new MemdomainRetriever({ cache, embeddings: embeddings(), k: 2 });
  check(r instanceof BaseRetriever, "MemdomainRetriever is a BaseRetriever");
  const got = await r.invoke("revert a bad deploy");
  check(got[0]?.id === "rollback" && got.length === 2, "the retriever's hybrid search (lexical + vector) ranks the matching document first", show(plain(got)));
  const filtered = await new MemdomainRetriever({ cache, k: 3, filter: { team: "search" } }).invoke("ranking flag");
  check(same(filtered.map((d) => d.id), ["flags"]), "the retriever's filter, lexical only without embeddings", show(plain(filtered)));
  const passthrough = await new MemdomainRetriever({ cache, embeddings: embeddings(), k: 3, searchOptions: { weights: { vector: 0, salience: 0, lateral: 0 } } })
    .invoke("canary");
  check(same(passthrough.map((d) => d.id), ["deploy"]), "searchOptions pass to cache.search (weights: lexical only)", show(plain(passthrough)));
  await cache.close();

  // the cache's own embed hook when the retriever has no Embeddings
  const hooked = await openMemoryCache({ embed: async (texts) => texts.map((t) => Float32Array.from("etaoinsh", (ch) => t.split(ch).length - 1)) });
  await hooked.put([{ path: "n1", gist: "", body: "the tea is hot", type: "semantic", createdAt: 0 },
    { path: "n2", gist: "", body: "zzz", type: "semantic", createdAt: 0 }]);
  const viaHook = await new MemdomainRetriever({ cache: hooked, k: 1 }).invoke("hot tea");
  check(same(viaHook.map((d) => [d.id, d.pageContent]), [["n1", "the tea is hot"]]), "the retriever uses the cache's embed hook without Embeddings", show(plain(viaHook)));
  await hooked.close();
}

// ---------------------------------------------------------------- errors name the argument
{
  const s = await MemdomainVectorStore.open(embeddings());
  const throws = async (f, Type, text) => { try { await f(); return false; } catch (e) { return e instanceof Type && e.message.includes(text) ? true : e.message; } };
  const cases = [
    [() => new MemdomainVectorStore(embeddings(), {}), TypeError, "fields.cache"],
    [() => new MemdomainVectorStore(null, { cache: s.cache }), TypeError, "embeddings"],
    [() => new MemdomainVectorStore(embeddings(), { cache: s.cache, pathprefix: "x" }), RangeError, "fields.pathprefix"],
    [() => s.similaritySearch("foo", 0), RangeError, "k must be an integer"],
    [() => s.addDocuments([doc("x", { loc: { lines: { from: 1 } } })]), TypeError, "documents[0].metadata.loc"],
    [() => s.addDocuments([doc("x", {})], { ids: ["1", "2"] }), RangeError, "options.ids"],
    [() => s.similaritySearch("foo", 1, { team: { $regex: "x" } }), RangeError, "filter.team.$regex"],
    [() => s.similaritySearch("foo", 1, (d) => true), TypeError, "filter"],
    [() => s.maxMarginalRelevanceSearch("foo", { lambda: 2 }), RangeError, "options.lambda"],
    [() => s.delete({}), RangeError, "params"],
    [() => new MemdomainRetriever({ cache: s.cache, searchOptions: { limit: 3 } }), RangeError, "fields.searchOptions.limit"],
    [() => toCacheFilter({ $xor: [] }), RangeError, "filter.$xor"],
  ];
  for (const [f, Type, text] of cases) {
    const r = await throws(f, Type, text);
    check(r === true, `a ${Type.name} naming ${text}`, r);
  }
  await s.close();
}

// ---------------------------------------------------------------- a chain, end to end
{
  const s = await MemdomainVectorStore.fromDocuments([
    doc("The staging database password rotates every Monday", { source: "ops" }, "rotation"),
    doc("Lunch is served at noon", { source: "hr" }, "lunch"),
  ], embeddings(), {});
  const retriever = new MemdomainRetriever({ cache: s.cache, embeddings: s.embeddings, k: 1 });
  const prompt = ChatPromptTemplate.fromMessages([["system", "Answer from this context:\n{context}"], ["human", "{question}"]]);
  const model = new FakeListChatModel({ responses: ["Every Monday."] });
  const seen = [];
  const chain = RunnableSequence.from([
    { context: retriever.pipe(RunnableLambda.from((docs) => docs.map((d) => d.pageContent).join("\n"))), question: new RunnablePassthrough() },
    prompt,
    model,
    new StringOutputParser(),
  ]);
  const answer = await chain.invoke("When does the staging password rotate?", {
    callbacks: [{ handleChatModelStart: (_llm, messages) => { seen.push(messages.flat().map((m) => m.content).join("\n")); } }],
  });
  check(answer === "Every Monday." && seen.length === 1 && seen[0].includes("The staging database password rotates every Monday") &&
    !seen[0].includes("Lunch"), "a chain retriever -> prompt -> FakeListChatModel -> StringOutputParser: the retrieved context reached the model's prompt",
  `answer ${show(answer)}; prompt ${show(seen)}`);
  await s.close();
}

// ---------------------------------------------------------------- the declarations (js/types/langchain.d.ts)
{
  // a strict NodeNext consumer of "memdomain/langchain" (mapped to the .d.ts the exports map names), skipLibCheck off:
  // @langchain/core's own declarations are checked too (they need lib DOM and esnext.disposable)
  const dir = `${BUILD}adapters-types/langchain/`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}package.json`, '{ "type": "module" }\n');
  writeFileSync(`${dir}consumer.ts`, `import { MAX_K, MemdomainRetriever, MemdomainVectorStore, toCacheFilter, type LangChainFilter } from "memdomain/langchain";
const embeddings = { embedQuery: async (t: string): Promise<number[]> => [t.length, 1], embedDocuments: async (ts: string[]): Promise<number[][]> => ts.map((t) => [t.length, 1]) };
const store: MemdomainVectorStore = await MemdomainVectorStore.open(embeddings, { pathPrefix: "lc/" });
const ids: string[] = await store.addDocuments([{ pageContent: "foo", metadata: { a: 1 } }], { ids: ["1"] });
const filter: LangChainFilter = { a: { $gte: 1 }, $or: [{ b: "x" }, { $not: { c: true } }] };
const scored: [unknown, number][] = await store.similaritySearchWithScore("foo", 1, filter);
await store.maxMarginalRelevanceSearch("foo", { k: 1, fetchK: 4, lambda: 0.5 });
await store.delete({ ids });
const kind: "memdomain" = store._vectorstoreType();
const retriever = new MemdomainRetriever({ cache: store.cache, embeddings, k: 2, searchOptions: { preset: "memhtml" } });
const docs = await retriever.invoke("foo");
const k: 10000 = MAX_K;
export const used = [scored, docs, toCacheFilter(filter), k, kind];
`);
  const options = ts.convertCompilerOptionsFromJson({ strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext",
    skipLibCheck: false, lib: ["ES2022", "DOM", "esnext.disposable"], types: [], paths: { "memdomain/langchain": [`${ROOT}js/types/langchain.d.ts`] } }, dir).options;
  const program = ts.createProgram([`${dir}consumer.ts`], options);
  const errors = ts.getPreEmitDiagnostics(program);
  check(errors.length === 0, "types/langchain.d.ts: a strict NodeNext consumer compiles (skipLibCheck off, @langchain/core's types included)",
    ts.formatDiagnostics(errors.slice(0, 8), { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" }));
}

finish("langchain");
