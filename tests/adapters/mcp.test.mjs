// memdomain-mcp (js/adapters/mcp.js, js/bin/memdomain-mcp.js) driven by the MCP SDK's own client:
// over stdio (Client + StdioClientTransport spawning `node js/bin/memdomain-mcp.js --db <tmp file>`,
// as a desktop agent runs it) and in process (InMemoryTransport, with a fixed clock). Every tool
// is called and its effect checked; bad arguments for each tool come back as MCP errors while the
// server keeps answering; the memories persist across a restart on the same file; stdout carries
// nothing but JSON-RPC. Run by make test-adapters.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { check, finish, ROOT } from "../runtimes/lib.mjs";
import { openMemoryCache } from "../../js/cache/index.js";
import { createMemoryServer, TOOLS } from "../../js/adapters/mcp.js";

const BIN = `${ROOT}js/bin/memdomain-mcp.js`;
const dir = mkdtempSync(join(tmpdir(), "memdomain-mcp-"));
const DB = join(dir, "memory.db");
const limit = setTimeout(() => { console.log("  FAIL the test ran past 180 s"); process.exit(1); }, 180000);
limit.unref();
const SDK = JSON.parse(readFileSync(`${ROOT}node_modules/@modelcontextprotocol/sdk/package.json`, "utf8")).version;
console.log(`memdomain-mcp on Node ${process.versions.node}, @modelcontextprotocol/sdk ${SDK}`);

/** A client connected to a fresh memdomain-mcp process on `db`; its stderr collected, transport errors counted. */
async function spawnClient(db) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--db", db], stderr: "pipe", cwd: dir,
    env: { PATH: process.env.PATH ?? "" } });
  const stderr = [];
  transport.stderr.on("data", (d) => stderr.push(d));
  const errors = [];
  const client = new Client({ name: "memdomain-test", version: "1.0.0" });
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, errors, stderr: () => Buffer.concat(stderr).toString() };
}
const call = (client, name, args) => client.callTool({ name, arguments: args });
const textOf = (r) => r.content?.map((c) => c.text).join("\n") ?? "";
const paths = (r) => r.structuredContent?.hits?.map((h) => h.path);

// ---------------------------------------------------------------- over stdio
const s = await spawnClient(DB);
const { client } = s;
check(client.getServerVersion()?.name === "memdomain" && client.getServerCapabilities()?.tools !== undefined,
  "initialize: the server names itself memdomain and offers tools", JSON.stringify(client.getServerVersion()));
const { tools } = await client.listTools();
check(JSON.stringify(tools.map((t) => t.name)) === JSON.stringify(TOOLS), `tools/list: ${TOOLS.join(", ")}`, tools.map((t) => t.name).join(", "));
const schema = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
check(schema.remember?.type === "object" && JSON.stringify(schema.remember.required) === '["text"]' &&
  ["path", "gist", "type", "importance", "tags", "metadata"].every((k) => schema.remember.properties[k]),
  "remember's input schema: text required; path, gist, type, importance, tags, metadata optional", JSON.stringify(schema.remember));
check(schema.recall?.properties?.limit?.maximum === 100 && schema.recall.properties.offset && schema.recall.properties.filter &&
  !schema.recall.required?.length && tools.find((t) => t.name === "recall").outputSchema?.properties?.hits,
  "recall's input schema: text, limit (1-100), offset, filters; an output schema with hits", JSON.stringify(schema.recall));
check(JSON.stringify(schema.reinforce?.required) === '["path"]' && JSON.stringify(schema.reinforce.properties.signal.enum) === '["positive","negative","neutral"]',
  "reinforce's input schema: path, signal positive/negative/neutral", JSON.stringify(schema.reinforce));
check(JSON.stringify(schema.link?.required) === '["from","to"]' && schema.link.properties.strength.maximum === 1,
  "link's input schema: from, to, strength 0-1, type", JSON.stringify(schema.link));
check(["forget", "restore"].every((t) => JSON.stringify(schema[t]?.required) === '["path"]') && schema.sleep?.properties?.policy?.properties?.evict,
  "forget and restore take a path; sleep takes policy fields", JSON.stringify([schema.forget, schema.sleep]));

// remember
const put = [
  { path: "notes/deploy", text: "Deploys go out through the canary pipeline. Roll back with the revert step.", gist: "Deploys go out through the canary pipeline",
    type: "procedural", tags: ["ops"], metadata: { team: "infra", reviewed: true }, importance: 8 },
  { path: "notes/retry", text: "Retry with exponential backoff; three retries, then open the circuit.", type: "semantic", tags: ["ops", "net"], metadata: { team: "search" } },
  { path: "notes/ttl", text: "Cache entries expire after one hour. The TTL is 3600 seconds.", type: "semantic", tags: ["cache"] },
  { path: "people/ana", text: "Ana prefers morning meetings", type: "episodic" },
  { path: "people/bo", text: "Bo prefers morning meetings", type: "episodic" },
];
const rs = [];
for (const m of put) rs.push(await call(client, "remember", m));
check(rs.every((r, i) => !r.isError && r.structuredContent?.path === put[i].path && r.structuredContent.replaced === false),
  "remember: five memories stored at their paths", JSON.stringify(rs.map((r) => r.structuredContent ?? textOf(r))));
const gen = await call(client, "remember", { text: "The office wifi password rotates every Monday\nAsk IT for the new one." });
const genPath = gen.structuredContent?.path;
check(!gen.isError && /^memories\/the-office-wifi-password-rotates-every-monday-[0-9a-f]{8}$/.test(genPath ?? ""),
  "remember without a path: a path is generated from the gist (the text's first line) and returned", JSON.stringify(gen));
const again = await call(client, "remember", { ...put[2], text: "Cache entries expire after one hour. The TTL is 3600 seconds (set in config)." });
check(again.structuredContent?.replaced === true, "remember on a stored path replaces it", JSON.stringify(again));

// recall
let r = await call(client, "recall", { text: "how do we roll back a deploy with the canary?" });
check(!r.isError && paths(r)?.[0] === "notes/deploy" && r.structuredContent.hits[0].gist === "Deploys go out through the canary pipeline" &&
  r.structuredContent.hits[0].score > 0 && /^1\. notes\/deploy \(score [0-9.]+\): Deploys go out/.test(textOf(r)) &&
  r.structuredContent.hits[0].text.includes("revert step") && r.structuredContent.hits[0].type === "procedural",
  "recall: remember then recall finds it first, with gist, text, score (text content and structuredContent)", JSON.stringify(r));
r = await call(client, "recall", { text: "wifi password" });
check(paths(r)?.[0] === genPath, "recall finds the memory stored under a generated path", JSON.stringify(paths(r)));
r = await call(client, "recall", { text: "TTL config" });
check(paths(r)?.[0] === "notes/ttl" && r.structuredContent.hits[0].text.includes("set in config"), "recall reads the replaced memory's new text", textOf(r));
const filtered = {
  type: [{ text: "pipeline retries meetings", type: "episodic" }, ["people/ana", "people/bo"]],
  tags: [{ text: "pipeline retries cache expire", tags: ["net"] }, ["notes/retry"]],
  prefix: [{ text: "morning meetings deploys", prefix: "people/" }, ["people/ana", "people/bo"]],
  metadata: [{ text: "deploys retry", metadata: { team: "infra" } }, ["notes/deploy"]],
  filter: [{ text: "deploys retry cache", filter: { tags: { none: ["ops"] } } }, ["notes/ttl"]],
  "filter and tags": [{ text: "deploys retry cache", tags: ["ops"], filter: { metadata: { reviewed: { exists: false } } } }, ["notes/retry"]],
};
for (const [what, [args, want]] of Object.entries(filtered)) {
  r = await call(client, "recall", args);
  check(!r.isError && JSON.stringify([...(paths(r) ?? [])].sort()) === JSON.stringify(want), `recall with ${what}: ${want.join(", ")}`, JSON.stringify(r));
}
const all = paths(await call(client, "recall", { text: "morning meetings pipeline retry" }));
const p1 = paths(await call(client, "recall", { text: "morning meetings pipeline retry", limit: 1 }));
const p2 = paths(await call(client, "recall", { text: "morning meetings pipeline retry", limit: 1, offset: 1 }));
check(all?.length >= 3 && p1?.length === 1 && p1[0] === all[0] && p2?.length === 1 && p2[0] === all[1],
  "recall: limit 1 gives the first hit, offset 1 the second", JSON.stringify({ all, p1, p2 }));
r = await call(client, "recall", { text: "zebra quantum" });
check(!r.isError && r.structuredContent.hits.length === 0 && textOf(r) === "No memory matched.", "recall with no match: no hits", JSON.stringify(r));

// reinforce: ana and bo tie on the words; the one used ranks first (the salience arm)
const tie = async () => paths(await call(client, "recall", { text: "prefers morning meetings", type: "episodic" }));
const before = await tie();
const used = before?.[1];
r = await call(client, "reinforce", { path: used, signal: "positive" });
check(!r.isError && r.structuredContent.bumped === true, `reinforce ${used} (positive): bumped`, JSON.stringify(r));
const after = await tie();
check(before?.length === 2 && after?.[0] === used, "reinforce: the reinforced memory of a tie now ranks first", JSON.stringify({ before, after }));
r = await call(client, "reinforce", { path: used, signal: "negative" });
check(!r.isError && r.structuredContent.bumped === false && r.structuredContent.cooledDown === true,
  "reinforce again within 15 minutes: cooled down, not bumped", JSON.stringify(r));

// forget and restore
r = await call(client, "forget", { path: "notes/retry" });
check(!r.isError && r.structuredContent.archived === true, "forget notes/retry: archived", JSON.stringify(r));
r = await call(client, "recall", { text: "exponential backoff retries" });
check(!r.isError && !paths(r).includes("notes/retry"), "forget hides it from recall", JSON.stringify(paths(r)));
r = await call(client, "list", { which: "archived" });
check(JSON.stringify(r.structuredContent?.paths) === '["notes/retry"]', "list archived: the forgotten memory is kept", JSON.stringify(r));
r = await call(client, "forget", { path: "notes/retry" });
check(!r.isError && r.structuredContent.archived === false, "forget twice: already archived, not an error", JSON.stringify(r));
r = await call(client, "restore", { path: "notes/retry" });
check(!r.isError && r.structuredContent.restored === true, "restore notes/retry", JSON.stringify(r));
r = await call(client, "recall", { text: "exponential backoff retries" });
check(paths(r)?.[0] === "notes/retry", "restore brings it back into recall", JSON.stringify(paths(r)));

// link: a query that names only the deploy memory reaches the TTL memory through the link (the lateral arm)
const q = { text: "canary revert" };
const unlinked = paths(await call(client, "recall", q));
r = await call(client, "link", { from: "notes/deploy", to: "notes/ttl", strength: 0.9, type: "depends-on" });
check(!r.isError && r.structuredContent.type === "depends-on" && r.structuredContent.strength === 0.9, "link notes/deploy -> notes/ttl", JSON.stringify(r));
const linked = paths(await call(client, "recall", q));
check(JSON.stringify(unlinked) === '["notes/deploy"]' && linked?.[0] === "notes/deploy" && linked.includes("notes/ttl"),
  "link: recall of the source now brings the linked memory too", JSON.stringify({ unlinked, linked }));

// list and stats
r = await call(client, "list", { prefix: "notes/" });
check(JSON.stringify(r.structuredContent?.paths) === '["notes/deploy","notes/retry","notes/ttl"]' && r.structuredContent.next === null,
  "list with a prefix: the paths in order", JSON.stringify(r));
r = await call(client, "list", { limit: 2 });
const page2 = await call(client, "list", { limit: 2, after: r.structuredContent?.next });
check(r.structuredContent?.paths.length === 2 && page2.structuredContent?.paths?.[0] > r.structuredContent.paths[1], "list pages with limit and after", JSON.stringify([r, page2]));
r = await call(client, "stats", {});
check(!r.isError && r.structuredContent?.live === 6 && r.structuredContent.archived === 0 && r.structuredContent.links === 1 &&
  r.structuredContent.backend === (process.versions.node.split(".")[0] >= 22 ? "node:sqlite" : "better-sqlite3"),
  "stats: 6 live, 0 archived, 1 link, the file's backend", JSON.stringify(r));

// sleep
r = await call(client, "sleep", {});
const sum = r.structuredContent;
check(!r.isError && sum?.memories === 6 && sum.bands.keep + sum.bands.compress + sum.bands.evict === 6 && Array.isArray(sum.archived) &&
  sum.edges?.links === 1 && /^Slept over 6 memories: keep \d+, compress \d+, evict \d+/.test(textOf(r)),
  "sleep returns its summary: memories, bands, archived, edges", JSON.stringify(r));
r = await call(client, "sleep", { policy: { minAgeDays: 60, keepThreshold: 0.8 } });
check(!r.isError && r.structuredContent.archived.length === 0, "sleep with policy fields (stored; nothing archived at 60 days' minimum age)", JSON.stringify(r));

// bad arguments: each tool answers with an MCP error naming the argument, and the server keeps answering
const bad = [
  ["remember", {}, /text/],
  ["remember", { text: "x", importance: 11 }, /importance/],
  ["remember", { text: "x", metadata: { nested: { a: 1 } } }, /metadata/],
  ["remember", { text: "x", createdAt: "not a date" }, /createdAt is not a date/],
  ["remember", { text: "x", path: "notes/a", tags: ["a", "a"] }, /tags/],
  ["remember", { text: "x", embedding: [1, 2] }, /embedding/], // no embeddings stored yet: dimension 2 is fine, so this one is stored...
  ["recall", {}, /recall: give text/],
  ["recall", { text: "a", limit: 0 }, /limit/],
  ["recall", { text: "a", limit: "ten" }, /limit/],
  ["recall", { text: "a", filter: { tagz: "x" } }, /filter.*tagz|tagz/],
  ["recall", { text: "a", vector: [1, 2, 3] }, /vector/],
  ["reinforce", { path: "notes/nope" }, /reinforce: path names no stored memory/],
  ["reinforce", { path: "notes/deploy", signal: "great" }, /signal/],
  ["reinforce", {}, /path/],
  ["forget", { path: "notes/nope" }, /forget: path names no stored memory/],
  ["forget", { path: 7 }, /path/],
  ["restore", { path: "notes/deploy" }, /restore: path is not archived/],
  ["restore", { path: "notes/nope" }, /restore: path names no stored memory/],
  ["link", { from: "notes/nope", to: "notes/ttl" }, /link: from names no stored memory/],
  ["link", { from: "notes/deploy", to: "notes/nope" }, /link: to names no stored memory/],
  ["link", { from: "notes/deploy", to: "notes/ttl", strength: 2 }, /strength/],
  ["sleep", { policy: { evictt: true } }, /evictt/],
  ["sleep", { evict: "yes" }, /evict/],
  ["list", { which: "some" }, /which/],
  ["nosuchtool", {}, /nosuchtool/],
];
for (const [name, args, want] of bad) {
  let res, threw = null;
  try {
    res = await call(client, name, args);
  } catch (e) {
    threw = e;
  }
  const msg = threw ? threw.message : textOf(res);
  if (name === "remember" && args.embedding) { // the first embedding fixes the dimension: stored; a second of another dimension is the error
    const second = await call(client, "remember", { text: "y", embedding: [1, 2, 3] });
    check(!res.isError && second.isError && /embedding/.test(textOf(second)), "remember: an embedding of another dimension is an error naming embedding", textOf(second));
    await call(client, "forget", { path: res.structuredContent.path });
    continue;
  }
  const alive = await call(client, "stats", {});
  check((threw || res.isError === true) && want.test(msg) && !alive.isError,
    `${name} ${JSON.stringify(args)}: an MCP error (${msg.split("\n")[0].slice(0, 90)}), and the server still answers`, msg);
}
await client.ping();
check(s.errors.length === 0, "the client saw no transport error (every stdout line was a JSON-RPC message)", s.errors.map(String).join("\n"));
const before2 = (await call(client, "stats", {})).structuredContent;
await client.close();
check(/memdomain-mcp: serving .*memory\.db/.test(s.stderr()), "the server logs to stderr", s.stderr());

// ---------------------------------------------------------------- restart on the same file
const t = await spawnClient(DB);
r = await call(t.client, "stats", {});
check(JSON.stringify(r.structuredContent) === JSON.stringify(before2), "restart on the same file: the same counts", JSON.stringify([before2, r.structuredContent]));
r = await call(t.client, "recall", { text: "canary revert" });
check(JSON.stringify(paths(r)?.slice(0, 2)) === '["notes/deploy","notes/ttl"]', "restart: recall finds the memories and the link", JSON.stringify(paths(r)));
r = await call(t.client, "list", { which: "archived" });
check(r.structuredContent?.paths.length === 1, "restart: the archived memory is still archived (restorable)", JSON.stringify(r));
await t.client.close();

// ---------------------------------------------------------------- stdout holds JSON-RPC only (raw)
{
  const child = spawn(process.execPath, [BIN, "--db", DB], { stdio: ["pipe", "pipe", "pipe"] });
  const out = [];
  child.stdout.on("data", (d) => out.push(d));
  const msgs = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "recall", arguments: { text: "deploy" } } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "remember", arguments: { text: 5 } } },
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "sleep", arguments: {} } },
    { jsonrpc: "2.0", id: 5, method: "no/such/method" },
  ];
  const closed = new Promise((res) => child.on("close", res));
  for (const m of msgs) child.stdin.write(`${JSON.stringify(m)}\n`);
  child.stdin.write("this is not json\n");
  const seen = new Set();
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline && seen.size < 5) {
    await new Promise((res) => setTimeout(res, 50));
    for (const l of Buffer.concat(out).toString().split("\n")) { try { const id = JSON.parse(l).id; if (id) seen.add(id); } catch {} }
  }
  child.stdin.end();
  const code = await closed;
  const lines = Buffer.concat(out).toString().split("\n").filter((l) => l !== "");
  const parsed = lines.map((l) => { try { return JSON.parse(l); } catch { return null; } });
  check(lines.length >= 5 && parsed.every((m) => m && m.jsonrpc === "2.0"), `stdout: ${lines.length} lines, every one a JSON-RPC 2.0 message`, lines.join("\n").slice(0, 2000));
  const byId = Object.fromEntries(parsed.filter((m) => m?.id !== undefined).map((m) => [m.id, m]));
  check(byId[3]?.result?.isError === true && byId[4]?.result?.structuredContent?.memories >= 6 && byId[5]?.error?.code === -32601,
    "raw: a bad argument is a tool error, sleep still answers, an unknown method is JSON-RPC's -32601", JSON.stringify([byId[3], byId[5]]));
  check(code === 0, `the server exits 0 when stdin ends (got ${code})`);
}

// ---------------------------------------------------------------- in process (InMemoryTransport, a fixed clock)
{
  let clock = Date.UTC(2026, 0, 1);
  const cache = await openMemoryCache();
  const server = createMemoryServer(cache, { now: () => clock });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const c = new Client({ name: "in-process", version: "1.0.0" });
  await Promise.all([server.connect(b), c.connect(a)]);
  await call(c, "remember", { path: "old/one", text: "An old fact about the staging cluster", type: "episodic", importance: 1 });
  await call(c, "remember", { path: "old/two", text: "Another fact about the staging cluster", type: "episodic" });
  const m = (await cache.get(["old/one"]))[0];
  check(m.createdAt === clock && m.importance === 1 && m.type === "episodic" && m.gist === "An old fact about the staging cluster",
    "in process: remember stores createdAt from the server's clock, importance, type and the gist from the text", JSON.stringify(m));
  r = await call(c, "reinforce", { path: "old/two", signal: "positive" });
  const two = (await cache.get(["old/two"]))[0];
  check(two.accessCount === 1 && two.accessedAt === clock && two.outcomeScore > 0, "in process: reinforce bumps access and the outcome", JSON.stringify(two));
  r = await call(c, "link", { from: "old/one", to: "old/two" });
  const edges = await cache.edges();
  check(edges.length === 1 && edges[0].src === "old/one" && edges[0].dst === "old/two" && edges[0].origin === "link" && edges[0].strength === 0.5 &&
    edges[0].type === "related", "in process: link writes a link edge (strength 0.5, related by default)", JSON.stringify(edges));
  await call(c, "sleep", {});
  clock += 400 * 86400e3; // 400 days on: the episodic memories have decayed into the evict band
  r = await call(c, "sleep", { policy: { evict: true, minAgeDays: 0, archiveBelow: null, reprieve: { floor: 1 } } });
  const archived = r.structuredContent?.archived ?? [];
  check(!r.isError && archived.length >= 1 && (await cache.count({ archived: true })) === archived.length &&
    (await cache.policy()).evict === true, "in process: sleep with an evict policy archives the evict band (kept, restorable) and stores the policy",
  JSON.stringify(r));
  r = await call(c, "restore", { path: archived[0] ?? "old/one" });
  check(!r.isError && (await cache.count({ archived: true })) === archived.length - 1, "in process: restore brings a memory sleep archived back", JSON.stringify(r));
  await c.close();
  await cache.close();
}
let threw = null;
try { createMemoryServer({}); } catch (e) { threw = e; }
check(threw instanceof TypeError && /cache must be/.test(threw.message), "createMemoryServer without a cache is a TypeError", String(threw));

// the core and the cache stay free of the SDK: only js/adapters/mcp.js imports it (and zod)
const core = ["js/index.js", ...readdirSync(`${ROOT}js/src`).map((f) => `js/src/${f}`), ...readdirSync(`${ROOT}js/cache`).map((f) => `js/cache/${f}`)]
  .filter((f) => f.endsWith(".js") && /@modelcontextprotocol|["']zod/.test(readFileSync(`${ROOT}${f}`, "utf8")));
check(core.length === 0, "nothing in js/index.js, js/src or js/cache names @modelcontextprotocol/sdk or zod", core.join(", "));

rmSync(dir, { recursive: true, force: true });
finish("mcp");
