// The agent behind the bin as one file: dist/main.js (tsc's output) and everything it
// imports, the ACP SDK and zod included, bundled over itself. Resolving and compiling ~300
// modules one by one was about half of the time the agent took to answer `initialize`.
// dist/index.js stays tsc's small file: it sets up the heap before it imports main.js,
// and compiling a bundle that holds it would already grow the young generation. The
// Claude Agent SDK stays outside: it is one file already, and loads only when a session
// starts it (src/claude/sdk-loader.ts). Modules keep their names; the source map leads
// to src/.
import { build } from "esbuild";

const entry = "dist/main.js";

await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["@anthropic-ai/claude-agent-sdk"],
  sourcemap: true,
  logLevel: "warning",
});
