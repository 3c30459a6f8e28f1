// A sleep pass holds no argument list as long as the cache: at 1M memories a spread of
// one statement per memory (`st.push(...rows)`) threw "Maximum call stack size exceeded"
// after an hour of neighbours. The same shape is caught here at 25k memories by running
// the pass in a child with a 120 KB stack (Node's default is ~984 KB: 25k arguments fit).
import { execFileSync } from "node:child_process";
import { ROOT } from "./golden/runner.js";

test("a sleep pass over 25k memories runs in a 120 KB stack", () => {
  const n = 25000;
  const out = execFileSync(process.execPath, ["--stack-size=120", `${ROOT}tests/js/cache-stack-child.mjs`, String(n)],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] });
  const r = JSON.parse(out);
  expect(r.memories).toBe(n);
  expect(r.edges).toBeGreaterThan(0);
}, 120_000);
