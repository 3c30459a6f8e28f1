// The snippets of README.md and docs/*.md, run exactly as printed by a user who
// installed the package as the README prints it (tests/readme/snippets.mjs says
// which blocks and how):
//   - the block marked `<!-- snippet: install -->` holds the `npm install` lines:
//     each runs as printed (only `memdomain` replaced by the packed tarball's path)
//     in two fresh projects in a temporary directory outside the repository, with no
//     node_modules above it: an ES module project and a default `npm init -y`
//     CommonJS project; a line whose comment ends "(Node 20)" runs on Node 20 only.
//     Every peer range of the package must admit a version the registry serves, and
//     installing a peer first and the tarball second must keep the peer;
//   - every ```js block runs in both projects (in the CommonJS one a block with
//     import declarations or top-level await is saved as .mjs, as the README tells
//     CommonJS users to do); comments that state a value are checked by an
//     instrumented run in the ES module project; a block marked
//     `<!-- snippet: node and deno -->` also runs with Deno there, with the
//     permissions the documents print (deno run --allow-read --allow-write --allow-env);
//   - a block marked `<!-- snippet: workerd -->` bundled as Workers bundle it
//     (examples/worker/build.mjs) and served by workerd;
//   - every ```sh block with bash from the repository root (the examples/worker
//     block: make pack, npm install, npm run build in examples/worker);
//   - ```c blocks are compiled and run by make test-c (build/tests/readme_c);
//   - ```text blocks and fences with no language are printed text (output, usage), not run.
// Blocks marked `<!-- snippet: not run: WHY -->` are listed with their reason.
// npm reaches the registry here (as CI does); better-sqlite3's prebuilt binary, which
// users download from GitHub, is served from the one make deps built (Node 20).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { APP, BIN, BUILD, EXAMPLE_OUTPUT, ROOT, RT, check, finish, freePort, run, startChild, waitFor } from "./lib.mjs";
import { instrument, isModuleSyntax, snippets } from "../readme/snippets.mjs";

const [major] = process.versions.node.split(".").map(Number);
console.log(`README and docs/ snippets on Node ${process.versions.node} (installed as printed, outside the repository)`);
const tgz = readFileSync(`${RT}.setup`, "utf8").trim();
const docs = ["README.md", ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const blocks = docs.flatMap((file) => snippets(readFileSync(`${ROOT}${file}`, "utf8")).map((b) => ({ ...b, file })));
const at = (b) => `${b.file}:${b.line} \`\`\`${b.lang}`;
// A file name per block, unique across the documents: "readme-30", "docs-api-12".
const tag = (b) => `${b.file.replace(/\.md$/, "").replace(/\//g, "-").toLowerCase()}-${b.line}`;
const pkg = JSON.parse(readFileSync(`${ROOT}js/package.json`, "utf8"));

// ---- the install lines, as printed
const installBlocks = blocks.filter((b) => b.mark === "install");
if (!check(installBlocks.length === 1 && installBlocks[0].lang === "sh", "one ```sh block is marked install",
  installBlocks.map(at).join(", "))) finish("readme");
const lines = installBlocks[0].code.split("\n").filter((l) => l.trim()).map((text) => {
  const [, cmd, comment = ""] = /^([^#]*?)\s*(?:#\s*(.*))?$/.exec(text);
  return { text, words: cmd.split(/\s+/), comment };
});
// memdomain is not on the npm registry (the name is not ours to publish under): the lines install the
// tarball `make pack` writes, by the name they print, from the project's directory where it was copied
const TGZ = `./memdomain-${pkg.version}.tgz`;
for (const l of lines) {
  check(l.words[0] === "npm" && l.words[1] === "install" && l.words[2] === TGZ && l.words.slice(3).every((w) => !w.startsWith("-")),
    `install line "${l.text}" is npm install ${TGZ} [peers], nothing else`);
}
const applies = (l) => !/\(Node 20\)$/.test(l.comment) || major === 20;
const asPrinted = (l) => l.words.slice(1); // exactly as printed
const peers = lines.flatMap((l) => l.words.slice(3)).map((w) => {
  const at2 = w.indexOf("@", 1);
  return { spec: w, name: at2 > 0 ? w.slice(0, at2) : w, version: at2 > 0 ? w.slice(at2 + 1) : null };
});

// npm as the user has it, quiet about audits and funding; no node_modules above the projects.
const npmEnv = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"]) delete npmEnv[k];
const npm = (args, cwd, env = npmEnv) => run("npm", args, { cwd, env, timeoutMs: 300000 });
const json = (r) => { try { return JSON.parse(r.stdout.toString()); } catch { return null; } };

// Every peer range admits a version the registry serves, and every version an install line names.
for (const [name, range] of Object.entries(pkg.peerDependencies ?? {})) {
  const r = await npm(["view", `${name}@${range}`, "version", "--json"], ROOT);
  const versions = [json(r)].flat().filter(Boolean);
  check(r.code === 0 && versions.length > 0, `peer ${name}@"${range}" admits a published version (${versions.length}: ${versions.slice(-3).join(", ")})`,
    `exit ${r.code}\n${r.stderr.slice(-600)}`);
}
// Each version a line names is published (that npm admits it under the peer range: npm ls, below).
for (const p of new Map(peers.map((p) => [p.spec, p])).values()) {
  const r = await npm(["view", p.spec, "version", "--json"], ROOT);
  check(r.code === 0 && p.version !== null && [json(r)].flat().includes(p.version), `the install lines name a published version: ${p.spec}`,
    `exit ${r.code}\n${r.stderr.slice(-600)}`);
}
for (const p of peers) check(pkg.peerDependencies?.[p.name] !== undefined, `${p.name}, named by an install line, is a peer dependency of memdomain`);
// What the package's errors and the workbench's exported script tell users to install: the install lines' versions.
{
  const sources = (dir) => readdirSync(`${ROOT}${dir}`, { recursive: true }).filter((f) => /\.(m?js)$/.test(f) && !f.includes("node_modules"))
    .map((f) => `${dir}/${f}`);
  const peerNames = Object.keys(pkg.peerDependencies ?? {}).map((n) => n.replace(/[./]/g, "\\$&"));
  const re = new RegExp(`(?<![\\w/])(${peerNames.join("|")})@([0-9][\\w.-]*)`, "g");
  const told = [...sources("js"), ...sources("web-demo/lib")].flatMap((f) =>
    [...readFileSync(`${ROOT}${f}`, "utf8").matchAll(re)].map((m) => ({ f, spec: m[0] })));
  check(told.length >= 3, `the package's messages and the exported script name peer versions (${told.length})`);
  for (const { f, spec } of told) check(peers.some((p) => p.spec === spec), `${f} tells users to install ${spec}, as the README does`);
}

const base = mkdtempSync(join(tmpdir(), "memdomain-docs-"));
process.on("exit", () => rmSync(base, { recursive: true, force: true }));
const above = [];
for (let d = base; d !== dirname(d); d = dirname(d)) if (existsSync(join(dirname(d), "node_modules"))) above.push(join(dirname(d), "node_modules"));
check(above.length === 0 && !base.startsWith(ROOT), `the projects live in ${base}, outside the repository, with no node_modules above`, above.join(", "));

// better-sqlite3's prebuilt binary for this Node, served where prebuild-install looks (its binary_host mirror).
let prebuilds = null;
const bsq = peers.find((p) => p.name === "better-sqlite3");
if (bsq && lines.some((l) => applies(l) && l.words.includes(bsq.spec))) {
  const devVersion = JSON.parse(readFileSync(`${ROOT}node_modules/better-sqlite3/package.json`, "utf8")).version;
  check(bsq.version === devVersion, `the install line's better-sqlite3 version is the one make deps builds (${devVersion})`, bsq.spec);
  const stage = join(base, "prebuild");
  mkdirSync(join(stage, "build/Release"), { recursive: true });
  writeFileSync(join(stage, "build/Release/better_sqlite3.node"), readFileSync(`${ROOT}node_modules/better-sqlite3/build/Release/better_sqlite3.node`));
  const name = `better-sqlite3-v${devVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run("tar", ["-czf", join(base, name), "-C", stage, "build"]);
  const body = readFileSync(join(base, name));
  const server = createServer((req, res) => {
    if (req.url === `/v${devVersion}/${name}`) res.end(body);
    else { res.statusCode = 404; res.end(); }
  });
  const port = await freePort();
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  server.unref();
  prebuilds = `http://127.0.0.1:${port}`;
}
const installEnv = prebuilds ? { ...npmEnv, npm_config_better_sqlite3_binary_host: prebuilds } : npmEnv;

/** A fresh project: `npm init -y` (CommonJS), or an ES module project; then every install line that applies. */
async function project(name, type) {
  const dir = join(base, name) + "/";
  mkdirSync(dir, { recursive: true });
  const init = await npm(["init", "-y"], dir);
  if (type === "module") await npm(["pkg", "set", "type=module"], dir);
  const got = JSON.parse(readFileSync(`${dir}package.json`, "utf8")).type ?? "commonjs";
  copyFileSync(tgz, `${dir}${TGZ.slice(2)}`); // the README's step before its install lines
  check(init.code === 0 && got === type, `${name}: npm init -y makes a ${type} project`, init.stderr);
  for (const l of lines) {
    if (!applies(l)) { console.log(`  note ${name}: "${l.text}" is for Node 20 only`); continue; }
    const r = await npm(asPrinted(l), dir, installEnv);
    check(r.code === 0, `${name}: ${l.text.replace(/\s*#.*/, "")} (as printed)`, `exit ${r.code}\n${r.stderr.slice(-1500)}`);
    // sqlite-wasm's own engines field wants Node >= 22: on Node 20 npm warns, as the README says
    if (major === 20) { if (/EBADENGINE/.test(r.stderr)) console.log(`  note ${name}: npm warns EBADENGINE on Node 20, as the README says`); }
    else check(!/EBADENGINE/.test(r.stderr), `${name}: no EBADENGINE warning on Node ${major}`, r.stderr.slice(0, 800));
  }
  const ls = await npm(["ls", "--json"], dir);
  const deps = json(ls)?.dependencies ?? {};
  const want = ["memdomain", ...new Set(peers.filter((p) => lines.some((l) => applies(l) && l.words.includes(p.spec))).map((p) => p.name))];
  check(ls.code === 0 && want.every((n) => deps[n] && !deps[n].missing && !deps[n].invalid),
    `${name}: npm ls: ${want.map((n) => `${n}@${deps[n]?.version}`).join(", ")}, none missing or invalid`, ls.stderr.slice(-800));
  return dir;
}
// A peer installed first, the tarball second: the peer stays, and later installs still work.
async function peerFirst() {
  const wasmPeer = peers.find((p) => p.name === "@sqlite.org/sqlite-wasm");
  const dir = join(base, "peer-first") + "/";
  mkdirSync(dir);
  await npm(["init", "-y"], dir);
  const a = await npm(["install", wasmPeer.spec], dir);
  const b = await npm(["install", tgz], dir);
  const c = await npm(["install"], dir);
  const deps = json(await npm(["ls", "--json"], dir))?.dependencies ?? {};
  check(a.code === 0 && b.code === 0 && c.code === 0 && deps[wasmPeer.name]?.version === wasmPeer.version && !deps[wasmPeer.name]?.missing && deps.memdomain,
    `npm install ${wasmPeer.spec}, then npm install <tarball>, then npm install: ${wasmPeer.name} stays (${deps[wasmPeer.name]?.version})`,
    `exits ${a.code} ${b.code} ${c.code}\n${b.stderr.slice(-800)}${c.stderr.slice(-800)}`);
}
// The three at once (npm spends most of its time waiting on the registry).
const [esm, cjs] = await Promise.all([project("esm", "module"), project("cjs", "commonjs"), peerFirst()]);
const projects = { esm, cjs };

// Node >= 20.19 can require() an ES module without a flag; the README says so.
const [maj, min] = process.versions.node.split(".").map(Number);
if (maj > 20 || (maj === 20 && min >= 19)) {
  writeFileSync(`${projects.cjs}require.js`, 'const md = require("memdomain");\nconsole.log(typeof md.init);\n');
  const r = await run(process.execPath, ["require.js"], { cwd: projects.cjs, timeoutMs: 60000 });
  check(r.code === 0 && r.stdout.toString().trim() === "function", `require("memdomain") works in the CommonJS project on Node ${process.versions.node}`, r.stderr);
}

const PRELUDE = `${projects.esm}prelude.mjs`;
writeFileSync(PRELUDE, `import { sameValue } from ${JSON.stringify(pathToFileURL(`${ROOT}tests/readme/snippets.mjs`).href)};
const checks = JSON.parse(process.env.README_CHECKS);
const seen = checks.map(() => null);
globalThis.__readmeCheck = (i, v) => {
  const c = checks[i];
  const ok = sameValue(v, c.value, c.typed);
  const show = (x) => (ArrayBuffer.isView(x) ? \`\${x.constructor.name} [\${Array.from(x)}]\` : JSON.stringify(x) ?? String(x));
  if (!ok || seen[i] === null) seen[i] = { ok, got: ok ? undefined : show(v) };
  return v;
};
process.on("exit", () => console.log("README-CHECKS " + JSON.stringify(seen)));
`);

async function runJs(b) {
  const esm = isModuleSyntax(b.code);
  for (const [name, dir] of Object.entries(projects)) {
    const file = `snippet-${tag(b)}.${name === "cjs" && esm ? "mjs" : "js"}`;
    writeFileSync(`${dir}${file}`, b.code);
    const r = await run(process.execPath, [file], { cwd: dir, timeoutMs: 120000 });
    check(r.code === 0, `${at(b)} runs as printed in the ${name === "cjs" ? "CommonJS" : "ES module"} project (${file})`,
      `exit ${r.code}\n${r.stderr.slice(-2000)}`);
  }
  if (b.mark === "node and deno") {
    const file = `snippet-${tag(b)}.js`;
    const r = await run(`${BIN}deno`, ["run", "--allow-read", "--allow-write", "--allow-env", file], { cwd: projects.esm, timeoutMs: 120000 });
    check(r.code === 0, `${at(b)} runs as printed in Deno (deno run --allow-read --allow-write --allow-env ${file})`,
      `exit ${r.code}\n${r.stderr.slice(-2000)}`);
  }
  const { code, checks } = instrument(b.code);
  if (!checks.length) return;
  const file = `checked-${tag(b)}.mjs`;
  writeFileSync(`${projects.esm}${file}`, `import "./prelude.mjs";\n${code}`);
  const r = await run(process.execPath, [file], { cwd: projects.esm, timeoutMs: 120000,
    env: { ...process.env, README_CHECKS: JSON.stringify(checks) } });
  const line = r.stdout.toString().split("\n").find((l) => l.startsWith("README-CHECKS "));
  const seen = line ? JSON.parse(line.slice(14)) : [];
  checks.forEach((c, i) => {
    const s = seen[i];
    check(s?.ok === true, `${b.file}:${b.line + c.line - 1}: the comment holds: ${c.text.replace(/\s+/g, " ").slice(0, 90)}`,
      s ? `got ${s.got}` : `not reached (exit ${r.code})\n${r.stderr.slice(-1500)}`);
  });
}

async function runWorkerd(b) {
  const dir = `${APP}readme/workerd-${tag(b)}/`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}worker.js`, b.code);
  const built = await run(process.execPath, [`${APP}examples/worker/build.mjs`, `${dir}dist`, `${dir}worker.js`], { cwd: dir, timeoutMs: 60000 });
  if (!check(built.code === 0, `${at(b)} bundles as a Worker (examples/worker/build.mjs)`, built.stderr)) return;
  writeFileSync(`${dir}config.capnp`, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8788", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "dist/worker.js"),
    (name = "memdomain.wasm", wasm = embed "dist/memdomain.wasm"),
  ],
  compatibilityDate = "2025-01-01",
);
`);
  const port = await freePort();
  const server = startChild(`${BIN}workerd`, ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`], { cwd: dir, maxMs: 60000 });
  try {
    const body = JSON.stringify({ arms: [[{ path: "notes/a.html", rank: 1 }, { path: "notes/b.html", rank: 2 }], [{ path: "notes/b.html", rank: 1 }]], weights: [1, 1] });
    const text = await waitFor(async () => {
      if (server.child.exitCode !== null) throw new Error(`workerd exited: ${server.log()}`);
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body });
      return res.ok && res.text();
    }, { timeoutMs: 30000, what: "workerd to answer" }).catch((e) => e.message);
    check(text === EXAMPLE_OUTPUT, `${at(b)} served by workerd answers the fused ranking`, `${text}\n${server.log().slice(-1500)}`);
  } finally {
    await server.stop();
  }
}

async function runSh(b) {
  // As a fresh clone has it: no git-ignored output of an earlier run (npm keeps an
  // installed file: dependency, so an old node_modules/ would hide a stale tarball).
  if (/examples\/worker/.test(b.code))
    for (const d of ["node_modules", "dist"]) rmSync(`${ROOT}examples/worker/${d}`, { recursive: true, force: true });
  const env = { ...process.env };
  for (const k of ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"]) delete env[k];
  const r = await run("bash", ["-euo", "pipefail", "-c", b.code], { cwd: ROOT, env, timeoutMs: 300000 });
  check(r.code === 0, `${at(b)} runs as printed from the repository root`, `exit ${r.code}\n${r.stderr.slice(-2000)}`);
  if (/examples\/worker/.test(b.code)) {
    const dist = `${ROOT}examples/worker/dist/`;
    check(existsSync(`${dist}worker.js`) && /^import \w+ from "\.\/memdomain\.wasm";$/m.test(readFileSync(`${dist}worker.js`, "utf8")),
      "examples/worker, built from its own package.json, imports the .wasm as a module");
    check(existsSync(`${dist}memdomain.wasm`) && readFileSync(`${dist}memdomain.wasm`).equals(readFileSync(`${BUILD}memdomain.wasm`)),
      "examples/worker/dist/memdomain.wasm is the packed build/memdomain.wasm");
  }
}

let ran = 0, texts = 0;
for (const b of blocks) {
  if (b.mark === "install") continue; // run above, line by line
  // printed output (docs/PERFORMANCE.md) or a diagram or usage text in a fence with no language: not code
  if ((b.lang === "text" || b.lang === "") && !b.mark) { texts++; continue; }
  if (b.mark?.startsWith("not run")) {
    check(/^not run:\s*\S/.test(b.mark), `${at(b)} is marked not run, with a reason`, b.mark);
    console.log(`  note ${at(b)} not run: ${b.mark.replace(/^not run:\s*/, "")}`);
    continue;
  }
  if (b.lang === "c" && !b.mark) { console.log(`  note ${at(b)}: compiled and run by make test-c (build/tests/readme_c)`); continue; }
  ran++;
  if (b.lang === "js" && b.mark === "workerd") await runWorkerd(b);
  else if (b.lang === "js" && (!b.mark || b.mark === "node and deno")) await runJs(b);
  else if (b.lang === "sh" && !b.mark) await runSh(b);
  else check(false, `${at(b)}: no runner for this block; mark it <!-- snippet: not run: WHY --> or add one`, `mark: ${b.mark}`);
}
check(ran >= 8, `ran ${ran} blocks of ${docs.join(", ")} (and passed over ${texts} blocks of printed text: \`\`\`text or no language)`);
finish("readme");
