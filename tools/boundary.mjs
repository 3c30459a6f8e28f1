// The signature table, wasm/boundary.def: every function the wasm module
// exports, with its arguments and result, stated once. This module parses it
// (for tools/gen-boundary.mjs, the checks in tests/js/boundary.test.js and
// tests/oracles/raw.mjs), and maps C declarations onto the same notation.
import { readFileSync, readdirSync } from "node:fs";

const ROOT = new URL("../", import.meta.url);
const read = (p) => readFileSync(new URL(p, ROOT), "utf8");

/** [{ kind: "export"|"test", name, args: [{name, type, js, slots}], result }] (the `as` lines
 * under a row, the public JavaScript functions that call it, in table.api as { row, text }); js: the
 * JavaScript name an error from C shows for the argument ("" when none); slots:
 * for an out-slot array, its slots' names in order, each [name, layout] (null when
 * the argument names none). The `layout` rows are in table.layouts, the
 * `region` rows in table.regions (name -> [{type, name, count}], count a
 * number or the name of a count). */
export function table() {
  const rows = [];
  rows.layouts = new Map();
  rows.regions = new Map();
  rows.api = [];
  for (const raw of read("wasm/boundary.def").split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    // `as jsName(...)`: a public JavaScript function of the row above (tools/api.mjs reads it).
    if (/^as\s/.test(line)) {
      const row = rows[rows.length - 1];
      if (!row || !/^\s/.test(raw)) throw new Error(`wasm/boundary.def: an \`as\` line must be indented under its row: ${raw}`);
      rows.api.push({ row, text: line.slice(2).trim() });
      continue;
    }
    const lay = line.match(/^layout\s+([a-z0-9_]+):\s*(.*)$/);
    if (lay) {
      const fields = lay[2].split(",").map((f) => {
        const m = f.trim().match(/^(f64|u32|f32|u8)\s+([a-z0-9_]+)\[len\]$/);
        if (!m) throw new Error(`wasm/boundary.def: cannot read layout field "${f.trim()}" of ${raw}`);
        return { type: m[1], name: m[2] };
      });
      rows.layouts.set(lay[1], fields);
      continue;
    }
    const reg = line.match(/^region\s+([a-z0-9_]+):\s*(.*)$/);
    if (reg) {
      const fields = reg[2].split(",").map((f) => {
        const m = f.trim().match(/^(f64|u32|f32|u8)\s+([a-z0-9_]+)(?:\[([a-z0-9_]+)\])?$/);
        if (!m) throw new Error(`wasm/boundary.def: cannot read region field "${f.trim()}" of ${raw}`);
        return { type: m[1], name: m[2], count: m[3] === undefined ? 1 : /^[0-9]+$/.test(m[3]) ? Number(m[3]) : m[3] };
      });
      if (rows.regions.has(reg[1])) throw new Error(`wasm/boundary.def: region ${reg[1]} twice`);
      rows.regions.set(reg[1], fields);
      continue;
    }
    const m = line.match(/^(export|test)\s+([a-z0-9_]+)\((.*)\)\s*->\s*(\w+)$/);
    if (!m) throw new Error(`wasm/boundary.def: cannot read "${raw}"`);
    const args = m[3].trim() ? m[3].split(",").map((a) => {
      const m = a.trim().match(/^([a-z0-9_]+):([a-z0-9]+)(?:\[([a-z0-9_: ]+)\])?(?:=(\S+))?$/);
      if (!m) throw new Error(`wasm/boundary.def: cannot read argument "${a.trim()}" of ${raw}`);
      const slots = m[3] ? m[3].trim().split(/\s+/).map((s) => { const [n, l] = s.split(":"); return [n, l ?? null]; }) : null;
      return { name: m[1], type: m[2], js: m[4] ?? "", slots };
    }) : [];
    rows.push({ kind: m[1], name: m[2], args, result: m[4] });
  }
  return rows;
}

// C type -> the table's notation (wasm32: pointers and size_t are 32-bit). A
// boundary function's `int` result may be a status (mdw_fail returns int): the
// table says which (resultMatches).
export function cType(t) {
  t = t.replace(/\bconst\b/g, "").replace(/\s+/g, " ").trim();
  if (/\*$/.test(t)) return "ptr";
  if (t === "double") return "f64";
  if (t === "float") return "f32";
  if (t === "size_t" || t === "uint32_t" || t === "unsigned") return "u32";
  if (t === "md_status") return "status";
  if (t === "int" || t === "int32_t" || t === "md_memory_type" || t === "md_triage_action") return "i32";
  if (t === "bool") return "bool";
  if (t === "void") return "void";
  return `?${t}`;
}

/** Whether a row's result agrees with its C definition's: an `int` (i32) may be a status. */
export function resultMatches(row, c) {
  return row.result === c || (row.result === "status" && c === "i32" && row.name.startsWith("mdw_"));
}

/** Every C definition of an exported function: name -> { args: [type], result }. */
export function cDefinitions() {
  const out = new Map();
  const add = (src, names) => {
    const re = /^([a-z_0-9 *]+?)\s*\b(mdw?_[a-z0-9_]+)\(([^)]*)\)\s*[{;]/gms;
    for (const m of src.matchAll(re)) {
      if (names && !names.has(m[2])) continue;
      const args = m[3].trim() === "void" || !m[3].trim() ? [] : m[3].split(",").map((a) => {
        const decl = a.trim().replace(/\s*\b[a-z_0-9]+$/, (x) => (/\*\s*$/.test(a.trim().slice(0, -x.trim().length)) || true ? "" : x));
        return cType(decl.replace(/\[\]$/, "*"));
      });
      out.set(m[2], { args, result: cType(m[1].replace(/^(static|extern|inline)\s+/g, "")) });
    }
  };
  for (const f of readdirSync(new URL("wasm/", ROOT))) if (f.endsWith(".c")) add(read(`wasm/${f}`));
  add(read("include/memdomain.h"));
  return out;
}
