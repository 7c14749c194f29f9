// Imported by the bin before the agent loads: where node has a compile cache (22.1 and
// later), the agent's bundle and the Claude Agent SDK are compiled once and then read from
// it (node's own cache directory, NODE_COMPILE_CACHE to move it). Compiling those two files
// is the largest part of the agent's start-up CPU. Node 20 has no such cache: nothing
// happens there.
import module from "node:module";

const withCache = module as typeof module & { enableCompileCache?: () => unknown };
try {
  withCache.enableCompileCache?.();
} catch {
  // No cache (a read-only or missing cache directory): compile as usual.
}
