// The signature table (wasm/boundary.def) is the one statement of how every
// export crosses: this holds it against the C definitions (arity and kinds),
// against both builds' actual exports (a wasm function's .length is its
// parameter count), against the test build, and against every call the glue
// makes (js/src/*.js may call only what the table lists, test rows never).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { cDefinitions, table } from "../../tools/boundary.mjs";
import { ROOT } from "./golden/runner.js";

const rows = table();
const byName = new Map(rows.map((r) => [r.name, r]));
const defs = cDefinitions();
const exportsOf = (file) => WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(`${ROOT}build/${file}`)))
  .filter((e) => e.kind === "function" && /^mdw?_/.test(e.name)).map((e) => e.name);

test("every row names a C definition with the same arguments and result", () => {
  expect(rows.length).toBeGreaterThan(50);
  for (const r of rows) {
    const d = defs.get(r.name);
    expect([r.name, d !== undefined]).toEqual([r.name, true]);
    expect([r.name, r.args.map((a) => a.type)]).toEqual([r.name, d.args]);
    expect([r.name, r.result]).toEqual([r.name, d.result]);
  }
});

test("every MDW_EXPORT / MDW_TEST_EXPORT in wasm/ has its row, of its kind", () => {
  for (const f of readdirSync(`${ROOT}wasm`).filter((x) => x.endsWith(".c"))) {
    for (const m of readFileSync(`${ROOT}wasm/${f}`, "utf8").matchAll(/MDW_(TEST_)?EXPORT\("([a-z0-9_]+)"\)/g)) {
      expect([m[2], byName.get(m[2])?.kind]).toEqual([m[2], m[1] ? "test" : "export"]);
    }
  }
});

for (const [file, withTests] of [["memdomain.wasm", false], ["memdomain.emcc.wasm", false], ["memdomain.test.wasm", true],
  ["memdomain.emcc.test.wasm", true]]) {
  test(`${file} exports exactly the table's ${withTests ? "export and test" : "export"} rows, with their arity`, () => {
    if (!existsSync(`${ROOT}build/${file}`)) throw new Error(`build/${file} is missing: make wasm`);
    const want = rows.filter((r) => r.kind === "export" || withTests).map((r) => r.name).sort();
    expect(exportsOf(file).sort()).toEqual(want);
    const inst = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(`${ROOT}build/${file}`)),
      { env: { emscripten_notify_memory_growth() {} } });
    // wasm32 passes every argument as one value: .length is the row's argument count.
    for (const name of want) expect([name, inst.exports[name].length]).toEqual([name, byName.get(name).args.length]);
  });
}

test("the glue calls only exported rows (never a test row)", () => {
  const dir = `${ROOT}js/src/`;
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".js"))) {
    for (const m of readFileSync(dir + f, "utf8").matchAll(/\.(mdw?_[a-z0-9_]+)\(/g)) {
      expect([f, m[1], byName.get(m[1])?.kind]).toEqual([f, m[1], "export"]);
    }
  }
});
