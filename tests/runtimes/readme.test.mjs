// The snippets of README.md and docs/*.md, run exactly as printed by a user who
// installed the packed tarball (tests/readme/snippets.mjs says which blocks and how):
//   - every ```js block in build/rt/app/ (the ES module project setup.mjs made)
//     and in build/rt/cjs/ (a default `npm init -y` CommonJS project, where a
//     block with import declarations or top-level await is saved as .mjs, as
//     the README tells CommonJS users to do); comments that state a value are
//     checked by an instrumented run in the ES module project;
//   - a block marked `<!-- snippet: workerd -->` bundled as Workers bundle it
//     (examples/worker/build.mjs) and served by workerd;
//   - every ```sh block with bash from the repository root (the examples/worker
//     block: make pack, npm install, npm run build in examples/worker);
//   - ```c blocks are compiled and run by make test-c (build/tests/readme_c).
// Blocks marked `<!-- snippet: not run: WHY -->` are listed with their reason.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { APP, BIN, BUILD, EXAMPLE_OUTPUT, ROOT, RT, check, finish, freePort, run, startChild, waitFor } from "./lib.mjs";
import { instrument, isModuleSyntax, snippets } from "../readme/snippets.mjs";

console.log("README and docs/ snippets (the installed tarball; CommonJS and ES module projects)");
const tgz = readFileSync(`${RT}.setup`, "utf8").trim();
const docs = ["README.md", ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const blocks = docs.flatMap((file) => snippets(readFileSync(`${ROOT}${file}`, "utf8")).map((b) => ({ ...b, file })));
const at = (b) => `${b.file}:${b.line} \`\`\`${b.lang}`;
// A file name per block, unique across the documents: "readme-30", "docs-api-12".
const tag = (b) => `${b.file.replace(/\.md$/, "").replace(/\//g, "-").toLowerCase()}-${b.line}`;

// A default CommonJS project, as `npm init -y` makes it, with the tarball installed.
const CJS = `${RT}cjs/`;
rmSync(CJS, { recursive: true, force: true });
mkdirSync(CJS, { recursive: true });
const init = await run("npm", ["init", "-y"], { cwd: CJS, timeoutMs: 60000 });
const pkg = init.code === 0 ? JSON.parse(readFileSync(`${CJS}package.json`, "utf8")) : {};
check(init.code === 0 && (pkg.type ?? "commonjs") === "commonjs", `npm init -y makes a CommonJS project (type ${pkg.type})`, init.stderr);
const inst = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tgz], { cwd: CJS, timeoutMs: 180000 });
if (!check(inst.code === 0, "npm install <tarball> into the CommonJS project", inst.stderr)) finish("readme");

const projects = { esm: `${APP}readme/`, cjs: `${CJS}readme/` };
for (const dir of Object.values(projects)) { rmSync(dir, { recursive: true, force: true }); mkdirSync(dir, { recursive: true }); }

// Node >= 20.19 can require() an ES module without a flag; the README says so.
const [maj, min] = process.versions.node.split(".").map(Number);
if (maj > 20 || (maj === 20 && min >= 19)) {
  writeFileSync(`${CJS}readme/require.js`, 'const md = require("memdomain");\nconsole.log(typeof md.init);\n');
  const r = await run(process.execPath, ["require.js"], { cwd: `${CJS}readme/`, timeoutMs: 60000 });
  check(r.code === 0 && r.stdout.toString().trim() === "function", `require("memdomain") works in the CommonJS project on Node ${process.versions.node}`, r.stderr);
}

const PRELUDE = `${APP}readme/prelude.mjs`;
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

let ran = 0;
for (const b of blocks) {
  if (b.mark?.startsWith("not run")) {
    check(/^not run:\s*\S/.test(b.mark), `${at(b)} is marked not run, with a reason`, b.mark);
    console.log(`  note ${at(b)} not run: ${b.mark.replace(/^not run:\s*/, "")}`);
    continue;
  }
  if (b.lang === "c" && !b.mark) { console.log(`  note ${at(b)}: compiled and run by make test-c (build/tests/readme_c)`); continue; }
  ran++;
  if (b.lang === "js" && b.mark === "workerd") await runWorkerd(b);
  else if (b.lang === "js" && !b.mark) await runJs(b);
  else if (b.lang === "sh" && !b.mark) await runSh(b);
  else check(false, `${at(b)}: no runner for this block; mark it <!-- snippet: not run: WHY --> or add one`, `mark: ${b.mark}`);
}
check(ran >= 8, `ran ${ran} blocks of ${docs.join(", ")}`);
finish("readme");
