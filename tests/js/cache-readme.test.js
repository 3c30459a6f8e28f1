// The README's memdomain/cache example for Node runs as printed (with "memdomain/cache"
// pointed at js/cache/) and its comments hold. The browser and D1 examples run in
// tests/runtimes/cache.test.mjs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { ROOT } from "./golden/runner.js";
import { cacheReadmeBlocks } from "../runtimes/cache-readme.js";

test("README memdomain/cache Node example runs and its comments hold", () => {
  const blocks = cacheReadmeBlocks(`${ROOT}README.md`);
  expect(blocks.length).toBe(3);
  const code = blocks[0].replace(/from "memdomain\/cache"/g, `from "${pathToFileURL(`${ROOT}js/cache/index.js`).href}"`);
  expect(code).not.toMatch(/from "memdomain/);
  const dir = mkdtempSync(`${tmpdir()}/memdomain-cache-readme-`);
  try {
    writeFileSync(`${dir}/main.mjs`, `${code}\nconsole.log("@@" + JSON.stringify({ paths: hits.map((h) => h.path), lexical: hits[0].arms.lexical, bands: report.bands }));\n`);
    const out = execFileSync(process.execPath, [`${dir}/main.mjs`], { encoding: "utf8" });
    const got = JSON.parse(out.split("\n").find((l) => l.startsWith("@@")).slice(2));
    // the printed comments, read from the README itself
    const comment = (expr) => blocks[0].split("\n").find((l) => l.startsWith(`console.log(${expr})`)).split("// ")[1];
    expect(JSON.stringify(got.paths)).toBe(comment("hits.map((h) => h.path)").split(" (")[0].replace(/ /g, ""));
    expect(got.lexical).toEqual({ rank: 1, contribution: 1 / (1 + 60) });
    expect(comment("hits[0].arms.lexical")).toContain(String(1 / 61));
    expect(JSON.stringify(got.bands).replace(/"/g, "").replace(/:/g, ": ").replace(/,/g, ", ").replace("{", "{ ").replace("}", " }"))
      .toBe(comment("report.bands"));
    expect(got.bands.keep + got.bands.compress + got.bands.evict).toBe(3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
