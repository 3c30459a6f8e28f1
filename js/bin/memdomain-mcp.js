#!/usr/bin/env node
// memdomain-mcp: an MCP memory server on a memdomain/cache file, over stdio (docs/MCP.md).
//   memdomain-mcp [--db <file>] [--driver node:sqlite|better-sqlite3]
// The file defaults to $MEMDOMAIN_DB, else ./memdomain-memory.db (created when missing). It opens
// with node:sqlite on Node 22 and 24 and with better-sqlite3 on Node 20 (docs/CACHE.md, "Backends").
// stdout carries only JSON-RPC messages: everything else goes to stderr.
console.log = console.error; // a stray log line on stdout would break the protocol
console.info = console.error;

const USAGE = `usage: memdomain-mcp [--db <file>] [--driver node:sqlite|better-sqlite3]
  --db <file>   the memory database (default $MEMDOMAIN_DB, else ./memdomain-memory.db)
  --driver      how the file opens (default node:sqlite where Node has it, else better-sqlite3)
Serves the MCP tools remember, recall, reinforce, forget, restore, link, sleep, list, stats over stdio.`;

function parse(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf("=");
    const [name, inline] = a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (name === "-h" || name === "--help") return { help: true };
    if (name === "--db" || name === "--driver") {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${name} needs a value`);
      o[name.slice(2)] = v;
    } else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  return o;
}

let args;
try {
  args = parse(process.argv.slice(2));
} catch (e) {
  console.error(`memdomain-mcp: ${e.message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.error(USAGE);
  process.exit(0);
}
process.on("unhandledRejection", (e) => console.error(`memdomain-mcp: ${e?.stack ?? e}`));
try {
  const { serveStdio, DEFAULT_DB } = await import("../adapters/mcp.js");
  const db = args.db ?? process.env.MEMDOMAIN_DB ?? DEFAULT_DB;
  const { cache } = await serveStdio({ db, ...(args.driver ? { driver: args.driver } : {}) });
  console.error(`memdomain-mcp: serving ${db} (${cache.backend}, ${await cache.count({ live: true })} live memories) over stdio`);
} catch (e) {
  const missing = e?.code === "ERR_MODULE_NOT_FOUND" && /@modelcontextprotocol\/sdk|'zod/.test(e.message);
  console.error(`memdomain-mcp: ${missing ? `${e.message}\n  install the peers: npm install @modelcontextprotocol/sdk zod` : e?.stack ?? e}`);
  process.exit(1);
}
