// Runs every benchmark in bench/ (each compares memdomain's wasm with a
// plain-JavaScript baseline in the same process) one after another.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir).filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("lib"))
  .filter((f) => !only.length || only.some((o) => f.includes(o))).sort();
let failed = 0;
for (const f of files) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, [`${dir}${f}`], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
