// End-to-end: the processes of the built agent and of the real Claude Code behind it end
// when they should. Processes are found by the harness' env marker in /proc.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../../scripted-api/index.js";
import {
  poll,
  startE2E,
  stopAllE2E,
  timed,
  type E2E,
  type MarkedProcess,
} from "../../support/e2e/index.js";
import { requireBuiltAgent } from "../../support/e2e/paths.js";

afterEach(stopAllE2E);

const NEVER_ENDING_COMMAND: TurnSpec[] = [
  { content: [{ type: "tool_use", name: "Bash", input: { command: "tail -f /dev/null" } }] },
];

/** Has Claude run `tail -f /dev/null` (a command that never ends) and waits until it runs. */
async function startNeverEndingCommand(e2e: E2E): Promise<MarkedProcess[]> {
  const { sessionId } = await e2e.newSession();
  void e2e.prompt(sessionId, "Follow nothing.").catch(() => undefined);
  const running = await poll(async () => {
    const processes = await e2e.processes();
    return processes.some((p) => p.command.includes("tail -f")) ? processes : undefined;
  }, 15_000);
  if (!running) throw new Error(`the command never started\n${e2e.report()}`);
  return running;
}

describe("processes", () => {
  it("stop() leaves no process behind: agent, Claude Code and the command it runs", async () => {
    const e2e = await startE2E({
      scenario: NEVER_ENDING_COMMAND,
      permission: { answer: "select", optionId: "allow-once" },
    });
    const running = await startNeverEndingCommand(e2e);
    expect(running.map((p) => p.pid)).toContain(e2e.agent.pid);
    expect(running.some((p) => p.pid !== e2e.agent.pid && p.command.includes("claude"))).toBe(true);

    const report = await e2e.stop();

    expect(report.survivors).toEqual([]);
    expect(await e2e.processes()).toEqual([]);
  });

  it("exits on its own when the client closes stdin, and its Claude Code processes end with it", async () => {
    const e2e = await startE2E({
      scenario: NEVER_ENDING_COMMAND,
      permission: { answer: "select", optionId: "allow-once" },
    });
    await startNeverEndingCommand(e2e);

    e2e.closeStdin();
    const { value: exit, ms } = await timed(e2e.agent.exited);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(5_000);
    expect(await e2e.survivors(3_000)).toEqual([]);
  });
});

describe("the bin's heap", () => {
  const probe = fileURLToPath(
    new URL("../../fixtures/runtime/new-space-probe.mjs", import.meta.url),
  );
  const MB = 2 ** 20;

  /** The young generation's size at exit of `node [nodeArgs] dist/index.js --version`. */
  async function newSpaceSize(nodeArgs: string[]): Promise<number> {
    const { stderr } = await promisify(execFile)(process.execPath, [
      "--import",
      probe,
      ...nodeArgs,
      requireBuiltAgent(),
      "--version",
    ]);
    return Number(/new_space_size=(\d+)/.exec(stderr)?.[1]);
  }

  it("keeps V8's young generation at its starting size while the SDKs load", async () => {
    expect(await newSpaceSize([])).toBeLessThanOrEqual(2 * MB);
  });

  it("leaves a semispace size given on node's command line alone", async () => {
    expect(await newSpaceSize(["--max-semi-space-size=16"])).toBeGreaterThan(2 * MB);
  });
});
