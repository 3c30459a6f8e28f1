# workerd config for the example worker: `node build.mjs && npx workerd serve config.capnp`
# (the test overrides the address with --socket-addr http=127.0.0.1:PORT).
using Workerd = import "/workerd/workerd.capnp";

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
