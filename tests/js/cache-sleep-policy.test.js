// memdomain/cache's sleep policy (js/cache/policy.js, sleep.js): a fresh corpus is not emptied by a
// pass, decay counts from the first pass (or a decayedAt given), eviction archives through the
// design's reprieve gate, archived memories are listable, restorable and purged only on request or
// by policy, contradictions are superseded, not merged, and access from searches counts.
import * as md from "../../js/index.js";
import { DEFAULT_POLICY } from "../../js/cache/policy.js";
import { SCHEMA_VERSION, openMemoryCache } from "../../js/cache/index.js";
import { wasmBytes } from "./build.js";
import { reader } from "./cache-backends.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

md.initSync(wasmBytes());

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const words = (i, n) => Array.from({ length: n }, (_, k) => `w${(i * 31 + k * 7) % 97}`).join(" ");
const vec = (i) => Float32Array.from({ length: 8 }, (_, k) => Math.sin(i * 1.7 + k * 0.9));
/** An old memory of few words, never accessed: the evict band's kind. */
const stale = (i, over = {}) => ({ path: `old/${i}`, gist: words(i, 3), body: words(i + 1, 2), type: "episodic", embedding: vec(i),
  createdAt: T0 - 400 * DAY, confidence: 0.2, ...over });

async function cacheWith(memories, open = {}) {
  const c = await openMemoryCache(open);
  await c.put(memories);
  return c;
}

describe("the retention policy", () => {
  test("a fresh corpus is not emptied by its first pass; archiving waits minAgeDays from the first pass that saw it", async () => {
    const c = await cacheWith(Array.from({ length: 20 }, (_, i) => stale(i)));
    try {
      const first = await c.sleep({ now: T0, evict: true, policy: { archiveBelow: null } }); // the whole evict band may go
      expect(first.bands.evict).toBe(20);
      expect(first.archived).toEqual([]);
      expect((await c.get(["old/0"]))[0].seenAt).toBe(T0);
      const early = await c.sleep({ now: T0 + (DEFAULT_POLICY.minAgeDays - 1) * DAY, evict: true });
      expect(early.archived).toEqual([]);
      const due = await c.sleep({ now: T0 + DEFAULT_POLICY.minAgeDays * DAY, evict: true });
      expect(due.archived.length).toBe(20);
      expect(await c.search({ text: words(3, 3), limit: 5 })).toEqual([]);
    } finally { await c.close(); }
  });

  test("archiveBelow: of the evict band, only memories scoring at or below it are archived (default 0.2)", async () => {
    const memories = Array.from({ length: 30 }, (_, i) => stale(i, { type: i % 2 ? "episodic" : "semantic", contradictionCount: i % 3 }));
    const c = await cacheWith(memories);
    try {
      await c.sleep({ now: T0 });
      const scored = new Map((await c.all()).map((m) => [m.path, m]));
      const r = await c.sleep({ now: T0, evict: true, policy: { minAgeDays: 0 } });
      const band = r.evict.filter((p) => scored.get(p).retentionScore <= DEFAULT_POLICY.archiveBelow);
      expect(band.length).toBeGreaterThan(0);
      expect(band.length).toBeLessThan(r.evict.length); // some of the band score above 0.2: kept
      expect(r.archived.slice().sort()).toEqual(band.slice().sort());
      expect(r.policy.archiveBelow).toBe(0.2);
    } finally { await c.close(); }
  });

  test("confidence decays from the first pass, not from createdAt; or from a decayedAt the caller gives", async () => {
    const c = await cacheWith([stale(1, { confidence: 1 }), stale(2, { confidence: 1, decayedAt: T0 - 3 * DAY })]);
    try {
      await c.sleep({ now: T0 });
      const [a, b] = await c.get(["old/1", "old/2"]);
      expect(a.confidence).toBe(1); // 400 days old, but no pass had seen it
      expect(a.decayedAt).toBe(T0);
      expect(b.confidence).toBe(md.decayConfidenceN(1, 3));
      await c.sleep({ now: T0 + 2 * DAY });
      expect((await c.get(["old/1"]))[0].confidence).toBe(md.decayConfidenceN(1, 2));
    } finally { await c.close(); }
  });

  test("evict archives: kept, listed, out of every arm, restorable, purged on request", async () => {
    const c = await cacheWith([...Array.from({ length: 6 }, (_, i) => stale(i)),
      { path: "keep/x", gist: "deploy pipeline canary rollback", body: words(50, 120), type: "procedural", embedding: vec(50),
        createdAt: T0, accessCount: 9, reinforcementCount: 5 }]);
    try {
      await c.link([{ src: "old/0", dst: "keep/x", strength: 1 }]);
      const r = await c.sleep({ now: T0, evict: true, policy: { minAgeDays: 0, archiveBelow: null } });
      expect(r.archived.sort()).toEqual(["old/0", "old/1", "old/2", "old/3", "old/4", "old/5"]);
      expect(r.evicted).toBe(6);
      const [gone] = await c.get(["old/0"]);
      expect(gone.archivedAt).toBe(T0);
      expect(gone.archiveReason).toBe("evict");
      expect((await c.archived()).map((m) => m.path)).toEqual(r.archived.slice().sort());
      expect((await c.edges()).some((e) => e.src === "old/0" && e.origin === "link")).toBe(true); // kept for a restore
      // a second pass in the same cycle archives nothing more and writes nothing
      expect((await c.sleep({ now: T0, evict: true, policy: { minAgeDays: 0 } })).written.statements).toBe(0);
      const q = { text: words(0, 3), vector: vec(0), limit: 10 };
      expect((await c.search(q)).map((h) => h.path)).not.toContain("old/0");
      const ex = await c.explain(q, ["old/0"]);
      expect(ex.paths[0].lostAt).toBe("archived");
      expect(await c.restore(["old/0"], { now: T0 + DAY })).toEqual({ restored: 1 });
      expect((await c.search(q)).map((h) => h.path)).toContain("old/0");
      const [back] = await c.get(["old/0"]);
      expect([back.archivedAt, back.reprieveCount, back.seenAt]).toEqual([null, 0, T0 + DAY]);
      await expect(c.restore(["old/0"])).rejects.toThrow(/restore: paths\[0\] is not archived/);
      await expect(c.restore(["nope"])).rejects.toThrow(/restore: paths\[0\] names no stored memory/);
      await expect(c.purge({ paths: ["keep/x"] })).rejects.toThrow(/purge: options.paths\[0\] is not archived/);
      // by hand: archive() and restore() again
      expect(await c.archive(["keep/x", "old/1"], { now: T0 + 2 * DAY })).toEqual({ archived: 1 }); // old/1 is archived already
      expect((await c.get(["keep/x"]))[0]).toMatchObject({ archivedAt: T0 + 2 * DAY, archiveReason: "manual" });
      expect((await c.search({ text: "deploy pipeline canary", limit: 5 })).map((h) => h.path)).not.toContain("keep/x");
      expect(await c.restore(["keep/x"])).toEqual({ restored: 1 });
      expect((await c.search({ text: "deploy pipeline canary", limit: 5 })).map((h) => h.path)).toContain("keep/x");
      await expect(c.archive(["nope"])).rejects.toThrow(/archive: paths\[0\] names no stored memory/);
      expect(await c.purge({ before: T0 - 1 })).toEqual({ purged: 0 });
      expect(await c.purge({ paths: ["old/1"] })).toEqual({ purged: 1 });
      expect(await c.purge()).toEqual({ purged: 4 });
      expect(await c.archived()).toEqual([]);
      expect((await c.all()).map((m) => m.path).sort()).toEqual(["keep/x", "old/0"]);
    } finally { await c.close(); }
  });

  test("the reprieve gate: a memory still in use stays REPRIEVE_DAYS more, at most maxReprieves times", async () => {
    const used = stale(7, { accessCount: 4, accessedAt: T0 - 400 * DAY });
    const c = await cacheWith([used, stale(8)]);
    try {
      const policy = { minAgeDays: 0, archiveBelow: null, reprieve: { maxReprieves: 2 } };
      const score = md.reprieveScore({ importance: 5, accessCount: 4, outcomeScore: 0, hoursSinceAccess: 400 * 24 });
      expect(md.shouldReprieve({ score, reprieveCount: 0 })).toBe(true);
      let now = T0;
      const r1 = await c.sleep({ now, evict: true, policy });
      expect(r1.archived).toEqual(["old/8"]);
      expect(r1.reprieved).toEqual([{ path: "old/7", reprieveCount: 1, validUntil: now + md.REPRIEVE_DAYS * DAY, score }]);
      // within its reprieve nothing happens to it; past it, the gate runs again, until maxReprieves
      expect((await c.sleep({ now: now + DAY, evict: true })).reprieved).toEqual([]);
      now += md.REPRIEVE_DAYS * DAY;
      expect((await c.sleep({ now, evict: true })).reprieved.map((r) => r.reprieveCount)).toEqual([2]);
      now += md.REPRIEVE_DAYS * DAY;
      const last = await c.sleep({ now, evict: true });
      expect(last.reprieved).toEqual([]);
      expect(last.archived).toEqual(["old/7"]);
      expect((await c.policy()).reprieve.maxReprieves).toBe(2); // the stored policy applied
    } finally { await c.close(); }
  });

  test("sleep({ policy }): stored with the cache, resolved against the defaults, checked like every option", async () => {
    const c = await cacheWith([stale(1)]);
    try {
      expect(await c.policy()).toMatchObject({ evict: false, minAgeDays: DEFAULT_POLICY.minAgeDays, purgeAfterDays: null });
      const r = await c.sleep({ now: T0, policy: { keepThreshold: 0, evictThreshold: 0, minAgeDays: 3 } });
      expect(r.bands).toEqual({ keep: 1, compress: 0, evict: 0 }); // the scorer's bands under the policy
      expect(await c.policy()).toMatchObject({ keepThreshold: 0, evictThreshold: 0, minAgeDays: 3, evict: false });
      expect((await c.sleep({ now: T0 + DAY })).bands.keep).toBe(1); // the stored policy
      await c.sleep({ now: T0 + DAY, policy: null }); // back to the defaults
      expect((await c.policy()).keepThreshold).toBeUndefined();
      await expect(c.sleep({ now: T0, policy: { minAge: 3 } })).rejects.toThrow(/sleep: options.policy.minAge is not a known policy field \(did you mean minAgeDays\?\)/);
      await expect(c.sleep({ now: T0, policy: { keepThreshold: "high" } })).rejects.toThrow(/sleep: options.policy.keepThreshold must be a number/);
      await expect(c.sleep({ now: T0, policy: { evict: 1 } })).rejects.toThrow(/sleep: options.policy.evict must be a boolean/);
      await expect(c.sleep({ now: T0, policy: { reprieve: { floors: 1 } } })).rejects.toThrow(/sleep: options.policy.reprieve.floors is not a known reprieve field/);
      await expect(c.sleep({ now: T0, policy: { weights: { semantic: { recency: -1 } } } })).rejects.toThrow(RangeError);
    } finally { await c.close(); }
  });

  test("contradictions: a newer claim in the same frame supersedes the older one, linked, never merged", async () => {
    const near = (x) => Float32Array.from(vec(3), (v, k) => v + x * (k === 0 ? 1 : 0));
    const c = await cacheWith([
      { path: "geo/rio", gist: "The capital of Brazil is Rio de Janeiro", body: "A claim from an old atlas.", type: "semantic", embedding: near(0), createdAt: T0 },
      { path: "geo/brasilia", gist: "The capital of Brazil is Brasilia", body: "A claim from an old atlas.", type: "semantic", embedding: near(0.01), createdAt: T0 + DAY },
    ]);
    try {
      expect(md.frameKeyOf("The capital of Brazil is Rio de Janeiro")).toBe(md.frameKeyOf("The capital of Brazil is Brasilia"));
      const r = await c.sleep({ now: T0 + 2 * DAY });
      expect(r.conflicts).toEqual([{ newer: "geo/brasilia", older: "geo/rio", frameKey: md.frameKeyOf("The capital of Brazil is Brasilia") }]);
      expect(r.merges.merged).toEqual([]);
      const [rio, brasilia] = await c.get(["geo/rio", "geo/brasilia"]);
      expect(rio.supersededBy).toBe("geo/brasilia");
      expect(rio.gist).toBe("The capital of Brazil is Rio de Janeiro"); // kept as it was
      expect(brasilia.body).toBe("A claim from an old atlas."); // nothing folded in
      expect((await c.edges()).filter((e) => e.origin === "conflict")).toEqual([{ src: "geo/brasilia", dst: "geo/rio", type: "contradicts", strength: 1, origin: "conflict" }]);
      const ex = await c.explain({ text: "capital of brazil", limit: 5 }, ["geo/rio"]);
      expect(ex.paths[0]).toMatchObject({ lostAt: "superseded", supersededBy: "geo/brasilia", conflict: { with: "geo/brasilia" } });
      expect((await c.search({ text: "capital of brazil", limit: 5 })).map((h) => h.path)).toEqual(["geo/brasilia"]);
    } finally { await c.close(); }
  });

  test("access from searches counts (once per cooldown) for the scorer, written by the next pass", async () => {
    const c = await cacheWith([stale(1, { type: "semantic" }), stale(2, { type: "semantic" })]);
    try {
      const q = { text: words(1, 3), limit: 1, weights: { vector: 0 } };
      const hit = (await c.search({ ...q, now: T0 }))[0].path;
      await c.search({ ...q, now: T0 + 60_000 }); // within REINFORCE_COOLDOWN_S: not counted again
      await c.search({ ...q, now: T0 + 1000 * md.REINFORCE_COOLDOWN_S });
      const r = await c.sleep({ now: T0 + DAY });
      const [m] = await c.get([hit]);
      expect([m.hitCount, m.hitAt]).toEqual([2, T0 + 1000 * md.REINFORCE_COOLDOWN_S]);
      expect(m.accessCount).toBe(0);
      expect(r.written.statements).toBeGreaterThan(0);
      expect((await c.sleep({ now: T0 + DAY })).written.statements).toBe(0); // counted once
      const quiet = await cacheWith([stale(1)], { searchAccess: false });
      try {
        await quiet.search({ ...q, now: T0 });
        await quiet.sleep({ now: T0 + DAY });
        expect((await quiet.get(["old/1"]))[0].hitCount).toBe(0);
      } finally { await quiet.close(); }
    } finally { await c.close(); }
  });

  test("JSON Lines carry archived memories, the policy and every new field; strict keys", async () => {
    const c = await cacheWith([stale(1), stale(2), { ...stale(3), tags: ["a", "b"], metadata: { team: "infra", n: 3, ok: true }, importance: 8 }]);
    try {
      await c.sleep({ now: T0, evict: true, policy: { minAgeDays: 0, purgeAfterDays: 90 } });
      const text = await c.exportJsonl();
      const d = await openMemoryCache();
      try {
        await d.importJsonl(text);
        expect(await d.exportJsonl()).toBe(text);
        expect((await d.archived()).length).toBe((await c.archived()).length);
        expect((await d.policy()).purgeAfterDays).toBe(90);
        const [m] = await d.get(["old/3"]);
        expect([m.tags, m.metadata, m.importance]).toEqual([["a", "b"], { team: "infra", n: 3, ok: true }, 8]);
      } finally { await d.close(); }
      await expect(c.put([{ ...stale(9), embeding: vec(1) }])).rejects.toThrow(/put: memories\[0\].embeding is not a known memory field for put\(\) \(did you mean embedding\?\)/);
      await expect(c.put([{ ...stale(9), archivedAt: T0 }])).rejects.toThrow(/put: memories\[0\].archivedAt is not a known memory field for put\(\)/);
      await expect(c.importJsonl(`${JSON.stringify({ ...stale(9), embedding: null, acessCount: 1 })}\n`))
        .rejects.toThrow(/importJsonl: text line 1.acessCount is not a known memory field \(did you mean accessCount\?\)/);
    } finally { await c.close(); }
  });

  test("purgeAfterDays deletes archived memories that old", async () => {
    const c = await cacheWith([stale(1), stale(2)]);
    try {
      await c.sleep({ now: T0, evict: true, policy: { minAgeDays: 0, archiveBelow: null, purgeAfterDays: 10 } });
      expect((await c.archived()).length).toBe(2);
      expect((await c.sleep({ now: T0 + 9 * DAY })).purged).toBe(0);
      expect((await c.sleep({ now: T0 + 10 * DAY })).purged).toBe(2);
      expect(await c.all()).toEqual([]);
    } finally { await c.close(); }
  });

  test("a schema-1 database opens and is upgraded in place", async () => {
    if (!reader) return;
    const dir = mkdtempSync(join(tmpdir(), "md-v1-"));
    try {
      const file = join(dir, "v1.sqlite");
      const db = reader.open(file);
      for (const sql of [
        "CREATE TABLE md_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        `CREATE TABLE memories (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, gist TEXT NOT NULL, body TEXT NOT NULL, type TEXT NOT NULL,
          embedding BLOB, created_at REAL NOT NULL, accessed_at REAL, access_count REAL NOT NULL, confidence REAL NOT NULL,
          outcome_score REAL, reinforcement_count REAL NOT NULL, contradiction_count REAL NOT NULL, decayed_at REAL NOT NULL,
          pagerank REAL, community TEXT, bridge_count REAL, retention_score REAL, band TEXT, superseded_by TEXT)`,
        "CREATE VIRTUAL TABLE memories_fts USING fts5(gist, body)",
        "CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row')",
        "CREATE TABLE edges (src TEXT NOT NULL, dst TEXT NOT NULL, type TEXT NOT NULL, strength REAL NOT NULL, origin TEXT NOT NULL, PRIMARY KEY (src, dst, type))",
        "INSERT INTO md_meta VALUES ('schema', '1'), ('generation', '3')",
        `INSERT INTO memories VALUES (1, 'a/1', 'the deploy pipeline', 'canary first', 'semantic', NULL, ${T0}, NULL, 2, 0.9, NULL, 0, 0, ${T0 + DAY},
          NULL, NULL, NULL, NULL, NULL, NULL)`,
        "INSERT INTO memories_fts (rowid, gist, body) VALUES (1, 'the deploy pipeline', 'canary first')",
      ]) db.exec(sql);
      db.close();
      const c = await openMemoryCache({ path: file });
      try {
        const [m] = await c.get(["a/1"]);
        expect(m).toMatchObject({ accessCount: 2, confidence: 0.9, updatedAt: T0, seenAt: T0 + DAY, tags: [], metadata: {}, archivedAt: null, hitCount: 0 });
        expect((await c.search({ text: "deploy" })).map((h) => h.path)).toEqual(["a/1"]);
      } finally { await c.close(); }
      const check = reader.open(file, { readonly: true });
      try {
        expect(check.prepare("SELECT value FROM md_meta WHERE key = 'schema'").get().value).toBe(String(SCHEMA_VERSION));
      } finally { check.close(); }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });
});
