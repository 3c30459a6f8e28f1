// A small static file server for the browser tests, on 127.0.0.1 only, on a
// port the OS picks. `mounts` maps URL prefixes to directories; `pages` maps
// exact paths to generated content ({ type, body }).
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".jsonl": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".map": "application/json",
};

export async function startStatic({ mounts = {}, pages = {} } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      if (req.method !== "GET") return send(res, 405, "text/plain", "method not allowed");
      if (pages[path]) return send(res, 200, pages[path].type, pages[path].body);
      // The longest mount prefix wins; never serve outside the mounted directory.
      const prefix = Object.keys(mounts).filter((p) => path.startsWith(p)).sort((a, b) => b.length - a.length)[0];
      if (prefix === undefined) return send(res, 404, "text/plain", "not found");
      const base = resolve(mounts[prefix]);
      const file = resolve(join(base, path.slice(prefix.length)));
      if (file !== base && !file.startsWith(base + sep)) return send(res, 403, "text/plain", "forbidden");
      if (!(await stat(file).catch(() => null))?.isFile()) return send(res, 404, "text/plain", "not found");
      send(res, 200, TYPES[extname(file)] ?? "application/octet-stream", await readFile(file));
    } catch (e) {
      send(res, 500, "text/plain", String(e));
    }
  });
  await new Promise((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}

function send(res, status, type, body) {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}
