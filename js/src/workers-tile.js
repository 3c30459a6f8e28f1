// The tile worker: its own module instance (this glue, imported here) that
// computes neighborTile for the row ranges it is sent. Runs as a Node
// worker_threads Worker or a module Web Worker.
import { init, isInitialized } from "./core.js";
import { neighborTile } from "./neighbors.js";

async function serve(post, m) {
  try {
    if (!isInitialized()) await init(m.wasm);
    const tiles = m.ranges.map(([b, e]) => neighborTile(m.matrix, m.keys, b, e, m.options));
    const transfer = [];
    for (const t of tiles) transfer.push(t.sim.buffer, t.src.buffer, t.dst.buffer);
    post({ id: m.id, tiles }, transfer);
  } catch (e) {
    post({ id: m.id, error: { name: e?.name ?? "Error", message: String(e?.message ?? e) } }, []);
  }
}

if (typeof WorkerGlobalScope !== "undefined" && typeof self !== "undefined") {
  self.addEventListener("message", (e) => serve((msg, t) => self.postMessage(msg, t), e.data));
} else {
  const { parentPort } = await import("node:worker_threads");
  parentPort.on("message", (m) => serve((msg, t) => parentPort.postMessage(msg, t), m));
}
