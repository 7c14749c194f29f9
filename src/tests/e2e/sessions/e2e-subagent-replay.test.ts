// End-to-end: the subagents of a saved conversation, for a client that declares
// `clientCapabilities.subagents`, with the real Claude Code and the scripted API. A session
// with a subagent is reopened in a fresh agent process (same HOME and config dir): load
// replays the subagent in its child session under the id it had live, and a SendMessage to
// that agent afterwards (after load or resume) continues in that child session.
import { methods } from "@agentclientprotocol/sdk";
import type { SessionNotification } from "@agentclientprotocol/sdk/unstable";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolResults, type RecordedRequest, type TurnSpec } from "../../../scripted-api/index.js";
import { poll, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { answered, reopenAgent } from "../../support/e2e-sessions/index.js";
import {
  childCwds,
  childrenOf,
  childStates,
  declaresSubagents,
  gitRepository,
  lastStateIsIdle,
  quietUnstableUpdates,
  sessionMessages,
  wireUpdates,
} from "../../support/e2e-subagents.js";
import { startE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
beforeEach(quietUnstableUpdates);

// Explicit tool ids: each agent process has a scripted API of its own, whose default ids
// would repeat the first one's.
const AGENT_CALL = "toolu_e2e_agent";
const SUB_BASH = "toolu_e2e_sub_bash";
const SEARCH = "toolu_e2e_search";
const SEND = "toolu_e2e_send";
const LAUNCH = {
  description: "Write the file",
  prompt: "Write sub.txt",
  subagent_type: "general-purpose",
};
const FOLLOW_UP = "CONTINUE-PLEASE-5c2";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use" as const, id, name, input }],
});

/**
 * "Delegate it.": the main loop launches a subagent (foreground, or as `launch` says), which
 * runs a command and answers SUB-ANSWER; the main loop says MAIN-DONE. "Continue it.": the
 * main loop loads SendMessage (a deferred tool) and sends the agent FOLLOW_UP, which it
 * answers with SUB-AGAIN; the main loop says MAIN-DONE-2.
 */
function script(launch: Record<string, unknown> = { run_in_background: false }): TurnSpec[] {
  const route = (request: RecordedRequest) => {
    const body = JSON.stringify(request.body);
    const done = new Set(toolResults(request).map((r) => r.tool_use_id));
    if (request.subagent) {
      if (body.includes(FOLLOW_UP)) return text("SUB-AGAIN-9e4");
      if (done.has(SUB_BASH)) {
        return {
          content: [
            { type: "thinking" as const, thinking: "The file is written." },
            { type: "text" as const, text: "SUB-ANSWER-4d1" },
          ],
        };
      }
      const command = use(SUB_BASH, "Bash", { command: "echo hi > sub.txt", description: "Write" });
      return { content: [{ type: "text" as const, text: "Writing it." }, ...command.content] };
    }
    if (body.includes("Continue it.")) {
      const agentId = /agentId: ([\w-]+)/.exec(body)?.[1];
      if (!done.has(SEARCH)) return use(SEARCH, "ToolSearch", { query: "select:SendMessage" });
      if (!done.has(SEND)) {
        return use(SEND, "SendMessage", { to: agentId, message: FOLLOW_UP, summary: "continue" });
      }
      return text("MAIN-DONE-2");
    }
    if (done.has(AGENT_CALL)) return text("MAIN-DONE");
    return use(AGENT_CALL, "Agent", { ...LAUNCH, ...launch });
  };
  return Array.from({ length: 20 }, () => route);
}

const ALLOW = { answer: "select", optionId: "allow-once" } as const;

/**
 * A child session's updates as lines: its words, thoughts, tool calls and their ends, and
 * its messages (a tool call's in-progress marks and refinements left out).
 */
function childView(updates: SessionNotification[], child: string): string[] {
  return updates.flatMap(({ sessionId, update }) => {
    if (sessionId !== child) return [];
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
        return [
          `${update.sessionUpdate} ${update.content.type === "text" ? update.content.text : ""}`,
        ];
      case "tool_call":
        return [`tool_call ${update.toolCallId}`];
      case "tool_call_update":
        return update.status === "completed" || update.status === "failed"
          ? [`tool_call_update ${update.toolCallId} ${update.status}`]
          : [];
      case "session_message":
        return [`session_message from ${update.senderSessionId}`];
      default:
        return [update.sessionUpdate];
    }
  });
}

/** A first agent runs the subagent live and quits; returns its session and live child id. */
async function liveSubagent(launch?: Record<string, unknown>, repository = false) {
  const first = await startE2E({ scenario: script(launch), permission: ALLOW, initialize: false });
  if (repository) gitRepository(first.cwd);
  await first.initialize(declaresSubagents);
  const { sessionId } = await first.newSession();
  expect(await first.prompt(sessionId, "Delegate it.")).toMatchObject({ stopReason: "end_turn" });
  await poll(() => lastStateIsIdle(first, sessionId), 20_000);
  const [child] = childrenOf(wireUpdates(first), sessionId);
  expect(child).toBeDefined();
  return { first, sessionId, child: child! };
}

async function reopen(first: E2E): Promise<E2E> {
  const second = await reopenAgent(first, {
    scenario: script(),
    permission: ALLOW,
    initialize: false,
  });
  await second.initialize(declaresSubagents);
  return second;
}

/** The follow-up turn: SendMessage resumes the earlier agent; waits until it is idle. */
async function continueIt(e2e: E2E, sessionId: string) {
  const from = e2e.transcript.entries.at(-1)?.seq ?? -1;
  expect(await e2e.prompt(sessionId, "Continue it.")).toMatchObject({ stopReason: "end_turn" });
  await poll(() => lastStateIsIdle(e2e, sessionId, from), 20_000);
  return wireUpdates(e2e, from);
}

describe("session/load of a conversation with a subagent, for a client that declares subagents", () => {
  it("a fresh agent replays the subagent in the child session it had live: announced first, its tool call under the child id, the linked launch prompt and answer, idle end_turn; a later SendMessage continues there", async () => {
    const { first, sessionId, child } = await liveSubagent();
    const second = await reopen(first);
    await second.client.request(methods.agent.session.load, {
      sessionId,
      cwd: first.cwd,
      mcpServers: [],
    });

    const load = answered(second, "session/load", sessionId);
    const replayed = wireUpdates(second).filter(
      (n) => n.entry.seq > load.request.seq && n.entry.seq < load.response.seq,
    );
    expect(childrenOf(replayed, sessionId)).toEqual([child]);
    const announce = replayed.findIndex((n) => n.update.sessionUpdate === "subagent_update");
    expect(announce).toBeLessThan(replayed.findIndex((n) => n.sessionId === child));
    expect(replayed[announce]?.update).toMatchObject({
      title: LAUNCH.description,
      description: LAUNCH.subagent_type,
    });
    const bash = replayed.find(
      (n) => n.update.sessionUpdate === "tool_call" && n.update.toolCallId === SUB_BASH,
    );
    expect(bash?.sessionId).toBe(child);
    expect(childStates(replayed, sessionId)).toEqual(["running", "idle end_turn"]);
    // The launch prompt and the answer, in both sessions, each naming the other's message.
    expect(sessionMessages(replayed, child)).toEqual([
      `from ${sessionId}: ${LAUNCH.prompt}`,
      `from ${child}: SUB-ANSWER-4d1`,
    ]);
    expect(sessionMessages(replayed, sessionId)).toEqual(sessionMessages(replayed, child));
    const views = replayed.flatMap((n) =>
      n.update.sessionUpdate === "session_message" ? [n.update] : [],
    );
    expect(views[0]?.recipientMessageId).toBe(views[1]?.messageId);
    expect(views[1]?.senderMessageId).toBe(views[0]?.messageId);
    // The subagent's prompt is not shown as a user message of either session.
    const userText = replayed
      .filter((n) => n.update.sessionUpdate === "user_message_chunk")
      .map((n) => JSON.stringify(n.update));
    expect(userText.join()).not.toContain(LAUNCH.prompt);

    // What the child session shows is what it showed live (but for the permission request).
    expect(childView(replayed, child)).toEqual(childView(wireUpdates(first), child));
    expect(childView(replayed, child)).toEqual(
      expect.arrayContaining([
        "agent_message_chunk Writing it.",
        "agent_thought_chunk The file is written.",
        "agent_message_chunk SUB-ANSWER-4d1",
      ]),
    );

    const after = await continueIt(second, sessionId);
    expect(childrenOf(after, sessionId)).toEqual([child]);
    expect(childStates(after, sessionId)).toEqual(["running", "idle end_turn"]);
    expect(sessionMessages(after, child)).toEqual([
      `from ${sessionId}: ${FOLLOW_UP}`,
      `from ${child}: SUB-AGAIN-9e4`,
    ]);
    const again = after.find((n) => JSON.stringify(n.update).includes("SUB-AGAIN-9e4"));
    expect(again?.sessionId).toBe(child);
  });

  it("a background subagent replays in its child session too and goes idle end_turn", async () => {
    const { first, sessionId, child } = await liveSubagent({ run_in_background: true });
    const second = await reopen(first);
    await second.client.request(methods.agent.session.load, {
      sessionId,
      cwd: first.cwd,
      mcpServers: [],
    });
    const load = answered(second, "session/load", sessionId);
    const replayed = wireUpdates(second).filter(
      (n) => n.entry.seq > load.request.seq && n.entry.seq < load.response.seq,
    );
    expect(childrenOf(replayed, sessionId)).toEqual([child]);
    expect(childStates(replayed, sessionId)).toEqual(["running", "idle end_turn"]);
    expect(sessionMessages(replayed, child).at(-1)).toBe(`from ${child}: SUB-ANSWER-4d1`);
  });
});

describe("SendMessage to an earlier subagent in the process that ran it", () => {
  it("continues in its child session: the message from the parent, running, its answer, idle end_turn, and no other child", async () => {
    const { first, sessionId, child } = await liveSubagent();
    const after = await continueIt(first, sessionId);
    expect(childrenOf(wireUpdates(first), sessionId)).toEqual([child]);
    expect(childStates(after, sessionId)).toEqual(["running", "idle end_turn"]);
    expect(sessionMessages(after, child)).toEqual([
      `from ${sessionId}: ${FOLLOW_UP}`,
      `from ${child}: SUB-AGAIN-9e4`,
    ]);
  });
});

describe("session/load of a conversation with a subagent in a worktree", () => {
  it("replays the child session with the worktree it had live as its cwd", async () => {
    const { first, sessionId, child } = await liveSubagent({ isolation: "worktree" }, true);
    const [liveCwd] = childCwds(wireUpdates(first), sessionId, child);
    expect(liveCwd).toBeDefined();
    const second = await reopen(first);
    await second.client.request(methods.agent.session.load, {
      sessionId,
      cwd: first.cwd,
      mcpServers: [],
    });
    const load = answered(second, "session/load", sessionId);
    const replayed = wireUpdates(second).filter(
      (n) => n.entry.seq > load.request.seq && n.entry.seq < load.response.seq,
    );
    const announce = replayed.find((n) => n.update.sessionUpdate === "subagent_update");
    expect(announce?.update).toMatchObject({ sessionId: child, cwd: liveCwd });
  });
});

describe("session/resume of a conversation with a subagent, for a client that declares subagents", () => {
  it("replays nothing, and a SendMessage to the earlier agent continues in its child session, announced before its traffic", async () => {
    const { first, sessionId, child } = await liveSubagent();
    const second = await reopen(first);
    const from = second.transcript.entries.at(-1)?.seq ?? -1;
    await second.client.request(methods.agent.session.resume, {
      sessionId,
      cwd: first.cwd,
      mcpServers: [],
    });
    expect(childrenOf(wireUpdates(second, from), sessionId)).toEqual([]);

    const after = await continueIt(second, sessionId);
    expect(childrenOf(after, sessionId)).toEqual([child]);
    const announce = after.findIndex((n) => n.update.sessionUpdate === "subagent_update");
    expect(announce).toBeLessThan(after.findIndex((n) => n.sessionId === child));
    expect(after[announce]?.update).toMatchObject({ title: LAUNCH.description });
    expect(childStates(after, sessionId)).toEqual(["running", "idle end_turn"]);
    expect(sessionMessages(after, child)).toEqual([
      `from ${sessionId}: ${FOLLOW_UP}`,
      `from ${child}: SUB-AGAIN-9e4`,
    ]);
  });
});
