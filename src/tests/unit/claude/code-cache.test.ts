// A CommonJS script run with V8's code cache: the first run writes the cache, the next
// reads it, and a cache V8 refuses (another V8, another source, a damaged file) is only
// a slower start, compiled as usual and written afresh. The Claude SDK's bundle, made by
// the build, loads this way with the module's exports.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSdkBundle } from "../../../claude/sdk-bundle.js";
import { runWithCodeCache } from "../../../runtime/code-cache.js";

function setup(source: string) {
  const dir = mkdtempSync(join(tmpdir(), "acp-code-cache-"));
  const file = join(dir, "script.cjs");
  writeFileSync(file, source);
  return { file, cache: join(dir, "cache", "script.bin") };
}

/** Where the cache is written: one turn of the event loop after the run, then a file write. */
const written = (cache: string) =>
  expect
    .poll(() => readFileSync(cache, { flag: "r" }).length, { timeout: 5_000 })
    .toBeGreaterThan(0);

const SCRIPT = `#!/usr/bin/env node
"use strict";
exports.sum = (a, b) => a + b;
module.exports.greeting = greeting;
exports.where = () => new Error("here").stack;
`;

describe("a script run with the code cache", () => {
  it("returns what it exported, and sees the names it is given", () => {
    const { file, cache } = setup(SCRIPT);
    const { exports } = runWithCodeCache(file, cache, { greeting: "hello" });
    const loaded = exports as { sum: (a: number, b: number) => number; greeting: string };
    expect(loaded.sum(2, 3)).toBe(5);
    expect(loaded.greeting).toBe("hello");
  });

  it("keeps the file's line numbers, a hashbang line included", () => {
    const { file, cache } = setup(SCRIPT);
    const { exports } = runWithCodeCache(file, cache, { greeting: "hello" });
    expect((exports as { where: () => string }).where()).toContain(`${file}:5:`);
  });

  it("writes the cache after its first run and reads it on the next", async () => {
    const { file, cache } = setup(SCRIPT);
    expect(runWithCodeCache(file, cache, { greeting: "" }).cacheUsed).toBe(false);
    await written(cache);
    expect(runWithCodeCache(file, cache, { greeting: "" }).cacheUsed).toBe(true);
  });

  it("a damaged cache, or one made for another source (even of the same length), is refused, and written afresh", async () => {
    const { file, cache } = setup(SCRIPT);
    runWithCodeCache(file, cache, { greeting: "" });
    await written(cache);
    writeFileSync(cache, "not a cache");
    const { exports, cacheUsed } = runWithCodeCache(file, cache, { greeting: "" });
    expect(cacheUsed).toBe(false);
    expect((exports as { sum: (a: number, b: number) => number }).sum(1, 1)).toBe(2);
    await expect.poll(() => readFileSync(cache, "utf8") !== "not a cache").toBe(true);
    expect(runWithCodeCache(file, cache, { greeting: "" }).cacheUsed).toBe(true);

    writeFileSync(file, SCRIPT.replace("a + b", "b + a"));
    expect(runWithCodeCache(file, cache, { greeting: "" }).cacheUsed).toBe(false);
  });
});

describe("the Claude SDK's bundle (made by the build)", () => {
  it("exports what the SDK's module exports", async () => {
    const cacheHome = mkdtempSync(join(tmpdir(), "acp-sdk-bundle-"));
    const bundled = loadSdkBundle({ XDG_CACHE_HOME: cacheHome });
    expect(bundled, "run `npm run build`: the bundle is in dist/").toBeDefined();
    const module = await import("@anthropic-ai/claude-agent-sdk");
    expect(Object.keys(bundled!).sort()).toEqual(Object.keys(module).sort());
    expect(typeof bundled!.query).toBe("function");
  });
});
