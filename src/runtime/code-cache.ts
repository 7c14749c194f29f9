// A CommonJS script run through vm.Script with V8's code cache kept in a file: the next
// run reads the compiled code instead of compiling it again. Node 20 keeps no compiled
// code for ES modules between runs (node 22's compile cache does: compile-cache.ts).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { log } from "../logger.js";
import { readCacheFileSync } from "../util/cache-file.js";
import { writeWhole } from "../util/whole-file.js";

/** V8's code of the Claude SDK's bundle takes 1.6 MB: a file far larger is not one it wrote. */
export const CODE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Runs `file` as the body of a function of CommonJS's `module` and `exports` and of the
 * names in `scope` (`require` and any other); returns what it left in `module.exports`.
 * The cache in `cacheFile` is used where it is of this source and V8 accepts it (same V8,
 * same flags). Where there was none, or V8 refused it, it is written afresh once the
 * script has run, so that the functions its first run compiled are in it too.
 */
export function runWithCodeCache(
  file: string,
  cacheFile: string,
  scope: Record<string, unknown>,
): { exports: unknown; cacheUsed: boolean } {
  const bytes = readFileSync(file);
  // V8 checks a cache against its own version and flags, and a source by its length only:
  // the cache file starts with the source's digest.
  const digest = createHash("sha256").update(bytes).digest();
  // A hashbang is not JavaScript inside a function; the line stays, for the line numbers.
  const source = bytes.toString("utf8").replace(/^#!.*/, "");
  // None yet, or not a regular file within the limit (cache-file.ts): compiled as usual,
  // and the cache written below.
  const saved = readCacheFileSync(cacheFile, CODE_CACHE_MAX_BYTES);
  const cachedData =
    saved && saved.subarray(0, digest.length).equals(digest)
      ? saved.subarray(digest.length)
      : undefined;
  const module = { exports: {} };
  const names = Object.keys(scope);
  const script = new vm.Script(`(function (module, exports, ${names.join(", ")}) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const body = script.runInThisContext() as (...args: unknown[]) => void;
  body(module, module.exports, ...names.map((name) => scope[name]));
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  if (!cacheUsed) {
    // Off the caller's path: serializing takes a few tens of milliseconds.
    setImmediate(() => {
      writeWhole(cacheFile, Buffer.concat([digest, script.createCachedData()])).catch(
        (error: unknown) => log.debug(`could not save the compiled code of ${file}`, error),
      );
    });
  }
  return { exports: module.exports, cacheUsed };
}
