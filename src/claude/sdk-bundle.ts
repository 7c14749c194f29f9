// The Claude SDK as one CommonJS script, written by the build from the installed SDK
// (scripts/bundle-bin.ts), so that it can load with V8's code cache (runtime/code-cache.ts).
// Compiling and first running the SDK's ES module blocked the agent ~300 ms on node 20,
// while Claude Code starts beside it on the same cores; with the cache about half that.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Sdk from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { runWithCodeCache } from "../runtime/code-cache.js";
import { agentCachePath } from "../util/whole-file.js";
import { PACKAGE_ROOT } from "../version.js";

export const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";

/** What the bundle's `import.meta.url` is renamed to: the installed SDK module's URL. */
export const SDK_MODULE_URL = "__claudeSdkModuleUrl";

/** The installed SDK: its module's path and its version (throws if it is not installed). */
export function installedSdk(): { entry: string; version: string } {
  const entry = createRequire(import.meta.url).resolve(SDK_PACKAGE);
  const { version } = JSON.parse(readFileSync(join(dirname(entry), "package.json"), "utf8")) as {
    version: string;
  };
  return { entry, version };
}

/** The bundle of one SDK version, in dist/: another version installed is not bundled. */
export function sdkBundleName(version: string): string {
  return `claude-sdk-${version}.cjs`;
}

/** Where V8's code of one SDK version's bundle is kept, for this node and CPU. */
export function sdkCodeCachePath(env: NodeJS.ProcessEnv, version: string): string {
  return agentCachePath(
    env,
    join("code", `claude-sdk-${version}-node-${process.version}-${process.arch}.bin`),
  );
}

/**
 * The SDK from its bundle, if the build made one for the installed version; otherwise
 * (or if it fails to load) undefined, and the caller imports the SDK's module.
 */
export function loadSdkBundle(env: NodeJS.ProcessEnv = process.env): typeof Sdk | undefined {
  try {
    const { entry, version } = installedSdk();
    const file = join(PACKAGE_ROOT, "dist", sdkBundleName(version));
    const cache = sdkCodeCachePath(env, version);
    const { exports, cacheUsed } = runWithCodeCache(file, cache, {
      require: createRequire(entry),
      __filename: entry,
      __dirname: dirname(entry),
      [SDK_MODULE_URL]: pathToFileURL(entry).href,
    });
    log.debug(
      `the Claude SDK loaded from its bundle, ${cacheUsed ? "" : "not "}from compiled code`,
    );
    return exports as typeof Sdk;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      log.debug("the Claude SDK's bundle did not load; importing its module", error);
    }
    return undefined;
  }
}
