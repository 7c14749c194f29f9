// End-to-end: subagents as child sessions (ACP's subagents RFD) with the real Claude Code
// and the scripted API, for a client that declares `clientCapabilities.subagents`. The
// harness's client speaks the stable schema, so the unstable updates are read off the wire.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolResults, type RecordedRequest, type TurnSpec } from "../../../scripted-api/index.js";
import { type E2E, poll, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  childCwds,
  childOf,
  childStates as statesOf,
  declaresSubagents,
  gitRepository,
  quietUnstableUpdates,
  wireUpdates,
} from "../../support/e2e-subagents.js";

afterEach(stopAllE2E);
shareAgents();
beforeEach(quietUnstableUpdates);

/** The states the parent reported for its child, in order. */
function childStates(e2e: E2E, parent: string): string[] {
  return statesOf(wireUpdates(e2e), parent);
}

/**
 * The main loop launches one subagent; the subagent asks to run a command, then answers
 * SUB-ANSWER; the main loop then says MAIN-DONE.
 */
function launchScript(agentInput: Record<string, unknown>): TurnSpec[] {
  const route = (request: RecordedRequest) => {
    if (request.subagent) {
      return toolResults(request).length
        ? { content: [{ type: "text" as const, text: "SUB-ANSWER-4d1" }] }
        : {
            content: [
              {
                type: "tool_use" as const,
                name: "Bash",
                input: { command: "echo hi > sub.txt", description: "Write a file" },
              },
            ],
          };
    }
    if (toolResults(request).length) {
      return { content: [{ type: "text" as const, text: "MAIN-DONE" }] };
    }
    return { content: [{ type: "tool_use" as const, name: "Agent", input: agentInput }] };
  };
  return Array.from({ length: 10 }, () => route);
}

const LAUNCH = {
  description: "Write the file",
  prompt: "Write sub.txt",
  subagent_type: "general-purpose",
};

describe("subagents as child sessions, with the real Claude Code", () => {
  it("a subagent is a child session: announced first, its tool call and permission request under its own id, running, requires_action, running, idle end_turn", async () => {
    const e2e = await startE2E({
      scenario: launchScript(LAUNCH),
      permission: { answer: "select", optionId: "allow-once" },
      initialize: false,
    });
    await e2e.initialize(declaresSubagents);
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Delegate it.")).toMatchObject({ stopReason: "end_turn" });
    await poll(
      () => Promise.resolve(childStates(e2e, sessionId).at(-1)?.startsWith("idle") || undefined),
      15_000,
    );

    const child = childOf(e2e, sessionId)!;
    expect(child).toBeDefined();
    const updates = wireUpdates(e2e);
    const firstChildTraffic = updates.findIndex((n) => n.sessionId === child);
    const announce = updates.findIndex((n) => n.update.sessionUpdate === "subagent_update");
    expect(announce).toBeLessThan(firstChildTraffic);
    expect(updates[announce]?.update).toMatchObject({ title: LAUNCH.description });

    const bash = updates.find(
      (n) => n.update.sessionUpdate === "tool_call" && n.update.title?.includes("echo hi") === true,
    );
    expect(bash?.sessionId).toBe(child);
    expect(e2e.permissions.records.map((r) => r.request.sessionId)).toEqual([child]);
    expect(childStates(e2e, sessionId)).toEqual([
      "running",
      "requires_action",
      "running",
      "idle end_turn",
    ]);
    // The answer is a message from the child in both sessions.
    const answers = updates.filter(
      (n) =>
        n.update.sessionUpdate === "session_message" &&
        n.update.senderSessionId === child &&
        JSON.stringify(n.update.content).includes("SUB-ANSWER-4d1"),
    );
    expect(answers.map((n) => n.sessionId).sort()).toEqual([child, sessionId].sort());
  });

  it("a background subagent is a child session that keeps running after the prompt's response and goes idle end_turn when done", async () => {
    const e2e = await startE2E({
      scenario: launchScript({ ...LAUNCH, run_in_background: true }),
      permission: { answer: "select", optionId: "allow-once" },
      initialize: false,
    });
    await e2e.initialize(declaresSubagents);
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Delegate it.")).toMatchObject({ stopReason: "end_turn" });
    await poll(
      () => Promise.resolve(childStates(e2e, sessionId).at(-1)?.startsWith("idle") || undefined),
      20_000,
    );
    const child = childOf(e2e, sessionId)!;
    expect(e2e.permissions.records.map((r) => r.request.sessionId)).toEqual([child]);
    expect(childStates(e2e, sessionId)).toEqual([
      "running",
      "requires_action",
      "running",
      "idle end_turn",
    ]);
  });

  it("a subagent launched with isolation: worktree has its git worktree as its child session's cwd before it does anything, also in a prewarmed Claude Code process", async () => {
    const e2e = await startE2E({
      scenario: launchScript({ ...LAUNCH, isolation: "worktree" }),
      permission: { answer: "select", optionId: "allow-once" },
      initialize: false,
      env: { CLAUDE_AGENT_ACP_PREWARM: "1" },
    });
    gitRepository(e2e.cwd);
    await e2e.initialize(declaresSubagents);
    await poll(
      () =>
        Promise.resolve(e2e.log().includes("prewarmed Claude Code process is ready") || undefined),
      20_000,
    );
    const { sessionId } = await e2e.newSession();
    expect(e2e.log()).toContain("the session claims the prewarmed process");
    expect(await e2e.prompt(sessionId, "Delegate it.")).toMatchObject({ stopReason: "end_turn" });
    await poll(
      () => Promise.resolve(childStates(e2e, sessionId).at(-1)?.startsWith("idle") || undefined),
      15_000,
    );
    const child = childOf(e2e, sessionId)!;
    const updates = wireUpdates(e2e);
    const [cwd] = childCwds(updates, sessionId, child);
    expect(cwd).toBeDefined();
    expect(cwd).not.toBe(e2e.cwd);
    // Claude Code's worktree of the repository, where the subagent's command ran.
    expect(existsSync(join(cwd!, "sub.txt"))).toBe(true);
    expect(existsSync(join(e2e.cwd, "sub.txt"))).toBe(false);
    const located = updates.findIndex(
      (n) => n.update.sessionUpdate === "subagent_update" && n.update.cwd === cwd,
    );
    const work = updates.findIndex(
      (n) => n.sessionId === child && n.update.sessionUpdate !== "session_message",
    );
    expect(located).toBeLessThan(work);
  });

  it("session/cancel on a child stops that subagent only: it goes idle cancelled and the parent's turn goes on to its end", async () => {
    const e2e = await startE2E({
      scenario: launchScript(LAUNCH),
      permission: { answer: "never" },
      initialize: false,
    });
    await e2e.initialize(declaresSubagents);
    const { sessionId } = await e2e.newSession();
    const prompt = e2e.prompt(sessionId, "Delegate it.");
    await e2e.permissions.waitForRequest(1);
    const child = childOf(e2e, sessionId)!;
    await e2e.cancel(child);
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    await poll(
      () => Promise.resolve(childStates(e2e, sessionId).at(-1)?.startsWith("idle") || undefined),
      15_000,
    );
    expect(childStates(e2e, sessionId).at(-1)).toBe("idle cancelled");
    expect(JSON.stringify(wireUpdates(e2e))).toContain("MAIN-DONE");
  });
});
