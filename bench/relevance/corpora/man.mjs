// Man pages (manpages, manpages-dev, libssl-doc, git-man, perl-doc: only those packages' own
// files), rendered with groff, one memory per page. The NAME line's description, written by the
// page's author ("copy files and directories"), is the page's known-item query and is removed
// from the text; SEE ALSO names the page's links.
import { spawn, execFileSync } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { gunzipSync } from "node:zlib";
import { asciiPunct, byString } from "../text.mjs";

export const name = "man";
export const heldOut = false;
export const description = "man pages of manpages, manpages-dev, libssl-doc, git-man and perl-doc (groff), one memory per page";

// groff-base renders the pages, so its version is part of the corpus's cache key.
export const packages = () => ["manpages", "manpages-dev", "libssl-doc", "git-man", "perl-doc", "groff-base"];
const SOURCES = new Set(["manpages", "manpages-dev", "libssl-doc", "git-man", "perl-doc"]);

const MAN_FILE = /^\/usr\/share\/man\/(man[^/]+)\/([^/]+)\.gz$/;
// Continuous rendering (cR), no hyphenation (HY), lines long enough that a paragraph is one line.
// preconv (-k) and tbl (-t) run only for pages that need them: two processes fewer per page.
const GROFF = ["-mandoc", "-Tutf8", "-rLL=4000n", "-rHY=0", "-rcR=1", "-P-cbou"];

/** "man3/printf.3" -> { name: "printf", sect: "3" } */
function nameOf(rel) {
  const base = posix.basename(rel);
  const dot = base.lastIndexOf(".");
  return { name: base.slice(0, dot), sect: base.slice(dot + 1) };
}

const flagsFor = (src) => {
  const text = src.toString("latin1");
  return [...(/[^\x00-\x7f]/.test(text) ? ["-k"] : []), ...(/^[.']\s*TS/m.test(text) ? ["-t"] : [])].join(" ") || "-";
};

// Each worker is one bash loop over its share of the pages (a manifest of "index TAB flags TAB file"
// lines; flags "-" for none, since read collapses empty tab-separated fields): spawning groff from a small shell costs far less than from Node, which forks its whole heap.
const LOOP = `set -o pipefail; while IFS=$'\\t' read -r i flags f; do [ "$flags" = - ] && flags=; gzip -dc "$f" | groff $flags ${GROFF.join(" ")} > "$1/$i.txt" 2>/dev/null \\
  || { echo "groff failed on $f" >&2; exit 1; }; done < "$2"`;

async function renderAll(pages, jobs) {
  const dir = mkdtempSync(join(tmpdir(), "relevance-man-"));
  try {
    const shares = Array.from({ length: jobs }, () => []);
    pages.forEach((p, i) => shares[i % jobs].push(`${i}\t${p.flags}\t${p.file}`));
    await Promise.all(shares.map((lines, w) => new Promise((resolve, reject) => {
      const manifest = join(dir, `manifest.${w}`);
      writeFileSync(manifest, lines.join("\n") + "\n");
      const p = spawn("bash", ["-c", LOOP, "render", dir, manifest], { env: { ...process.env, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" }, stdio: ["ignore", "ignore", "pipe"] });
      let err = "";
      p.stderr.on("data", (b) => (err += b));
      p.on("error", reject);
      p.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`man corpus: rendering failed (${code}): ${err.trim()}`))));
    })));
    return pages.map((_, i) => readFileSync(join(dir, `${i}.txt`), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rendered page -> [{ name, lines }] sections; the running header and footer lines dropped. */
export function manSections(out) {
  const lines = out.replace(/\r/g, "").split("\n");
  const nonEmpty = lines.map((l, i) => (l.trim() ? i : -1)).filter((i) => i >= 0);
  if (nonEmpty.length < 2) return [];
  const body = lines.slice(nonEmpty[0] + 1, nonEmpty[nonEmpty.length - 1]);
  const sections = [];
  for (const raw of body) {
    if (!raw.trim()) continue;
    if (/^\S/.test(raw)) sections.push({ name: asciiPunct(raw).trim(), lines: [] });
    else if (sections.length) sections[sections.length - 1].lines.push(asciiPunct(raw).replace(/\s+/g, " ").trim());
  }
  return sections;
}

export async function extract({ files, jobs = 2 }) {
  const pages = [];
  const alias = new Map(); // "name.sect" -> real page rel path (symlinks and .so pages)
  const real = new Map(); // "name.sect" -> rel path
  for (const f of files) {
    const m = MAN_FILE.exec(f.file);
    if (!m || !SOURCES.has(f.pkg)) continue;
    const rel = `${m[1]}/${m[2]}`;
    const st = lstatSync(f.file);
    if (st.isSymbolicLink()) {
      const to = posix.normalize(posix.join(posix.dirname(f.file), readlinkSync(f.file)));
      const t = MAN_FILE.exec(to);
      if (t) alias.set(m[2], `${t[1]}/${t[2]}`);
      continue;
    }
    if (!st.isFile()) continue;
    const src = gunzipSync(readFileSync(f.file));
    const head = src.subarray(0, 512).toString("latin1");
    const so = /^\.so\s+(\S+)/m.exec(head);
    if (so && head.split("\n").filter((l) => l.trim() && !l.startsWith(".\\\"") && !l.startsWith("'\\\"")).length <= 1) {
      const t = /(man[^/]+)\/([^/]+?)(?:\.gz)?$/.exec(so[1]);
      if (t) alias.set(m[2], `${t[1]}/${t[2]}`);
      continue;
    }
    real.set(m[2], rel);
    pages.push({ rel, file: f.file, flags: flagsFor(src) });
  }
  pages.sort((a, b) => byString(a.rel, b.rel));
  // Two workers (one per core).
  const rendered = await renderAll(pages, jobs);
  // A SEE ALSO reference name(sect): that page, else the first page of that name in a section starting
  // with the same digit ("SSL_new(3)" is man3/SSL_new.3ssl), through aliases to a rendered page.
  const byName = new Map();
  for (const [k, rel] of [...real, ...alias]) {
    const { name: nm, sect } = nameOf(k);
    if (!byName.has(nm)) byName.set(nm, []);
    byName.get(nm).push([sect, rel]);
  }
  for (const list of byName.values()) list.sort((a, b) => byString(a[0], b[0]) || byString(a[1], b[1]));
  const renderedSet = new Set(pages.map((p) => p.rel));
  const resolve = (nm, sect) => {
    const list = byName.get(nm);
    if (!list) return null;
    let rel = (list.find(([s]) => s === sect) ?? list.find(([s]) => s[0] === sect[0]) ?? [])[1];
    for (let hops = 0; rel && !renderedSet.has(rel) && hops < 4; hops++) rel = alias.get(posix.basename(rel));
    return rel && renderedSet.has(rel) ? rel : null;
  };
  const items = [];
  for (let i = 0; i < pages.length; i++) {
    const { rel } = pages[i];
    const secs = manSections(rendered[i]);
    const nameSec = secs.find((s) => /^(NAME|NOM|NAZWA)$/i.test(s.name));
    let title = "";
    if (nameSec) {
      const line = nameSec.lines.join(" ");
      const dash = /\s[-\u2013\u2014]+\s/.exec(line);
      title = dash ? line.slice(dash.index + dash[0].length).trim() : "";
    }
    const links = new Set();
    const see = secs.find((s) => /^SEE ALSO$/i.test(s.name));
    if (see) {
      for (const m of see.lines.join(" ").matchAll(/([A-Za-z0-9_][\w.:+-]*)\s?\((\d[a-zA-Z0-9]*)\)/g)) {
        const to = resolve(m[1], m[2].toLowerCase());
        if (to && to !== rel) links.add(to);
      }
      // perl-doc's SEE ALSO names pages without a section ("Pod::Perldoc", "perlfunc").
      for (const m of see.lines.join(" ").matchAll(/\b(?:[A-Za-z]\w*(?:::\w+)+|perl[a-z0-9]+)\b/g)) {
        const list = byName.get(m[0]);
        const to = list && resolve(m[0], list[0][0]);
        if (to && to !== rel) links.add(to);
      }
    }
    // Each section's heading starts its first line ("SYNOPSIS: cp [OPTION]... SOURCE DEST"), so the first sentence is not
    // a lone "SYNOPSIS".
    const lines = secs.filter((s) => s !== nameSec).flatMap((s) => (s.lines.length ? [`${s.name}: ${s.lines[0]}`, ...s.lines.slice(1)] : [s.name]));
    items.push({ path: rel, lines, title, links });
  }
  return { root: "/usr/share/man", items, groff: execFileSync("groff", ["--version"], { encoding: "utf8" }).split("\n")[0] };
}
