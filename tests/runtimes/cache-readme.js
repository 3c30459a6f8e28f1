// The README's memdomain/cache examples: the ```js blocks of its "memdomain/cache"
// section, in order (Node and Deno, browser Worker, Cloudflare Worker with D1),
// found with the README snippet parser every other README test uses.
import { readFileSync } from "node:fs";
import { snippets } from "../readme/snippets.mjs";

export function cacheReadmeBlocks(readmePath) {
  const text = readFileSync(readmePath, "utf8");
  const start = text.indexOf("## The local memory cache: `memdomain/cache`");
  const end = text.indexOf("\n## ", start + 10);
  return snippets(text.slice(start, end)).filter((s) => s.lang === "js").map((s) => s.code);
}
