#!/usr/bin/env node
// The demo's static server: no dependencies, binds 127.0.0.1 only.
//   node web-demo/serve.mjs [--port N] [--host 127.0.0.1]
// Serves web-demo/ at /, and the repository's js/ and build/ at /js/ and /build/.
// Prints "serving http://127.0.0.1:N/" once listening (the Chromium test waits for it).
import { createServer } from "node:http";
import { createReadStream, promises as fs } from "node:fs";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");

const MOUNTS = [
  ["/js/", join(ROOT, "js")],
  ["/build/", join(ROOT, "build")],
  ["/", HERE],
];

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".wasm": "application/wasm",
  ".f32": "application/octet-stream",
  ".bin": "application/octet-stream",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".d.ts": "text/plain; charset=utf-8",
};

function parseArgs(argv) {
  const opts = { port: 8080, host: "127.0.0.1" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const eq = a.indexOf("=");
      if (eq >= 0) return a.slice(eq + 1);
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--port" || a.startsWith("--port=")) opts.port = Number(val());
    else if (a === "--host" || a.startsWith("--host=")) opts.host = val();
    else if (a === "--help" || a === "-h") {
      console.log("usage: node web-demo/serve.mjs [--port N] [--host 127.0.0.1]");
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error(`bad --port ${opts.port}`);
  return opts;
}

/** Map a URL path to a file under one of the mounts, or null (never escapes a mount). */
function locate(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (p.includes("\0")) return null;
  for (const [prefix, dir] of MOUNTS) {
    if (!p.startsWith(prefix)) continue;
    const rel = p.slice(prefix.length);
    const file = resolve(dir, "." + sep + rel);
    if (file !== dir && !file.startsWith(dir + sep)) return null;
    return file;
  }
  return null;
}

function mimeOf(file) {
  if (file.endsWith(".d.ts")) return MIME[".d.ts"];
  return MIME[extname(file).toLowerCase()] ?? "application/octet-stream";
}

function send(res, status, text) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(text);
}

export function createDemoServer() {
  return createServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      return send(res, 405, "method not allowed\n");
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let file = locate(url.pathname);
    if (!file) return send(res, 403, "forbidden\n");
    try {
      let st = await fs.stat(file);
      if (st.isDirectory()) {
        file = join(file, "index.html");
        st = await fs.stat(file);
      }
      res.writeHead(200, {
        "content-type": mimeOf(file),
        "content-length": st.size,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      });
      if (req.method === "HEAD") return res.end();
      createReadStream(file).on("error", () => res.destroy()).pipe(res);
    } catch {
      send(res, 404, `not found: ${url.pathname}\n`);
    }
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`serve.mjs: ${e.message}`);
    process.exit(2);
  }
  const server = createDemoServer();
  server.on("error", (e) => {
    console.error(`serve.mjs: ${e.message}`);
    process.exit(1);
  });
  server.listen(opts.port, opts.host, () => {
    const { port } = server.address();
    console.log(`serving http://${opts.host}:${port}/ (web-demo/, js/, build/); Ctrl-C stops`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
