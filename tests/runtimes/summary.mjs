// One table of every runtime's golden hashes (build/rt/results/*.json), and
// the cross-runtime check in one place: every full run's total equals Node's,
// and every function the native build covers hashes as in Node.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { RESULTS, RT, check, finish, reference } from "./lib.mjs";

const ref = reference();
const runs = readdirSync(RESULTS).filter((f) => f.endsWith(".json")).sort()
  .map((f) => ({ name: f.replace(/\.json$/, ""), ...JSON.parse(readFileSync(`${RESULTS}${f}`, "utf8")) }));
const lines = [];
for (const r of runs) {
  const keys = Object.keys(r.hashes);
  const same = keys.filter((k) => r.hashes[k] === ref.hashes[k]).length;
  lines.push(`${r.name.padEnd(16)} ${String(r.cases).padStart(6)} cases  ${r.total ?? "(subset)".padEnd(64)}  ${same}/${keys.length} functions as Node`);
}
console.log("golden output hashes by runtime\n" + lines.map((l) => `  ${l}`).join("\n"));
writeFileSync(`${RT}hashes.txt`, lines.join("\n") + "\n");
for (const name of ["node", "node-emcc", "deno", "workerd", "chromium-page", "chromium-worker", "minified-glue"]) {
  const r = runs.find((x) => x.name === name);
  check(r && r.total === ref.total && r.cases === ref.cases, `${name}: total hash equals Node's over ${ref.cases} cases`, r ? r.total : "no result");
}
const native = runs.find((x) => x.name === "native");
const nk = native ? Object.keys(native.hashes) : [];
check(nk.length > 0 && nk.every((k) => native.hashes[k] === ref.hashes[k]), `native: ${nk.length} functions hash as in Node`);
finish("runtime-hashes");
