// A test-only worker for workerd: the package, initialized from its .wasm
// imported as a module, runs the golden harness on the files the test POSTs
// ({ modules, constantModule, files: { name: text } }) and answers the result.
import wasm from "memdomain/memdomain.wasm";
import * as md from "memdomain";
import { runGolden } from "./harness.js";

md.initSync(wasm);

export default {
  async fetch(request) {
    if (request.method !== "POST") return new Response("POST the golden files", { status: 405 });
    const { modules, constantModule, files } = await request.json();
    try {
      const result = await runGolden(md, async (name) => files[name], modules, constantModule);
      return Response.json({ runtime: `workerd ${navigator.userAgent}`, ...result });
    } catch (e) {
      return Response.json({ error: String(e?.stack ?? e) }, { status: 500 });
    }
  },
};
