// The README's JavaScript example runs as written against the local package.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { ROOT } from "./golden/runner.js";

test("README JavaScript example runs and its comments hold", async () => {
  const pkg = pathToFileURL(`${ROOT}js/index.js`).href;
  const code = execFileSync("python3", [`${ROOT}tests/readme_snippet.py`, "js", `${ROOT}README.md`, pkg], { encoding: "utf8" });
  const dir = mkdtempSync(`${tmpdir()}/memdomain-readme-`);
  // Report the values the comments promise, then check them here.
  writeFileSync(`${dir}/example.mjs`, `${code}
console.log(JSON.stringify({
  top: rankFused(fused)[0],
  cos: cosine(new Float32Array([1, 0]), [0.5, 0.5]),
  none: rrfContribution(0, 1)._tag,
  decay: decayConfidenceN(0.9, 3),
}));`);
  const out = JSON.parse(execFileSync(process.execPath, [`${dir}/example.mjs`], { encoding: "utf8" }).trim().split("\n").pop());
  expect(out.top.path).toBe("notes/retry.html");
  expect(String(out.top.score).startsWith("0.02432")).toBe(true);
  expect(out.cos).toBe(0.7071067811865475);
  expect(out.none).toBe("None");
  expect(out.decay).toBe(0.7103);
});
