// Runs in Node or Deno from the scratch project (build/rt/app/harness/):
// imports the installed package by name, calls `await init()` with no
// arguments (the .wasm next to the glue), runs the golden files and prints
// one JSON line: { runtime, resolved, cases, failed, failures, hashes, total }.
//   node cli-run.mjs GOLDEN_DIR [WASM]   |   deno run --allow-read cli-run.mjs GOLDEN_DIR
// With WASM (a path), init() gets that file's bytes instead (another build).
import * as md from "memdomain";
import { runGolden } from "./harness.js";

const isDeno = typeof Deno !== "undefined";
const fs = isDeno ? null : await import("node:fs/promises");
const read = (path) => (isDeno ? Deno.readTextFile(path) : fs.readFile(path, "utf8"));
const args = isDeno ? Deno.args : process.argv.slice(2);
const golden = new URL(args[0].endsWith("/") ? args[0] : `${args[0]}/`, `file://${isDeno ? Deno.cwd() : process.cwd()}/`);
const config = JSON.parse(await read(new URL("./config.json", import.meta.url)));

if (md.isInitialized()) throw new Error("initialized before init()");
await md.init(args[1] ? (isDeno ? await Deno.readFile(args[1]) : await fs.readFile(args[1])) : undefined);
const result = await runGolden(md, (name) => read(new URL(name, golden)), config.modules, config.constantModule);
const runtime = isDeno ? `deno ${Deno.version.deno}` : `node ${process.versions.node}`;
console.log(JSON.stringify({ runtime, resolved: import.meta.resolve("memdomain"), ...result }));
