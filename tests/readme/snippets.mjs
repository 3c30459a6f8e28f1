// The code blocks of README.md and docs/*.md, as tests run them (docs/ARCHITECTURE.md,
// "README snippets").
//
// Every fenced block is a snippet. ```js and ```sh blocks run exactly as printed
// (tests/runtimes/readme.test.mjs), the ```c block is compiled and run (the Makefile's
// readme_c rule, through `node tests/readme/snippets.mjs c README.md docs/*.md`);
// ```text blocks and fences with no language are printed text (output, usage), not run.
// An HTML comment on the line just before the fence changes how one runs:
//   <!-- snippet: not run: WHY -->     not run (say why; this should be rare)
//   <!-- snippet: workerd -->          bundled like a Worker and served by workerd
//   <!-- snippet: node and deno -->    run in Node and also in Deno
//   <!-- snippet: install -->          the README's npm install lines, which the test projects run
//
// Comments that state a value are checked too: a statement followed by a
// comment, on its own line's end or on the comment-only lines right after it,
// whose text starts with a JavaScript literal (a number, string, true/false/null,
// an array or object of literals, or a typed array written `Float64Array [1, 2]`)
// and then ends or goes on with "(", ":", ";" or "," must equal what the
// statement computes (`x; // 0.5` checks x; `const y = f(); // [1]` checks y;
// `console.log(v); // "a"` checks v). Anything else in a comment is prose.
import { readFileSync } from "node:fs";
import { parse, parseExpressionAt } from "acorn";

/** Every fenced block: { lang, code, line (1-based, of the first code line), mark }. */
export function snippets(markdown) {
  const lines = markdown.split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !/^```\s*$/.test(lines[j])) j++;
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const mark = k >= 0 ? /^<!--\s*snippet:\s*(.*?)\s*-->\s*$/.exec(lines[k])?.[1] ?? null : null;
    out.push({ lang: open[1], code: lines.slice(i + 1, j).join("\n") + "\n", line: i + 2, mark });
    i = j;
  }
  return out;
}

const PARSE = { ecmaVersion: "latest", sourceType: "module", allowAwaitOutsideFunction: true, locations: true };

/** true when the code needs an ES module (import/export declarations or top-level await). */
export function isModuleSyntax(code) {
  const ast = parse(code, PARSE);
  if (ast.body.some((n) => /^(Import|Export)/.test(n.type))) return true;
  try {
    parse(code, { ...PARSE, sourceType: "script", allowAwaitOutsideFunction: false });
    return false;
  } catch {
    return true;
  }
}

const TYPED = /^(Float64Array|Float32Array|Uint32Array|Int32Array|Uint8Array|Uint16Array|Int8Array|Int16Array|BigInt64Array|BigUint64Array)\s+(?=\[)/;

/** The literal a comment starts with, as { value, typed } or undefined when the comment is prose. */
export function commentValue(text) {
  let s = text.trim(), typed = null;
  const t = TYPED.exec(s);
  if (t) { typed = t[1]; s = s.slice(t[0].length); }
  const lit = (n) => {
    switch (n.type) {
      case "Literal": return n.regex ? undefined : { v: n.value };
      case "Identifier": return n.name === "undefined" ? { v: undefined } : n.name === "NaN" ? { v: NaN } : n.name === "Infinity" ? { v: Infinity } : undefined;
      case "UnaryExpression": {
        const a = n.operator === "-" && lit(n.argument);
        return a && typeof a.v === "number" ? { v: -a.v } : undefined;
      }
      case "ArrayExpression": {
        const items = n.elements.map((e) => e && lit(e));
        return items.every(Boolean) ? { v: items.map((x) => x.v) } : undefined;
      }
      case "ObjectExpression": {
        const o = {};
        for (const p of n.properties) {
          if (p.type !== "Property" || p.computed || p.kind !== "init") return undefined;
          const v = lit(p.value);
          if (!v) return undefined;
          o[p.key.type === "Identifier" ? p.key.name : p.key.value] = v.v;
        }
        return { v: o };
      }
      default: return undefined;
    }
  };
  // The longest prefix, whole or cut before a "(", ":", ";" or ",", that is one literal.
  const cuts = [s.length, ...[...s.matchAll(/[(:;,]/g)].map((m) => m.index).reverse()];
  for (const cut of cuts) {
    const head = s.slice(0, cut).trimEnd();
    let v;
    try {
      const n = parseExpressionAt(head, 0, { ecmaVersion: "latest" });
      v = n.end === head.length ? lit(n) : undefined;
    } catch { /* not an expression */ }
    if (v && (!typed || Array.isArray(v.v))) return { value: v.v, typed };
  }
  return undefined;
}

/** Deep equality for checked comments: Object.is on numbers, typed arrays as their class says. */
export function sameValue(got, want, typed = null) {
  if (typed) return got?.constructor?.name === typed && sameValue(Array.from(got), want);
  if (Array.isArray(want)) {
    if (!(Array.isArray(got) || ArrayBuffer.isView(got)) || got.length !== want.length) return false;
    return want.every((w, i) => sameValue(got[i], w));
  }
  if (want && typeof want === "object") {
    if (!got || typeof got !== "object") return false;
    const keys = Object.keys(want);
    if (Object.keys(got).length !== keys.length) return false;
    return keys.every((k) => Object.hasOwn(got, k) && sameValue(got[k], want[k]));
  }
  return Object.is(got, want);
}

/**
 * The snippet with every checkable value comment turned into a call of
 * globalThis.__readmeCheck(index, value) right where the value is computed.
 * Returns { code, checks: [{ line, text, value, typed }] }.
 */
export function instrument(code) {
  const comments = [];
  const ast = parse(code, { ...PARSE, onComment: comments });
  const lines = code.split("\n");
  const lineComments = comments.filter((c) => c.type === "Line");
  const commentOnlyLine = (ln) => /^\s*\/\//.test(lines[ln - 1] ?? "");
  const edits = [], checks = [];
  const visit = (stmts) => {
    for (const st of stmts) {
      for (const key of ["body", "block", "finalizer", "consequent", "alternate"]) {
        const b = st[key];
        if (b?.type === "BlockStatement") visit(b.body);
        else if (Array.isArray(b)) visit(b);
      }
      if (st.type === "ExpressionStatement" && st.expression.type === "ArrowFunctionExpression") continue;
      const endLine = st.loc.end.line;
      // The comment on the statement's last line, else the comment-only lines right after it.
      const parts = lineComments.filter((c) => c.loc.start.line === endLine && c.start >= st.end);
      for (let ln = endLine + 1; commentOnlyLine(ln); ln++) parts.push(lineComments.find((c) => c.loc.start.line === ln));
      if (!parts.length) continue;
      // The longest run of the comment's lines that reads as a value.
      let found;
      for (let n = parts.length; n >= 1 && !found; n--) {
        const text = parts.slice(0, n).map((c) => c.value).join(" ");
        const v = commentValue(text);
        if (v) found = { text: text.trim(), ...v };
      }
      if (!found) continue;
      const id = checks.length;
      let target = null;
      if (st.type === "ExpressionStatement") {
        const e = st.expression;
        const isLog = e.type === "CallExpression" && e.callee.type === "MemberExpression" &&
          e.callee.object.name === "console" && e.callee.property.name === "log" && e.arguments.length === 1;
        target = isLog ? e.arguments[0] : e;
        edits.push({ start: target.start, end: target.end, text: `globalThis.__readmeCheck(${id}, (${code.slice(target.start, target.end)}))` });
      } else if (st.type === "VariableDeclaration" && st.declarations.length === 1 && st.declarations[0].id.type === "Identifier") {
        edits.push({ start: st.end, end: st.end, text: ` globalThis.__readmeCheck(${id}, ${st.declarations[0].id.name});` });
      } else continue;
      checks.push({ line: st.loc.start.line, ...found });
    }
  };
  visit(ast.body);
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { code: out, checks };
}

/** The documents' C example as a program: the #include lines on top, the rest in main(). */
function cProgram(code) {
  const inc = code.split("\n").filter((l) => l.startsWith("#include"));
  const body = code.split("\n").filter((l) => !l.startsWith("#include") && l !== "");
  return [...inc, "#include <stdio.h>", "int main(void) {", ...body.map((l) => `    ${l}`),
    '    printf("readme-c: %.17g\\n", sim);', "    return sim == 0.7071067811865475 ? 0 : 1;", "}", ""].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // One program checks one value, so the documents hold one runnable C block between them.
  const [lang, ...files] = process.argv.slice(2);
  const blocks = files.flatMap((f) => snippets(readFileSync(f, "utf8")).filter((s) => s.lang === lang && !s.mark?.startsWith("not run")));
  if (lang !== "c" || blocks.length !== 1) {
    console.error(`${files.join(", ")}: expected exactly one runnable \`\`\`c block among them, found ${blocks.length}`);
    process.exit(1);
  }
  process.stdout.write(cProgram(blocks[0].code));
}
