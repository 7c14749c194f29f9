// The watchdog in process: a running turn's silence is probed, an unanswered probe or
// interrupt ends the process and the session recovers; silence alone, or the time the
// client takes to answer a permission ask, is never a hang.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result, toolUse, toolResult } from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv, type PermissionHandler } from "../support/in-process.js";

const cwd = mkdtempSync(join(tmpdir(), "watchdog-test-"));
const HANG_MS = 100;
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function setup(onPermission?: PermissionHandler) {
  const claude = fakeClaude();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    env: isolatedEnv({ CLAUDE_AGENT_ACP_HANG_TIMEOUT_MS: String(HANG_MS) }),
    ...(onPermission ? { onPermission } : {}),
  });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const prompt = (text: string) =>
    harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  return { ...harness, claude, query: claude.started.at(-1)!, sessionId, prompt };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the watchdog", () => {
  it("ends a silent process that does not answer the status request, fails the prompt, and the next prompt resumes on a new process", async () => {
    const { claude, query, sessionId, prompt } = await setup();
    query.answersProbes = false;
    const failed = prompt("hello").catch((error: unknown) => error);

    const error = await failed;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toMatch(/Claude Code stopped responding/);
    expect(query.terminated).toBe(true);
    expect(query.sent).toHaveLength(1); // not sent again to a new process

    const restarted = claude.nextStart();
    const next = prompt("again");
    const second = await restarted;
    await second.waitForSent(1);
    second.emit(result());
    expect(await next).toMatchObject({ stopReason: "end_turn" });
    expect(second.options.resume).toBe(sessionId);
  });

  it("leaves a silent process that answers the status request alone", async () => {
    const { query, prompt } = await setup();
    const answer = prompt("think hard");
    await query.waitForSent(1);
    await sleep(HANG_MS * 5);
    expect(query.probes).toBeGreaterThan(0);
    expect(query.terminated).toBe(false);
    query.emit(result());
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("does not count the time the client takes to answer a permission ask", async () => {
    const { query, prompt } = await setup(async () => {
      await sleep(HANG_MS * 6);
      return { outcome: { outcome: "selected", optionId: "allow-once" } };
    });
    query.answersProbes = false;
    const answer = prompt("run it");
    await query.waitForSent(1);
    query.emit(toolUse("toolu_1", "Bash", { command: "npm test" }));
    const decision = await query.canUseTool(
      "Bash",
      { command: "npm test" },
      { toolUseID: "toolu_1" },
    );
    expect(decision).toMatchObject({ behavior: "allow" });
    expect(query.terminated).toBe(false);
    query.answersProbes = true;
    query.emit(toolResult("toolu_1", "ok"), result());
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("ends a process that does not answer an interrupt: the prompt ends cancelled and the next one runs on a new process", async () => {
    const { agent, claude, query, sessionId, prompt } = await setup();
    query.onInterrupt = () => undefined;
    query.interrupt = () => {
      query.interrupts++;
      return new Promise<void>(() => undefined);
    };
    const cancelled = prompt("long");
    await query.waitForSent(1);
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await cancelled).toMatchObject({ stopReason: "cancelled" });

    const restarted = claude.nextStart();
    const next = prompt("next");
    const second = await restarted;
    await second.waitForSent(1);
    second.emit(result());
    expect(await next).toMatchObject({ stopReason: "end_turn" });
    expect(query.terminated).toBe(true);
  });
});
