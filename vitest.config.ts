import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** Tests that must not run in a process other test files ran in first (`*.fresh.test.ts`). */
const FRESH = "src/tests/**/*.fresh.test.ts";
/** The in-process layers: many small files whose imports dominate their time. */
const IN_PROCESS = ["src/tests/unit/**/*.test.ts", "src/tests/protocol/**/*.test.ts"];

export default defineConfig({
  test: {
    // The installed package has its own run: `npm run test:package`.
    exclude: ["src/tests/package/**", "**/node_modules/**"],
    globalSetup: ["src/tests/support/temp-root.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for an event; on a machine the other workers load, one second (the
    // default) is not always enough for one to come.
    expect: { poll: { timeout: 10_000 } },
    // End-to-end files each spawn real Claude Code processes. Between their bursts of CPU a
    // worker waits on them and on the scripted API: one worker more than there are cores keeps
    // the cores busy (on CI's two, 1.80 cores in use on average with two workers, 1.95 with three).
    pool: "forks",
    maxWorkers: availableParallelism() + 1,
    // The default report, then the slowest files (a suite's time is spent there first).
    reporters: ["default", "./src/tests/support/slowest-files.ts"],
    // Quiet agent logs in tests; a failing test prints its own evidence.
    env: { CLAUDE_AGENT_ACP_LOG: "error" },
    projects: [
      {
        extends: true,
        // One worker process runs file after file, its imports loaded once: the unit and
        // protocol tests hold no state between files (a file that needs a process of its own,
        // because it mocks a module or watches what loads once, is named *.fresh.test.ts).
        test: { name: "in-process", include: IN_PROCESS, exclude: [FRESH], isolate: false },
      },
      { extends: true, test: { name: "fresh", include: [FRESH] } },
      {
        extends: true,
        test: {
          name: "processes",
          include: ["src/tests/**/*.test.ts"],
          exclude: [...IN_PROCESS, FRESH, "src/tests/package/**"],
          // A worker runs file after file with its imports loaded once (a fork and the
          // harness's imports per file cost about a second of CPU). What a file starts it also
          // stops: agents, APIs and temp dirs end with the file's own hooks.
          isolate: false,
        },
      },
    ],
  },
});
