// memdomain/cache: how much memory the cache takes at its peak, estimated from what it
// stores, so that it refuses (a RangeError naming options.maxResidentBytes) before an
// isolate with a hard limit runs out: a Cloudflare Durable Object's isolate has 128 MB,
// and a Worker that exceeds it is killed with every object it hosts.
//
// The peak is a sleep pass: the resident rows (a Float32Array per memory in JavaScript,
// the md_rows copy with its int8 filter in wasm memory, which never shrinks), plus what
// the pass reads again and copies (every live row with its text, the packed matrix, its
// copy in wasm for the all-pairs pass, the neighbour lists, the graph). bench/durable.mjs
// measures it (V8 heap + external memory, wasm memory included, sampled through open,
// searches and the pass), and the constants below are chosen so that the estimate sits above
// every point it measures (its table, estimate beside measurement: docs/DURABLE-OBJECTS.md;
// the pass also writes each memory's neighbour list for the next, incremental pass).
/** Bytes per embedding element at the peak (10 float32 copies of each row). */
export const RESIDENT_BYTES_PER_ELEMENT = 40;
/** Bytes per live memory besides its embedding and text (objects, maps, neighbour lists, graph). */
export const RESIDENT_BYTES_PER_MEMORY = 6144;
/** Bytes of memory per byte of stored gist and body (UTF-8 read into UTF-16 at most). */
export const RESIDENT_BYTES_PER_TEXT_BYTE = 2;
/**
 * The lexical arm's resident index (lexical.js, from options.lexicalIndexMin live memories): its
 * bytes (md_lexindex_bytes) are a row per memory (its path as the key) and a posting per distinct
 * token of a memory. The store counts no postings, so they are bounded by text: a posting took
 * about 20 bytes before the postings were packed (fewer now; the bound is kept) and at least 2 bytes of text (a one-letter word and a space); 5 per text byte sits
 * above prose and bodies of numbers (docs/DURABLE-OBJECTS.md, "The lexical index"), not above
 * texts of one-letter words.
 */
export const LEXICAL_INDEX_BYTES_PER_MEMORY = 512;
/** See LEXICAL_INDEX_BYTES_PER_MEMORY. */
export const LEXICAL_INDEX_BYTES_PER_TEXT_BYTE = 5;
/** options.maxResidentBytes on a Durable Object unless given: 96 MiB of the isolate's 128 MB (the rest: runtime, request). */
export const DURABLE_OBJECT_RESIDENT_BYTES = 96 * 2 ** 20;

/**
 * The estimated peak in bytes of a cache holding `live` memories, `vectors` of them with a
 * `dim`-element embedding, `text` bytes of text; with the lexical index's bytes when `live` reaches
 * `lexicalIndexMin` (undefined or null: the index is never used).
 */
export function residentEstimate({ live, vectors, dim, text, lexicalIndexMin = null }) {
  const index = indexed({ live, lexicalIndexMin }) ? live * LEXICAL_INDEX_BYTES_PER_MEMORY + text * LEXICAL_INDEX_BYTES_PER_TEXT_BYTE : 0;
  return vectors * (dim ?? 0) * RESIDENT_BYTES_PER_ELEMENT + live * RESIDENT_BYTES_PER_MEMORY + text * RESIDENT_BYTES_PER_TEXT_BYTE + index;
}

const indexed = ({ live, lexicalIndexMin = null }) => lexicalIndexMin !== null && live >= lexicalIndexMin && live > 0;

/** Live memories, those with an embedding, and their text's bytes, as stored (one aggregate query). */
export async function storedCounts(db) {
  const [r] = await db.all(`SELECT count(*) AS live, count(embedding) AS vectors,
    coalesce(sum(octet_length(gist) + octet_length(body)), 0) AS text FROM memories WHERE superseded_by IS NULL AND archived_at IS NULL`);
  return { live: Number(r.live), vectors: Number(r.vectors), text: Number(r.text) };
}

const mb = (b) => (b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : `${(b / 1e3).toFixed(1)} kB`);

/**
 * A RangeError when `counts` (with `dim`) would take more than `max` bytes; `what` says whose
 * counts they are ("the cache holds" / "memories would bring the cache to").
 */
export function checkResident(fn, max, counts, what) {
  if (max === null) return;
  const bytes = residentEstimate(counts);
  if (bytes <= max) return;
  throw new RangeError(`${fn}: ${what} ${counts.live} live memories (${counts.vectors} with ${counts.dim ?? 0}-element embeddings, ` +
    `${mb(counts.text)} of text${indexed(counts) ? ", the lexical index from options.lexicalIndexMin" : ""}), an estimated ${mb(bytes)} of memory at the peak of a sleep pass, over options.maxResidentBytes ` +
    `(${max} bytes = ${mb(max)}; a Durable Object's isolate has 128 MB): delete memories or evict with sleep({ evict: true }), ` +
    "split the memories over more objects, or open the cache with a larger maxResidentBytes where the memory is there");
}
