// Subagents as child sessions (ACP's subagents RFD), in process: the agent on a scripted
// fake Claude Code, a client of the unstable schema that declares `subagents`.
import { join } from "node:path";
import { methods, type SessionMessage } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { assistant, result, toolResult, toolUse } from "../../support/fake-claude.js";
import { subagentClient, type SeenEvent } from "../../support/subagent-client.js";
import {
  AGENT_CALL,
  LAUNCH,
  subagentRuns,
  taskNotification,
  sendMessageAgain,
  taskStarted,
} from "../../support/subagent-script.js";
import { settle } from "../../support/settle.js";

/** Each event as one line: whose session, what it is. */
function lines(events: SeenEvent[], parent: string): string[] {
  const who = (id: string) => (id === parent ? "parent" : "child");
  return events.map((event) => {
    if (event.kind === "permission") return `${who(event.request.sessionId)} permission`;
    const { sessionId, update } = event.notification;
    switch (update.sessionUpdate) {
      case "subagent_update": {
        const state = update.state as { state: string; stopReason?: string } | null | undefined;
        const shown = state
          ? [state.state, state.stopReason].filter(Boolean).join(" ")
          : "announce";
        return `${who(sessionId)} subagent_update ${shown}`;
      }
      case "session_message":
        return `${who(sessionId)} session_message from ${who(update.senderSessionId ?? "")}`;
      case "tool_call":
      case "tool_call_update":
        return `${who(sessionId)} ${update.sessionUpdate} ${update.toolCallId}`;
      default:
        return `${who(sessionId)} ${update.sessionUpdate}`;
    }
  });
}

/** The states reported for the child, in order. */
function states(events: SeenEvent[]): unknown[] {
  return events.flatMap((e) =>
    e.kind === "update" &&
    e.notification.update.sessionUpdate === "subagent_update" &&
    e.notification.update.state
      ? [e.notification.update.state]
      : [],
  );
}

function updates(events: SeenEvent[]) {
  return events.flatMap((e) => (e.kind === "update" ? [e.notification] : []));
}

describe("subagents as child sessions, for clients that declare subagents", () => {
  it("a foreground subagent is announced before its traffic, works in its own session, and goes running, requires_action, running, idle end_turn", async () => {
    const { events, query, sessionId, response } = await subagentRuns(false);
    query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    expect(await response).toMatchObject({ stopReason: "end_turn" });
    // Claude Code forwards the subagent's words, not only its tool calls.
    expect(query.options.forwardSubagentText).toBe(true);

    const seen = lines(events, sessionId);
    const firstChild = seen.findIndex((line) => line.startsWith("child"));
    expect(seen.slice(0, firstChild)).toContain("parent subagent_update announce");
    expect(seen.filter((line) => !line.startsWith("parent agent_message"))).toEqual(
      expect.arrayContaining([
        "child tool_call toolu_ls",
        "child permission",
        "child tool_call_update toolu_ls",
        "child agent_message_chunk",
      ]),
    );
    expect(seen).toContain(`parent tool_call ${AGENT_CALL}`);
    expect(seen.filter((l) => l.includes("toolu_ls") && l.startsWith("parent"))).toEqual([]);
    expect(states(events)).toEqual([
      { state: "running" },
      { state: "requires_action" },
      { state: "running" },
      { state: "idle", stopReason: "end_turn" },
    ]);
    // requires_action exactly while the permission request is open.
    const order = seen.filter(
      (l) => (l.includes("subagent_update") && !l.endsWith("announce")) || l.endsWith("permission"),
    );
    expect(order).toEqual([
      "parent subagent_update running",
      "parent subagent_update requires_action",
      "child permission",
      "parent subagent_update running",
      "parent subagent_update idle end_turn",
    ]);
  });

  it("the announcement carries the launch's title, role and cancel capability; the prompt and the answer are messages in both sessions, each naming the other", async () => {
    const { events, query, sessionId, response } = await subagentRuns(false);
    query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    await response;
    const all = updates(events);
    const announce = all.find((n) => n.update.sessionUpdate === "subagent_update")!;
    expect(announce).toMatchObject({
      sessionId,
      update: {
        title: "Look around",
        description: "Explore",
        capabilities: { cancel: {} },
      },
    });
    const child = (announce.update as { sessionId: string }).sessionId;
    expect(child).not.toBe(sessionId);

    const messages = all.filter((n) => n.update.sessionUpdate === "session_message");
    const view = (session: string, sender: string): SessionMessage | undefined => {
      for (const { sessionId: id, update } of messages) {
        if (id !== session || update.sessionUpdate !== "session_message") continue;
        if (update.senderSessionId === sender) return update;
      }
      return undefined;
    };
    const launchOut = view(sessionId, sessionId);
    const launchIn = view(child, sessionId);
    expect(launchOut).toMatchObject({
      recipientSessionId: child,
      content: [{ type: "text", text: LAUNCH.prompt }],
    });
    expect(launchIn).toMatchObject({ recipientSessionId: child, content: launchOut!.content });
    expect(launchOut).toMatchObject({ recipientMessageId: launchIn!.messageId });
    expect(launchIn).toMatchObject({ senderMessageId: launchOut!.messageId });

    const answerOut = view(child, child);
    const answerIn = view(sessionId, child);
    expect(answerOut).toMatchObject({
      recipientSessionId: sessionId,
      recipientMessageId: answerIn!.messageId,
      content: [{ type: "text", text: "There is a.txt." }],
    });
    expect(answerIn).toMatchObject({ senderMessageId: answerOut!.messageId });
  });

  it("a background subagent stays running after its launch returns and goes idle when its task completes", async () => {
    const { events, query, sessionId, response } = await subagentRuns(true);
    query.emit(assistant("msg-main", [{ type: "text", text: "Launched." }]), result());
    expect(await response).toMatchObject({ stopReason: "end_turn" });
    expect(states(events).at(-1)).toEqual({ state: "running" });

    query.emit(taskNotification("completed", "Agent finished"));
    await settle();
    expect(states(events)).toEqual([
      { state: "running" },
      { state: "requires_action" },
      { state: "running" },
      { state: "idle", stopReason: "end_turn" },
    ]);
    const answer = updates(events).find(
      (n) =>
        n.sessionId === sessionId &&
        n.update.sessionUpdate === "session_message" &&
        n.update.senderSessionId !== sessionId,
    );
    expect(answer?.update).toMatchObject({ content: [{ type: "text", text: "There is a.txt." }] });
  });

  it("session/cancel on a child stops its task only: the child goes idle cancelled and the parent's turn goes on", async () => {
    const { agent, events, query, response } = await subagentRuns(false);
    const announce = updates(events).find((n) => n.update.sessionUpdate === "subagent_update")!;
    const child = (announce.update as { sessionId: string }).sessionId;

    await agent.notify(methods.agent.session.cancel, { sessionId: child });
    await settle();
    expect(query.stoppedTasks).toEqual(["task-1"]);
    expect(query.interrupts).toBe(0);

    query.emit(
      taskNotification("stopped"),
      toolResult(AGENT_CALL, "Interrupted", { isError: true }),
      assistant("msg-main", [{ type: "text", text: "The agent was stopped." }]),
      result(),
    );
    expect(await response).toMatchObject({ stopReason: "end_turn" });
    expect(states(events).at(-1)).toEqual({ state: "idle", stopReason: "cancelled" });
  });

  it("SendMessage to an earlier subagent continues its child session: the new prompt from the parent, running, its traffic, its answer, idle end_turn", async () => {
    const { agent, events, query, sessionId, response } = await subagentRuns(false);
    query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    await response;
    const child = (
      updates(events).find((n) => n.update.sessionUpdate === "subagent_update")!.update as {
        sessionId: string;
      }
    ).sessionId;
    const before = events.length;

    await sendMessageAgain({ agent, query, sessionId });

    const later = events.slice(before);
    const announced = later.flatMap((e) =>
      e.kind === "update" && e.notification.update.sessionUpdate === "subagent_update"
        ? [(e.notification.update as { sessionId: string }).sessionId]
        : [],
    );
    expect(new Set(announced)).toEqual(new Set([child]));
    expect(lines(later, sessionId).filter((l) => !l.includes("toolu_send"))).toEqual(
      expect.arrayContaining([
        "parent session_message from parent",
        "child session_message from parent",
        "parent subagent_update running",
        "child agent_message_chunk",
        "child session_message from child",
        "parent session_message from child",
        "parent subagent_update idle end_turn",
      ]),
    );
    const prompt = updates(later).find(
      (n) => n.sessionId === child && n.update.sessionUpdate === "session_message",
    );
    expect(prompt?.update).toMatchObject({ content: [{ type: "text", text: "And b.txt?" }] });
    expect(states(later)).toEqual([
      { state: "running" },
      { state: "idle", stopReason: "end_turn" },
    ]);
  });

  it("session/cancel on an idle child stops nothing, and the child's next run does not end as cancelled", async () => {
    const { agent, events, query, response } = await subagentRuns(false);
    query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    await response;
    const child = (
      updates(events).find((n) => n.update.sessionUpdate === "subagent_update")!.update as {
        sessionId: string;
      }
    ).sessionId;
    await agent.notify(methods.agent.session.cancel, { sessionId: child });
    await settle();
    expect(query.stoppedTasks).toEqual([]);

    query.emit(
      taskStarted(true, "toolu_send", "Again"),
      taskNotification("completed", "Done again.", "toolu_send"),
    );
    await settle();
    expect(states(events).at(-1)).toEqual({ state: "idle", stopReason: "end_turn" });
  });

  it("a subagent in a worktree of its own has it as its child session's cwd before it does anything: in the announcement, or right after it when Claude Code names it later", async () => {
    for (const order of ["hook first", "announcement first"] as const) {
      const client = await subagentClient();
      const { agent, events, query, sessionId } = client;
      const worktree = join(query.options.cwd, ".claude", "worktrees", "agent-task-1");
      const response = agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Explore" }],
      });
      await query.waitForSent(1);
      query.emit(toolUse(AGENT_CALL, "Agent", { ...LAUNCH, isolation: "worktree" }));
      if (order === "hook first") await query.options.onSubagentStart!("task-1", worktree);
      query.emit(taskStarted(false));
      await settle();
      if (order === "announcement first") await query.options.onSubagentStart!("task-1", worktree);
      query.emit(toolUse("toolu_ls", "Bash", { command: "ls" }, AGENT_CALL));
      query.emit(toolResult(AGENT_CALL, "done"), result());
      await response;

      const all = updates(events);
      const located = all.findIndex(
        (n) => n.update.sessionUpdate === "subagent_update" && n.update.cwd === worktree,
      );
      // The subagent's own work (not the launch prompt the parent sent it).
      const work = all.findIndex(
        (n) => n.sessionId !== sessionId && n.update.sessionUpdate !== "session_message",
      );
      expect(located, order).toBeGreaterThanOrEqual(0);
      expect(located, order).toBeLessThan(work);
      const announce = all.find((n) => n.update.sessionUpdate === "subagent_update")!;
      expect(announce.update.sessionUpdate === "subagent_update" && announce.update.cwd).toBe(
        order === "hook first" ? worktree : undefined,
      );
    }
  });

  it("a subagent that works in the session's own directory gets no cwd", async () => {
    const { events, query, response } = await subagentRuns(false);
    await query.options.onSubagentStart!("task-1", query.options.cwd);
    query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    await response;
    expect(
      updates(events).filter((n) => n.update.sessionUpdate === "subagent_update" && n.update.cwd),
    ).toEqual([]);
  });

  it("a failed subagent goes idle with an error and its message", async () => {
    const { events, query, response } = await subagentRuns(true);
    query.emit(result());
    await response;
    query.emit(taskNotification("failed", "API error"));
    await settle();
    expect(states(events).at(-1)).toEqual({
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: "API error" },
    });
  });

  it("a client that does not declare subagents sees the subagent inline, as before: no child session", async () => {
    const { events, query, sessionId, agent } = await subagentClient({ subagents: false });
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Explore" }],
    });
    await query.waitForSent(1);
    query.emit(
      toolUse(AGENT_CALL, "Agent", LAUNCH),
      taskStarted(false),
      toolUse("toolu_ls", "Bash", { command: "ls" }, AGENT_CALL),
      toolResult("toolu_ls", "a.txt", { parent: AGENT_CALL }),
      toolResult(AGENT_CALL, "done"),
      result(),
    );
    await response;
    // Claude Code is not asked where subagents work, nor for their words.
    expect(query.options.onSubagentStart).toBeUndefined();
    expect(query.options.forwardSubagentText).toBeFalsy();
    const all = updates(events);
    expect(all.every((n) => n.sessionId === sessionId)).toBe(true);
    expect(
      all.filter((n) => ["subagent_update", "session_message"].includes(n.update.sessionUpdate)),
    ).toEqual([]);
    expect(
      all.find((n) => n.update.sessionUpdate === "tool_call" && n.update.toolCallId === "toolu_ls")
        ?.update._meta,
    ).toMatchObject({ claudeCode: { parentToolUseId: AGENT_CALL } });
  });
});
