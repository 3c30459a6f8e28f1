// Data: what is loaded, import (memdomain/cache's JSON Lines and the page's own lines, or a
// SQLite file of memdomain/cache), export (the same files), back to the synthetic example; the
// queries and their labels. An import is all or nothing: a refused one changes nothing.
import { $, download, el, put } from "./dom.js";

export function setup(ctx) {
  const input = $("#data-file");
  input.onchange = async () => {
    const files = [...input.files];
    input.value = "";
    if (files.length) await load(ctx, files);
  };
  const drop = $("#data-drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const files = [...e.dataTransfer.files];
    if (files.length) await load(ctx, files);
  });
  $("#data-reset").onclick = async () => {
    ctx.status("loading the synthetic example", 0.1, "busy");
    const m = await ctx.call("reset");
    done(ctx, m.result);
  };
  // the page's settings travel in the meta line (queries.jsonl, and the SQLite file's own table)
  const exportData = async (kind) => (await ctx.call("exportData", { kind, settings: ctx.settings() })).result;
  $("#data-export-memories").onclick = async () => download("memories.jsonl", (await exportData("memories")).text, "application/x-ndjson");
  $("#data-export-queries").onclick = async () => download("queries.jsonl", (await exportData("queries")).text, "application/x-ndjson");
  $("#data-export-sqlite").onclick = async () => download("memories.sqlite", (await exportData("sqlite")).bytes, "application/vnd.sqlite3");
}

/** An import's outcome: the report, and for a new dataset its settings (one undoable step) and views. */
function done(ctx, r) {
  ctx.demo.imports = (ctx.demo.imports ?? 0) + 1; // the tests wait on it
  const problems = r.settings?.problems ?? [];
  report({ ...r, warnings: [...r.warnings, ...problems.map((x) => `settings in the meta line, refused (the defaults stand in for them): ${x}`)] });
  if (!r.ok) return;
  if (r.settings) ctx.replace(r.settings.settings);
  ctx.onData(r.summary);
}

async function load(ctx, files) {
  ctx.status(`reading ${files.length} file(s)`, 0.05, "busy");
  const payload = [];
  for (const f of files) {
    if (/\.(sqlite3?|db)$/i.test(f.name)) payload.push({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) });
    else payload.push({ name: f.name, text: await f.text() });
  }
  try {
    const m = await ctx.call("importFiles", { files: payload });
    done(ctx, m.result);
    if (m.result.ok) ctx.status(`imported ${m.result.summary.memories} memories`, 1);
    else ctx.status("import refused: nothing was changed", 0, "error");
  } catch (e) {
    report({ ok: false, errors: [e.message.split("\n")[0]], warnings: [] });
    ctx.status("import refused: nothing was changed", 0, "error");
  }
}

function report(r) {
  const box = $("#data-report");
  box.hidden = false;
  box.className = r.ok ? (r.warnings.length ? "report warn" : "report ok") : "report error";
  put(box,
    el("b", { text: r.ok ? `Imported${r.imported ? `: ${r.imported.inserted} memories and ${r.imported.edges} edges through importJsonl()` : ""}.`
      : "Refused as a whole: nothing was imported, the dataset is unchanged." }),
    r.errors.length ? el("ul", { class: "errors" }, ...r.errors.map((e) => el("li", { text: e }))) : null,
    r.warnings.length ? el("ul", { class: "warnings" }, ...r.warnings.map((e) => el("li", { text: e }))) : null,
  );
}

export function runner(ctx) {
  return () => render(ctx);
}

export function onData(ctx) {
  if (ctx.state.view === "data") render(ctx);
}

function render(ctx) {
  const s = ctx.summary;
  const dl = (pairs) => el("dl", { class: "facts" }, ...pairs.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
  put($("#data-summary"), 
    el("h3", { text: s.source === "example" ? "The synthetic example (first visit)" : s.name }),
    s.source === "example" ? el("p", { class: "note", text: "Generated data with synthetic embeddings and synthetic labels: a place to see how the settings behave. Import your own memories to tune for them; they stay in this browser (OPFS) between visits." }) : null,
    dl([["memories", `${s.memories.toLocaleString("en")} (${s.withEmbedding.toLocaleString("en")} with an embedding${s.dim ? `, ${s.dim} dimensions` : ""})`],
      ["types", Object.entries(s.types).map(([t, n]) => `${t} ${n}`).join(", ")],
      ["edges", `${s.edges.toLocaleString("en")} (${Object.entries(s.edgesBy).filter(([, n]) => n).map(([o, n]) => `${n} ${o === "link" ? "links" : o === "sleep" ? "from sleep" : "supersedes (merges)"}`).join(", ") || "none"})`],
      ...(s.superseded ? [["superseded", `${s.superseded} (merged away by sleep; kept in the database and in the export)`]] : []),
      ["queries", `${s.queries.length} (${s.labelled} with relevance labels, ${s.queries.filter((q) => q.hasVector).length} with a vector)`],
      ["as of", `${new Date(s.now).toISOString().slice(0, 16).replace("T", " ")} UTC (ages are counted to this time)`],
      ["stored by", s.backend]]));
  $("#data-export-sqlite").hidden = !s.sqlite;
  put($("#data-queries tbody"), ...s.queries.map((q) => el("tr", { "data-query": q.id },
    el("td", { text: q.id }), el("td", { class: "gist", text: q.text }), el("td", { text: q.hasVector ? "yes" : "no" }), el("td", { class: "num", text: String(q.relevant) }))));
}
