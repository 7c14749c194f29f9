import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/tests/**/*.test.ts"],
    // The installed package has its own run: `npm run test:package`.
    exclude: ["src/tests/package/**"],
    globalSetup: ["src/tests/support/temp-root.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end files each spawn real Claude Code processes; two cores in CI.
    pool: "forks",
    maxWorkers: 2,
    // Quiet agent logs in tests; a failing test prints its own evidence.
    env: { CLAUDE_AGENT_ACP_LOG: "error" },
  },
});
