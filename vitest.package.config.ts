import { defineConfig } from "vitest/config";

// `npm run test:package`: the package as users install it (src/tests/package/). Apart from
// the main suite: it packs the build (made again only if stale) and installs it.
export default defineConfig({
  test: {
    include: ["src/tests/package/**/*.test.ts"],
    globalSetup: ["src/tests/support/temp-root.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    env: { CLAUDE_AGENT_ACP_LOG: "error" },
  },
});
