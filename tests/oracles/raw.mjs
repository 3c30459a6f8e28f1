// Access to memdomain's C exports over raw linear memory (no
// glue): the resident rows handle, the pruned top-k and the packed
// all-pairs pass, called exactly as a wasm export is called. The package's
// glue is not involved (it is being rewired elsewhere); what is measured is
// the C core in wasm plus the copies any glue must make. The benchmarks
// (bench/allpairs.mjs, bench/resident.mjs) and tests/js/pruned.test.js use it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { table } from "../../tools/boundary.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const IMPORTS = { env: { emscripten_notify_memory_growth() {} } };

/** Instantiate a build ("clang" or "emcc", or a path) and wrap its exports.
 * "clang" and "emcc" are the test builds (build/memdomain.test.wasm, ...): the
 * same code as the shipped module, which does not export what only the
 * benches and tests call (md_rows_data, md_neighbor_pairs_ranked,
 * md_merge_neighbor_pairs_ranked: the `test` rows of wasm/boundary.def). */
export function rawModule(build = "clang") {
  const path = build === "clang" ? `${ROOT}build/memdomain.test.wasm`
    : build === "emcc" ? `${ROOT}build/memdomain.emcc.test.wasm` : build;
  const module = new WebAssembly.Module(readFileSync(path));
  return rawInstance(module);
}

// The signature table's `status` rows, each as a function of its row's
// arguments that throws when the status is not 0 (built from
// wasm/boundary.def once: the arity is the row's, so a call with the wrong
// argument count is a mistake the wrapper reports).
const STATUS_ROWS = table().filter((r) => r.result === "status");
const checked = (ex) => Object.fromEntries(STATUS_ROWS.filter((r) => typeof ex[r.name] === "function").map((r) => {
  const args = r.args.map((a) => a.name).join(", ");
  // eslint-disable-next-line no-new-func -- one fixed-arity closure per row (no rest/spread on the call)
  return [r.name, new Function("ex", `return function ${r.name}(${args}) {
    if (arguments.length !== ${r.args.length}) throw new TypeError("${r.name}: takes ${r.args.length} arguments (wasm/boundary.def)");
    const st = ex.${r.name}(${args});
    if (st !== 0) throw new Error("${r.name}: status " + st);
  };`)(ex)];
}));

export function rawInstance(module) {
  const inst = new WebAssembly.Instance(module, IMPORTS);
  const ex = inst.exports;
  if (typeof ex._initialize === "function") ex._initialize();
  const mem = ex.memory;
  const u32 = () => new Uint32Array(mem.buffer);
  const f32 = () => new Float32Array(mem.buffer);
  const f64 = () => new Float64Array(mem.buffer);
  const alloc = (bytes) => {
    const p = ex.md_alloc(bytes);
    if (!p) throw new RangeError(`md_alloc(${bytes}) failed`);
    return p;
  };
  const check = (st, what) => { if (st !== 0) throw new Error(`${what}: status ${st}`); };
  /** Every status row of the table, throwing on a nonzero status (`st.md_rows_new(d, out)`). */
  const st = checked(ex);
  const slot = alloc(64); // out-parameters

  /** A resident rows handle over a Float32Array of n x d (copied in once). */
  function rows(matrix, d) {
    st.md_rows_new(d, slot);
    const h = u32()[slot >>> 2];
    const n = matrix.length / d, chunk = 8192;
    const buf = alloc(Math.min(n, chunk) * d * 4);
    for (let i = 0; i < n; i += chunk) {
      const c = Math.min(chunk, n - i);
      f32().set(matrix.subarray(i * d, (i + c) * d), buf >>> 2);
      st.md_rows_append(h, buf, c);
    }
    ex.md_free(buf);
    const q = alloc(d * 4);
    let kmax = 0, idx = 0, sims = 0;
    return {
      h, n, d,
      /** top-k: { indices: Uint32Array, sims: Float64Array } (copies). */
      top(query, k) {
        if (k > kmax) {
          if (kmax) { ex.md_free(idx); ex.md_free(sims); }
          kmax = k; idx = alloc(4 * k); sims = alloc(8 * k);
        }
        f32().set(query, q >>> 2);
        st.md_rows_top_cosine(h, q, k, idx, sims, slot);
        const len = u32()[slot >>> 2];
        return { indices: u32().slice(idx >>> 2, (idx >>> 2) + len), sims: f64().slice(sims >>> 3, (sims >>> 3) + len) };
      },
      /** today's unpruned path over the same resident floats (norms recomputed per query). */
      topUnpruned(query, k) {
        if (k > kmax) {
          if (kmax) { ex.md_free(idx); ex.md_free(sims); }
          kmax = k; idx = alloc(4 * k); sims = alloc(8 * k);
        }
        f32().set(query, q >>> 2);
        st.md_top_cosine_rows_f32(q, ex.md_rows_data(h), n, d, k, idx, sims, slot);
        const len = u32()[slot >>> 2];
        return { indices: u32().slice(idx >>> 2, (idx >>> 2) + len), sims: f64().slice(sims >>> 3, (sims >>> 3) + len) };
      },
      free() { ex.md_rows_free(h); ex.md_free(q); if (kmax) { ex.md_free(idx); ex.md_free(sims); } },
    };
  }

  /** Read an md_neighbor_pairs at `out` (wasm32: len, pairs -> {u32 src, u32 dst, f64 sim}) and free it. */
  function readPairs(out) {
    const len = u32()[out >>> 2], p = u32()[(out >>> 2) + 1];
    const src = new Uint32Array(len), dst = new Uint32Array(len), sim = new Float64Array(len);
    const w = u32(), d = f64();
    for (let i = 0; i < len; i++) {
      src[i] = w[(p >>> 2) + 4 * i];
      dst[i] = w[(p >>> 2) + 4 * i + 1];
      sim[i] = d[(p >>> 3) + 2 * i + 1];
    }
    ex.md_free(p);
    return { src, dst, sim };
  }

  /** A matrix copied into memory once, for packed all-pairs passes and tiles (keys in row order). */
  function packed(matrix, d) {
    const n = matrix.length / d, mp = alloc(matrix.length * 4 + 4), out = alloc(16);
    f32().set(matrix, mp >>> 2);
    return {
      n, d,
      /** md_neighbor_pairs_ranked: the whole pass (final) or one tile [b, e). */
      pass(o, b = 0, e = n, final = true) {
        st.md_neighbor_pairs_ranked(mp, n, d, 0, b, e, o.floor, o.perSourceK, o.limit, final, out);
        return readPairs(out);
      },
      free() { ex.md_free(mp); ex.md_free(out); },
    };
  }

  /** md_pairs_pass over a matrix copied in once: add(b, e) per part, pairs() for the lists so far (keys in row order). */
  function passInParts(matrix, d, o, part = null) {
    const n = matrix.length / d, mp = alloc(matrix.length * 4 + 4), out = alloc(16);
    f32().set(matrix, mp >>> 2);
    if (part) st.md_pairs_pass_new_part(mp, n, d, 0, o.floor, o.perSourceK, part[0], part[1], slot);
    else st.md_pairs_pass_new(mp, n, d, 0, o.floor, o.perSourceK, slot);
    const h = u32()[slot >>> 2];
    return {
      n, d,
      add(b, e) { st.md_pairs_pass_add(h, b, e); },
      /** md_pairs_pass_rows: rows [b, e) written to (take = false) or read from (take = true) bytes. */
      rows(bytes, b, e, take) {
        const p = alloc(Math.max(1, bytes.length));
        if (take) new Uint8Array(mem.buffer).set(bytes, p);
        st.md_pairs_pass_rows(h, p, b, e, take);
        if (!take) bytes.set(new Uint8Array(mem.buffer, p, bytes.length));
        ex.md_free(p);
      },
      /** md_pairs_pass_share: raise this pass's thresholds to b (n floats), return the higher of each. */
      share(b) {
        const p = alloc(4 * n);
        f32().set(b, p >>> 2);
        st.md_pairs_pass_share(h, p);
        const out = f32().slice(p >>> 2, (p >>> 2) + n);
        ex.md_free(p);
        return out;
      },
      pairs(final = false) {
        st.md_pairs_pass_pairs(h, final, o.limit, out);
        return readPairs(out);
      },
      free() { ex.md_pairs_pass_free(h); ex.md_free(mp); ex.md_free(out); },
    };
  }

  /** md_merge_neighbor_pairs_ranked over tiles ({src, dst, sim} arrays), keys in row order. */
  function merge(tiles, n, o) {
    const m = tiles.reduce((a, t) => a + t.sim.length, 0);
    const p = alloc(16 * m + 16), out = alloc(16);
    let at = 0;
    const w = u32(), d = f64();
    for (const t of tiles)
      for (let i = 0; i < t.sim.length; i++, at++) {
        w[(p >>> 2) + 4 * at] = t.src[i];
        w[(p >>> 2) + 4 * at + 1] = t.dst[i];
        d[(p >>> 3) + 2 * at + 1] = t.sim[i];
      }
    st.md_merge_neighbor_pairs_ranked(p, m, 0, n, o.floor, o.perSourceK, o.limit, out);
    const r = readPairs(out);
    ex.md_free(p);
    ex.md_free(out);
    return r;
  }

  return { ex, st, alloc, check, slot, u32, f32, f64, rows, packed, passInParts, merge, memory: () => mem.buffer.byteLength };
}
