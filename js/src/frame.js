// frame module: frameKeyOf, the claim's slot key or null.
import { decodeWtf8, exportsOf, str, views, withFrame } from "./core.js";

/**
 * The lowercased frame of a claim ("the capital of india is"), or null when
 * the claim states no frame+value shape the rule trusts.
 */
export function frameKeyOf(gist) {
  const fn = "frameKeyOf";
  str(fn, "gist", gist);
  return withFrame(fn, (f) => {
    const kt = f.keys([gist]);
    f.alloc();
    const len = views().u32[(f.at(kt.offs) >>> 2) + 1];
    f.check(exportsOf().mdw_frame_key_of(f.at(kt.bytes), len, f.out()));
    const block = f.result(f.outU32(0));
    if (!f.outU32(2)) return null;
    return decodeWtf8(views().u8, block, f.outU32(1));
  });
}
