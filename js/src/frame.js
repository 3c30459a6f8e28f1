// frame module: frameKeyOf, the claim's slot key or null.
import { call, decodeWtf8, done, exportsOf, keys, raise, region, slots, views } from "./core.js";
import { arg, item } from "./validate.js";
import { ARGS } from "./args.js";
import { AT_FRAME_KEY_OF_S, OK, OUT_FRAME_KEY_OF_FOUND, OUT_FRAME_KEY_OF_LEN, OUT_FRAME_KEY_OF_TEXT, OUT_FRAME_KEYS_OF_BLOCK,
  OUT_FRAME_KEYS_OF_USED, OUT_FRAME_KEYS_OF_WTF } from "./constants.js";

const decoder = new TextDecoder("utf-8");
const CHUNK_BYTES = 1 << 14;
const NULL_KEY = 0xffffffff, SAME_KEY = 0xfffffffe;
const encoder = new TextEncoder();

/**
 * The lowercased frame of a claim ("the capital of india is"), or null when
 * the claim states no frame+value shape the rule trusts.
 */
export function frameKeyOf(gist) {
  const fn = "frameKeyOf";
  arg(ARGS.frameKeyOf, 0, gist);
  // A gist with a lone surrogate (WTF-8) takes the batch path.
  if (!gist.isWellFormed?.()) return keysOf(fn, [gist])[0];
  // The common case in the exchange region and no call(): region frame_key_of, the out slots, then the UTF-8
  // (at most 3 bytes per UTF-16 unit).
  const ex = exportsOf(), cap = AT_FRAME_KEY_OF_S + 3 * gist.length, p = region(fn, cap);
  const len = encoder.encodeInto(gist, views().u8.subarray(p + AT_FRAME_KEY_OF_S, p + cap)).written;
  const st = ex.mdw_frame_key_of(p + AT_FRAME_KEY_OF_S, len, p);
  if (st !== OK) raise(st, fn);
  const { u8, u32 } = views(), block = u32[(p >>> 2) + OUT_FRAME_KEY_OF_TEXT];
  try {
    return u32[(p >>> 2) + OUT_FRAME_KEY_OF_FOUND] ? decodeWtf8(u8, block, u32[(p >>> 2) + OUT_FRAME_KEY_OF_LEN]) : null;
  } finally {
    if (block) ex.md_free(block);
    done();
  }
}

/**
 * frameKeyOf over many claims in one call (a batch entry point: the same
 * keys as mapping frameKeyOf, without a boundary crossing per claim).
 */
export function frameKeysOf(gists) {
  const fn = "frameKeysOf", a = ARGS.frameKeysOf;
  arg(a, 0, gists);
  // The element's name is built only for the error (a string per claim otherwise).
  for (let i = 0; i < gists.length; i++) if (typeof gists[i] !== "string") item(a, 0, i, gists[i]);
  return keysOf(fn, gists);
}

function keysOf(fn, gists) {
  return call(fn, "mdw_frame_keys_of", [keys(gists), gists.length, slots], (r) => {
    const block = r.block(OUT_FRAME_KEYS_OF_BLOCK), used = r.slot(OUT_FRAME_KEYS_OF_USED), wtf = r.slot(OUT_FRAME_KEYS_OF_WTF) !== 0;
    const { u8, u32 } = r.heap;
    const n = gists.length, info = block >>> 2;
    const out = new Array(n);
    // info per claim: (byte start, byte length | NULL_KEY | SAME_KEY, UTF-16 start | earlier claim, UTF-16 length).
    if (wtf) {
      for (let i = 0; i < n; i++) {
        const at = info + 4 * i, len = u32[at + 1];
        out[i] = len === NULL_KEY ? null : len === SAME_KEY ? out[u32[at + 2]] : decodeWtf8(u8, block + u32[at], len);
      }
      return out;
    }
    // The distinct keys are back to back: decode a run of them at a time
    // (strings the young generation collects, never one huge one) and slice
    // each out; a claim whose key an earlier claim has shares that string.
    for (let i0 = 0; i0 < n;) {
      const a0 = info + 4 * i0, b0 = u32[a0];
      let i1 = i0 + 1;
      while (i1 < n && u32[info + 4 * i1] - b0 < CHUNK_BYTES) i1++;
      const b1 = i1 < n ? u32[info + 4 * i1] : used;
      const run = b1 > b0 ? decoder.decode(u8.subarray(block + b0, block + b1)) : "";
      let u0 = -1;
      for (let i = i0; i < i1; i++) {
        const at = info + 4 * i, len = u32[at + 1];
        if (len === NULL_KEY) out[i] = null;
        else if (len === SAME_KEY) out[i] = out[u32[at + 2]];
        else {
          if (u0 < 0) u0 = u32[at + 2];
          out[i] = run.slice(u32[at + 2] - u0, u32[at + 2] - u0 + u32[at + 3]);
        }
      }
      i0 = i1;
    }
    return out;
  });
}
