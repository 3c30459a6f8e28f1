// The memdomain/cache examples of docs/CACHE.md that run in a browser Worker and in a
// Cloudflare Worker with D1, found with the snippet parser every other document test
// uses: the ```js block that answers messages (onmessage) and the one that opens a D1
// binding (env.DB). Each must be there exactly once.
import { readFileSync } from "node:fs";
import { snippets } from "../readme/snippets.mjs";

export function cacheDocBlocks(path) {
  const js = snippets(readFileSync(path, "utf8")).filter((s) => s.lang === "js").map((s) => s.code);
  const one = (what, re) => {
    const found = js.filter((c) => re.test(c));
    if (found.length !== 1) throw new Error(`${path}: expected one \`\`\`js block with ${what}, found ${found.length}`);
    return found[0];
  };
  return { browser: one("onmessage (the browser Worker)", /\bonmessage\s*=/), d1: one("env.DB (the D1 Worker)", /\benv\.DB\b/) };
}
