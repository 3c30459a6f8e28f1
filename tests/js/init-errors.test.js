// Before init, every export says how to initialise; init() with a bad path
// names the file it could not load. Runs in a fresh module registry (Jest
// isolates each test file), so nothing has initialised the glue yet.
import * as md from "../../js/index.js";

test("calling before init says `await init()` (or initSync) first", () => {
  expect(() => md.cosine([1], [1])).toThrow(/call `await init\(\)` \(or initSync/);
  expect(() => md.rrfContribution(1, 1)).toThrow(/await init\(\)/);
  expect(() => md.fuseArms([], [])).toThrow(/await init\(\)/);
});

test("init with a path that does not exist names the file", async () => {
  await expect(md.init("bad/path/memdomain.wasm")).rejects.toThrow(/could not load .*bad\/path\/memdomain\.wasm/);
  await expect(md.init(new URL("file:///nonexistent/dir/x.wasm"))).rejects.toThrow(/\/nonexistent\/dir\/x\.wasm: ENOENT/);
});
