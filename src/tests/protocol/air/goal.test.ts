// AIR's goal extension (issue 52): advertised to AIR in initialize; `_session/goal` sets or clears
// Claude Code's own goal (its `/goal` command), joining a running turn or running as a turn of its
// own, and AIR hears the goal in a session_info_update, first as asked, then as Claude Code
// reports it (its iterations, its clearing). Any other client gets none of it.
import {
  methods,
  type InitializeRequest,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { initializeResponse } from "../../../acp/capabilities.js";
import { AIR, ZED } from "../../support/client-handshakes.js";
import { result, sdkMessage } from "../../support/fake-claude.js";
import { handshakeSession } from "../../support/handshake-session.js";

async function connect(handshake: InitializeRequest = AIR) {
  const session = await handshakeSession(handshake);
  const { agent, sessionId } = session;
  const goal = (params: Record<string, unknown>) =>
    agent.request<Record<string, never>>("_session/goal", { sessionId, ...params });
  return { ...session, goal };
}

/** The goals AIR was told, in order. */
const goals = (updates: SessionNotification[]) =>
  updates.flatMap((n) => {
    const air = (n.update._meta as { jetbrains?: { air?: Record<string, unknown> } } | undefined)
      ?.jetbrains?.air;
    return air && "goal" in air ? [air.goal] : [];
  });

const textOf = (message: { message: { content: unknown } }) =>
  JSON.stringify(message.message.content);

/** Claude Code's report of its goal. */
const activeGoal = (value: Record<string, unknown> | null) =>
  sdkMessage({ type: "active_goal", value });

describe("AIR's goal extension", () => {
  it("is advertised to AIR with its method and actions, and to no other client", () => {
    expect(initializeResponse(AIR)._meta).toMatchObject({
      jetbrains: {
        air: { goal: { version: 1, controlMethod: "_session/goal", actions: ["set", "clear"] } },
      },
    });
    expect(JSON.stringify(initializeResponse(ZED))).not.toContain("goal");
  });

  it("on an idle session, `set` runs Claude Code's /goal as a turn of its own, answered when it ends; AIR hears the goal at once", async () => {
    const { query, updates, goal } = await connect();
    let answered = false;
    const set = goal({ action: "set", objective: "  All tests pass  " }).then((answer) => {
      answered = true;
      return answer;
    });
    const sent = await query.waitForSent(1);
    expect(textOf(sent)).toContain("/goal All tests pass");
    expect(goals(updates)).toEqual([
      { objective: "All tests pass", status: "active", controlMethod: "_session/goal" },
    ]);
    expect(answered).toBe(false);
    query.emit(result());
    await expect(set).resolves.toEqual({});
  });

  it("during a turn, the command joins it and the request is answered at once; `clear` sends /goal clear", async () => {
    const { agent, sessionId, query, updates, goal } = await connect();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Work." }],
    });
    await query.waitForSent(1);
    await expect(goal({ action: "clear" })).resolves.toEqual({});
    const joined = await query.waitForSent(2);
    expect(textOf(joined)).toContain("/goal clear");
    expect(goals(updates)).toEqual([null]);
    query.emit(result());
    await prompt;
  });

  it("Claude Code's own reports of its goal reach AIR: iterations and the last reason (cleaned), then null once met", async () => {
    const { query, updates, agent, sessionId } = await connect();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/goal it builds" }],
    });
    await query.waitForSent(1);
    query.emit(
      activeGoal({
        condition: "it builds",
        iterations: 2,
        set_at: 1_710_000_000_123,
        tokens_at_start: 5,
        last_reason: "Still\u001b[31m failing",
      }),
      activeGoal(null),
      result(),
    );
    await prompt;
    expect(goals(updates)).toEqual([
      {
        objective: "it builds",
        status: "active",
        iterations: 2,
        lastReason: "Still failing",
        createdAt: 1_710_000_000_123,
        controlMethod: "_session/goal",
      },
      null,
    ]);
  });

  it("a request of the wrong shape is invalid params, an unknown session not found, and the agent goes on serving", async () => {
    const { goal, agent } = await connect();
    for (const params of [
      { action: "set" },
      { action: "set", objective: "   " },
      { action: "pause" },
      { action: "set", objective: 7 },
    ]) {
      await expect(goal(params)).rejects.toMatchObject({ code: -32602 });
    }
    await expect(
      agent.request("_session/goal", { sessionId: "nope", action: "clear" }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it("Zed: the method is not found, and Claude Code's goal reports send no AIR key", async () => {
    const { goal, query, agent, sessionId, updates } = await connect(ZED);
    await expect(goal({ action: "clear" })).rejects.toMatchObject({ code: -32601 });
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/goal it builds" }],
    });
    await query.waitForSent(1);
    query.emit(activeGoal(null), result());
    await prompt;
    expect(JSON.stringify(updates)).not.toContain("jetbrains");
  });
});
