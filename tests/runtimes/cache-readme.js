// The README's memdomain/cache examples: the ```js blocks of its "memdomain/cache"
// section, in order (Node and Deno, browser Worker, Cloudflare Worker with D1).
import { readFileSync } from "node:fs";

export function cacheReadmeBlocks(readmePath) {
  const text = readFileSync(readmePath, "utf8");
  const start = text.indexOf("## The local memory cache: `memdomain/cache`");
  const end = text.indexOf("\n## ", start + 10);
  return [...text.slice(start, end).matchAll(/```js\n(.*?)```/gs)].map((m) => m[1]);
}
