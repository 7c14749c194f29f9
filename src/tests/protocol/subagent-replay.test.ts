// Subagents of a saved conversation (ACP's subagents RFD), in process: session/load
// replays each subagent from its own transcript in its child session, and a later run
// (SendMessage) continues there, after load and after resume. Fake transcripts, fake
// Claude Code, a client of the unstable schema that declares `subagents`.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import type { ClaudeTranscriptMessage } from "../../claude/transcripts.js";
import { assistant, result, sdkMessage, toolResult, toolUse } from "../support/fake-claude.js";
import { fakeTranscripts, type FakeTranscripts } from "../support/fake-transcripts.js";
import { START_UPDATES } from "../support/in-process.js";
import { sessionCwd, subagentClient, type SeenEvent } from "../support/subagent-client.js";
import { settle } from "../support/settle.js";

const AGENT_CALL = "toolu_agent";
const AGENT_ID = "a1b2c3";
const LAUNCH = { description: "Look around", prompt: "List the files", subagent_type: "Explore" };
/** What Claude Code's launching call returns to the model: its report inside a frame. */
const HAND_BACK = [{ type: "text", text: "[Subagent hand-back]\n  There is a.txt." }];

/** A message of a saved transcript, written `at` seconds into the conversation. */
function saved(
  type: "user" | "assistant",
  message: Record<string, unknown>,
  at: number,
  thread: string | null = null,
): ClaudeTranscriptMessage {
  return {
    type,
    uuid: randomUUID(),
    session_id: "saved",
    message: type === "assistant" ? { id: `msg-${randomUUID()}`, ...message } : message,
    parent_tool_use_id: thread,
    parent_agent_id: null,
    timestamp: new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(),
  } as ClaudeTranscriptMessage;
}

const user = (content: unknown, at: number, thread: string | null = null) =>
  saved("user", { role: "user", content }, at, thread);
const said = (content: unknown[], at: number, thread: string | null = null) =>
  saved("assistant", { role: "assistant", content }, at, thread);
const call = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "tool_use",
  id,
  name,
  input,
});
const output = (id: string, content: unknown, isError = false) => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  is_error: isError,
});

/** Claude Code's notice of a task's end, as it writes it into the parent's transcript. */
function notification(status: string, result: string, at: number) {
  return user(
    `<task-notification>\n<task-id>${AGENT_ID}</task-id>\n<tool-use-id>x</tool-use-id>\n` +
      `<status>${status}</status>\n<summary>Agent finished</summary>\n<result>${result}</result>\n` +
      `</task-notification>`,
    at,
  );
}

/** A foreground subagent that ran `ls` and answered, as Claude Code saves it. */
function foreground(): { parent: ClaudeTranscriptMessage[]; child: ClaudeTranscriptMessage[] } {
  return {
    parent: [
      user([{ type: "text", text: "Explore" }], 1),
      said([call(AGENT_CALL, "Agent", LAUNCH)], 2),
      user([output(AGENT_CALL, HAND_BACK)], 7),
      said([{ type: "text", text: "MAIN-DONE" }], 8),
    ],
    child: [
      user(LAUNCH.prompt, 3, AGENT_CALL),
      said([call("toolu_ls", "Bash", { command: "ls" })], 4, AGENT_CALL),
      user([output("toolu_ls", "a.txt")], 5, AGENT_CALL),
      said([{ type: "text", text: "There is a.txt." }], 6, AGENT_CALL),
    ],
  };
}

/** A saved session in a fresh cwd, with one subagent. */
function savedSession(
  transcript: { parent: ClaudeTranscriptMessage[]; child: ClaudeTranscriptMessage[] },
  sessionId: string = randomUUID(),
  cwd = sessionCwd(),
  worktree?: string,
): { transcripts: FakeTranscripts; sessionId: string; cwd: string } {
  const transcripts = fakeTranscripts();
  transcripts.add({ sessionId, cwd }, transcript.parent);
  transcripts.addSubagent(sessionId, {
    agentId: AGENT_ID,
    messages: transcript.child,
    ...(worktree ? { worktree } : {}),
  });
  return { transcripts, sessionId, cwd };
}

function updates(events: SeenEvent[]) {
  return events.flatMap((e) => (e.kind === "update" ? [e.notification] : []));
}

function childOf(events: SeenEvent[]): string | undefined {
  const announce = updates(events).find((n) => n.update.sessionUpdate === "subagent_update");
  return (announce?.update as { sessionId?: string } | undefined)?.sessionId;
}

/** Each update as one line: whose session, what it is. */
function lines(events: SeenEvent[], parent: string): string[] {
  const who = (id: string) => (id === parent ? "parent" : "child");
  return updates(events).map(({ sessionId, update }) => {
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

/** The replayed updates, without what Claude Code's start announces (commands, models). */
function replayed(events: SeenEvent[], parent: string): string[] {
  return lines(events, parent).filter((l) => !START_UPDATES.has(l.split(" ")[1]!));
}

/** Claude Code resumes the earlier subagent: a run of its own, named by the SendMessage. */
function sendMessageRun(taskId: string) {
  return [
    toolUse("toolu_send", "SendMessage", { to: taskId, message: "And b.txt?" }),
    sdkMessage({
      type: "system",
      subtype: "task_started",
      task_id: taskId,
      tool_use_id: "toolu_send",
      description: LAUNCH.description,
      subagent_type: LAUNCH.subagent_type,
      task_type: "local_agent",
      prompt: "And b.txt?",
      is_backgrounded: true,
    }),
    toolResult("toolu_send", '{"success":true}'),
    assistant("msg-again", [{ type: "text", text: "No b.txt." }], {
      parent_tool_use_id: AGENT_CALL,
    }),
    sdkMessage({
      type: "system",
      subtype: "task_notification",
      task_id: taskId,
      tool_use_id: "toolu_send",
      status: "completed",
      output_file: "",
      summary: "No b.txt.",
    }),
    result(),
  ];
}

describe("session/load of a conversation with subagents, for clients that declare subagents", () => {
  it("replays a subagent in its child session under the id it had live: announced first, the launch prompt, running, its tool call, its answer in both sessions, idle end_turn", async () => {
    // Live: the session's subagent gets its child session.
    const live = await subagentClient();
    const response = live.agent.request(methods.agent.session.prompt, {
      sessionId: live.sessionId,
      prompt: [{ type: "text", text: "Explore" }],
    });
    await live.query.waitForSent(1);
    live.query.emit(
      toolUse(AGENT_CALL, "Agent", LAUNCH),
      sdkMessage({
        type: "system",
        subtype: "task_started",
        task_id: AGENT_ID,
        tool_use_id: AGENT_CALL,
        description: LAUNCH.description,
        task_type: "local_agent",
        prompt: LAUNCH.prompt,
        is_backgrounded: false,
      }),
      toolResult(AGENT_CALL, "There is a.txt."),
      result(),
    );
    await response;
    const liveChild = childOf(live.events)!;

    // Reopened in another agent: the saved transcripts of that session.
    const { transcripts, sessionId, cwd } = savedSession(foreground(), live.sessionId);
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    expect(childOf(events)).toBe(liveChild);
    expect(replayed(events, sessionId)).toEqual([
      "parent user_message_chunk",
      `parent tool_call ${AGENT_CALL}`,
      "parent subagent_update announce",
      "parent session_message from parent",
      "child session_message from parent",
      "parent subagent_update running",
      "child tool_call toolu_ls",
      "child tool_call_update toolu_ls",
      "child agent_message_chunk",
      "child session_message from child",
      "parent session_message from child",
      "parent subagent_update idle end_turn",
      `parent tool_call_update ${AGENT_CALL}`,
      "parent agent_message_chunk",
    ]);
    const all = updates(events);
    expect(all.find((n) => n.update.sessionUpdate === "subagent_update")?.update).toMatchObject({
      title: LAUNCH.description,
      description: LAUNCH.subagent_type,
      capabilities: { cancel: {} },
    });
    const messages = all.flatMap((n) =>
      n.update.sessionUpdate === "session_message" ? [{ in: n.sessionId, ...n.update }] : [],
    );
    const [launchOut, launchIn, answerOut, answerIn] = messages;
    expect(launchOut).toMatchObject({
      in: sessionId,
      recipientMessageId: launchIn!.messageId,
      content: [{ type: "text", text: LAUNCH.prompt }],
    });
    expect(launchIn).toMatchObject({ in: liveChild, senderMessageId: launchOut!.messageId });
    expect(answerOut).toMatchObject({
      in: liveChild,
      recipientMessageId: answerIn!.messageId,
      content: [{ type: "text", text: "There is a.txt." }],
    });
    expect(answerIn).toMatchObject({ in: sessionId, senderMessageId: answerOut!.messageId });
    // The subagent's prompt is the parent's message, not a user message of the child.
    expect(
      all.filter((n) => n.sessionId === liveChild).map((n) => n.update.sessionUpdate),
    ).not.toContain("user_message_chunk");
  });

  it("a background subagent's work interleaves with its parent's as it was written, and it goes idle at its task notification", async () => {
    const { child } = foreground();
    const background = {
      parent: [
        user([{ type: "text", text: "Explore" }], 1),
        said([call(AGENT_CALL, "Agent", { ...LAUNCH, run_in_background: true })], 2),
        user([output(AGENT_CALL, [{ type: "text", text: "Async agent launched." }])], 2.5),
        said([{ type: "text", text: "Launched." }], 3.5),
        notification("completed", "There is a.txt.", 9),
        said([{ type: "text", text: "MAIN-DONE" }], 10),
      ],
      child,
    };
    const { transcripts, sessionId, cwd } = savedSession(background);
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    const seen = replayed(events, sessionId).filter((l) => !l.includes("user_message_chunk"));
    expect(seen).toEqual([
      `parent tool_call ${AGENT_CALL}`,
      `parent tool_call_update ${AGENT_CALL}`,
      "parent subagent_update announce",
      "parent session_message from parent",
      "child session_message from parent",
      "parent subagent_update running",
      "parent agent_message_chunk",
      "child tool_call toolu_ls",
      "child tool_call_update toolu_ls",
      "child agent_message_chunk",
      "child session_message from child",
      "parent session_message from child",
      "parent subagent_update idle end_turn",
      "parent agent_message_chunk",
    ]);
  });

  it("a run that SendMessage started replays as a second run of the same child: the message sent as the parent's, running, its answer, idle", async () => {
    const { parent, child } = foreground();
    const resumed = {
      parent: [
        ...parent,
        user([{ type: "text", text: "And b.txt?" }], 10),
        said([call("toolu_send", "SendMessage", { to: AGENT_ID, message: "And b.txt?" })], 11),
        user([output("toolu_send", [{ type: "text", text: '{"success":true}' }])], 12.5),
        notification("completed", "No b.txt.", 14),
      ],
      child: [
        ...child,
        user("The coordinator sent a message while you were working:\nAnd b.txt?", 12, AGENT_CALL),
        said([{ type: "text", text: "No b.txt." }], 13, AGENT_CALL),
      ],
    };
    const { transcripts, sessionId, cwd } = savedSession(resumed);
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    const announced = updates(events).flatMap((n) =>
      n.update.sessionUpdate === "subagent_update" ? [n.update.sessionId] : [],
    );
    expect(new Set(announced).size).toBe(1);
    const seen = replayed(events, sessionId);
    const secondRun = seen
      .slice(seen.indexOf("parent subagent_update idle end_turn") + 1)
      .filter(
        (l) =>
          l.includes("subagent_update") || l.includes("session_message") || l.startsWith("child"),
      );
    expect(secondRun).toEqual([
      "parent session_message from parent",
      "child session_message from parent",
      "parent subagent_update running",
      "child agent_message_chunk",
      "child session_message from child",
      "parent session_message from child",
      "parent subagent_update idle end_turn",
    ]);
    const prompts = updates(events).filter(
      (n) => n.sessionId !== sessionId && n.update.sessionUpdate === "session_message",
    );
    expect(JSON.stringify(prompts.at(-2)?.update)).toContain('"And b.txt?"');
  });

  it("a subagent that worked in a worktree of its own is announced with it as its cwd", async () => {
    const cwd = sessionCwd();
    const worktree = join(cwd, ".claude", "worktrees", `agent-${AGENT_ID}`);
    const { transcripts, sessionId } = savedSession(foreground(), randomUUID(), cwd, worktree);
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    expect(
      updates(events).find((n) => n.update.sessionUpdate === "subagent_update")?.update,
    ).toMatchObject({
      cwd: worktree,
    });
  });

  it("a subagent that a subagent launched replays in its own child session, announced on its launcher's", async () => {
    const inner = "toolu_inner";
    const { parent, child } = foreground();
    const nested = {
      parent,
      child: [
        ...child.slice(0, 1),
        said(
          [call(inner, "Agent", { description: "Inner", prompt: "Look deeper" })],
          3.2,
          AGENT_CALL,
        ),
        user([output(inner, [{ type: "text", text: "Deep." }])], 3.8, AGENT_CALL),
        ...child.slice(1),
      ],
    };
    const { transcripts, sessionId, cwd } = savedSession(nested);
    transcripts.addSubagent(sessionId, {
      agentId: "inner-agent",
      messages: [
        user("Look deeper", 3.3, inner),
        said([{ type: "text", text: "Deep." }], 3.6, inner),
      ],
    });
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    const outer = childOf(events)!;
    const announcements = updates(events).flatMap((n) =>
      n.update.sessionUpdate === "subagent_update" && !n.update.state
        ? [`${n.sessionId} announces ${n.update.sessionId}`]
        : [],
    );
    expect(announcements).toEqual([
      `${sessionId} announces ${outer}`,
      `${outer} announces ${sessionId}/${inner}`,
    ]);
    const innerStates = updates(events).flatMap((n) =>
      n.update.sessionUpdate === "subagent_update" &&
      n.update.sessionId.endsWith(inner) &&
      n.update.state
        ? [n.update.state]
        : [],
    );
    expect(innerStates).toEqual([{ state: "running" }, { state: "idle", stopReason: "end_turn" }]);
  });

  it("a run the conversation leaves unfinished goes idle cancelled, never left running", async () => {
    const { parent, child } = foreground();
    const cut = { parent: parent.slice(0, 2), child: child.slice(0, 2) };
    const { transcripts, sessionId, cwd } = savedSession(cut);
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    const states = replayed(events, sessionId).filter((l) => l.includes("subagent_update"));
    expect(states).toEqual([
      "parent subagent_update announce",
      "parent subagent_update running",
      "parent subagent_update idle cancelled",
    ]);
  });

  it("after load, SendMessage to the earlier subagent continues in its replayed child session", async () => {
    const { transcripts, sessionId, cwd } = savedSession(foreground());
    const { agent, events, query } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    const child = childOf(events)!;
    const before = events.length;
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "And b.txt?" }],
    });
    await query.waitForSent(1);
    query.emit(...sendMessageRun(AGENT_ID));
    await response;
    await settle();
    const later = events.slice(before);
    expect(lines(later, sessionId).filter((l) => !l.includes("toolu_send"))).toEqual(
      expect.arrayContaining([
        "child session_message from parent",
        "parent subagent_update running",
        "child agent_message_chunk",
        "parent session_message from child",
        "parent subagent_update idle end_turn",
      ]),
    );
    expect(lines(later, sessionId)).not.toContain("parent subagent_update announce");
    const other = updates(later).filter((n) => n.sessionId !== sessionId && n.sessionId !== child);
    expect(other).toEqual([]);
  });
});

describe("session/resume of a conversation with subagents", () => {
  it("replays nothing; SendMessage to an earlier subagent continues in its child session (found in its saved transcript), announced before its traffic", async () => {
    const { transcripts, sessionId, cwd } = savedSession(foreground());
    const loaded = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    const earlierChild = childOf(loaded.events)!;

    const { agent, events, query } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "resume" },
    });
    expect(updates(events).filter((n) => !START_UPDATES.has(n.update.sessionUpdate))).toEqual([]);
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "And b.txt?" }],
    });
    await query.waitForSent(1);
    query.emit(...sendMessageRun(AGENT_ID));
    await response;
    await settle();
    expect(childOf(events)).toBe(earlierChild);
    const seen = lines(events, sessionId).filter(
      (l) => l.includes("subagent_update") || l.startsWith("child"),
    );
    expect(seen).toEqual([
      "parent subagent_update announce",
      "child session_message from parent",
      "parent subagent_update running",
      "child agent_message_chunk",
      "child session_message from child",
      "parent subagent_update idle end_turn",
    ]);
    expect(
      updates(events).find((n) => n.update.sessionUpdate === "subagent_update")?.update,
    ).toMatchObject({
      title: LAUNCH.description,
      description: LAUNCH.subagent_type,
    });
  });
});

describe("session/resume of a conversation with a subagent in a worktree", () => {
  it("announces the resumed subagent with its worktree as its cwd", async () => {
    const cwd = sessionCwd();
    const worktree = join(cwd, ".claude", "worktrees", `agent-${AGENT_ID}`);
    const { transcripts, sessionId } = savedSession(foreground(), randomUUID(), cwd, worktree);
    const { agent, events, query } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "resume" },
    });
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "And b.txt?" }],
    });
    await query.waitForSent(1);
    query.emit(...sendMessageRun(AGENT_ID));
    await response;
    expect(
      updates(events).find((n) => n.update.sessionUpdate === "subagent_update")?.update,
    ).toMatchObject({
      cwd: worktree,
    });
  });
});

describe("session/load of a conversation with subagents, for clients that do not declare subagents", () => {
  it("replays the parent's transcript only, the subagent's launch and result inline, as before", async () => {
    const { transcripts, sessionId, cwd } = savedSession(foreground());
    const { events } = await subagentClient({
      subagents: false,
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
    });
    expect(replayed(events, sessionId)).toEqual([
      "parent user_message_chunk",
      `parent tool_call ${AGENT_CALL}`,
      `parent tool_call_update ${AGENT_CALL}`,
      "parent agent_message_chunk",
    ]);
  });
});
