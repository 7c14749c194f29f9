// The agent behind the bin as few files: dist/main.js (tsc's output) and everything it
// imports, the ACP SDK and zod included, bundled over itself. Resolving and compiling ~300
// modules one by one was about half of the time the agent took to answer `initialize`.
// What loads only on demand (the ACP v2 app and the SDK's router, src/protocols.ts) goes
// to chunks under dist/bin/, so a v1 client's start does not compile them.
// dist/index.js stays tsc's small file: it sets up the heap before it imports main.js,
// and compiling a bundle that holds it would already grow the young generation. The
// Claude Agent SDK stays outside: it loads only when a session starts it, from its own
// CommonJS copy written at the end (src/claude/sdk-loader.ts). Modules keep their names;
// the source maps lead to src/.
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { build, type Plugin } from "esbuild";
import { installedSdk, SDK_MODULE_URL, sdkBundleName } from "../src/claude/sdk-bundle.js";

const outdir = "dist";
const chunks = "bin";

/**
 * zod's error messages in its ~60 languages, a quarter of the bundle: zod speaks English
 * unless told otherwise (`z.config(z.locales.xx())`), which nothing here does. `z.locales`
 * keeps English alone.
 */
const englishOnly: Plugin = {
  name: "zod-english-only",
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: args.importer, namespace: "zod-locales" }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from "../locales/en.js";`,
      resolveDir: dirname(args.path),
    }));
  },
};

// Chunks are named by their content: the ones of an earlier build would stay behind.
await rm(`${outdir}/${chunks}`, { recursive: true, force: true });
await build({
  entryPoints: { main: `${outdir}/main.js` },
  outdir,
  chunkNames: `${chunks}/[name]-[hash]`,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // proper-lockfile is CommonJS that requires node's modules, which an ES bundle cannot:
  // it stays an import of the installed package (only trust/apply loads it). So does ws
  // (only serve loads it).
  external: ["@anthropic-ai/claude-agent-sdk", "proper-lockfile", "ws"],
  plugins: [englishOnly],
  sourcemap: true,
  logLevel: "warning",
});

// The Claude SDK once more, as one CommonJS script (src/claude/sdk-bundle.ts): node caches
// a script's compiled code, not an ES module's. Its own imports stay imports of the
// installed packages, and `import.meta.url` is the installed module's.
const sdk = installedSdk();
await build({
  entryPoints: [sdk.entry],
  outfile: `${outdir}/${sdkBundleName(sdk.version)}`,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "cjs",
  target: "node20",
  define: { "import.meta.url": SDK_MODULE_URL },
  banner: { js: '"use strict";' },
  logLevel: "warning",
});
