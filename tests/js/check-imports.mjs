// Fails (exit 1) if a wasm build imports anything beyond what is allowed, or
// if the builds do not export the same md* functions and a memory.
import { readFileSync } from "node:fs";

const ALLOWED = { "memdomain.emcc.wasm": ["env.emscripten_notify_memory_growth"] };
const files = process.argv.slice(2);
let failed = 0;
const exportSets = [];
for (const file of files) {
  const mod = new WebAssembly.Module(readFileSync(file));
  const base = file.split("/").pop();
  const allowed = ALLOWED[base] ?? [];
  const imports = WebAssembly.Module.imports(mod).map((i) => `${i.module}.${i.name}`);
  const bad = imports.filter((i) => !allowed.includes(i));
  if (bad.length) { failed++; console.error(`${base}: forbidden imports: ${bad.join(", ")}`); }
  const exps = WebAssembly.Module.exports(mod);
  if (!exps.some((e) => e.name === "memory" && e.kind === "memory")) { failed++; console.error(`${base}: no exported memory`); }
  const fns = exps.filter((e) => e.kind === "function" && /^mdw?_/.test(e.name)).map((e) => e.name).sort();
  exportSets.push([base, fns]);
  console.log(`${base}: ${imports.length} import(s) [${imports.join(", ")}], ${fns.length} md* exports`);
}
for (let i = 1; i < exportSets.length; i++) {
  const [a, fa] = exportSets[0], [b, fb] = exportSets[i];
  const onlyA = fa.filter((x) => !fb.includes(x)), onlyB = fb.filter((x) => !fa.includes(x));
  if (onlyA.length || onlyB.length) {
    failed++;
    console.error(`exports differ: only in ${a}: [${onlyA}], only in ${b}: [${onlyB}]`);
  }
}
console.log(`imports: ${files.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
