// The ACP v2 draft in process, continued: the session lifecycle (list, resume with and
// without replay, close, delete, fork), auth, elicitation, subagents, and what the protocol
// router does with the first initialize.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { describe, expect, it, onTestFinished } from "vitest";
import { closableStream } from "../../acp/stdio-transport.js";
import type { ClaudeTranscriptMessage } from "../../claude/transcripts.js";
import { agentConnector, type ProtocolPin } from "../../protocols.js";
import {
  assistant,
  fakeClaude,
  result,
  sdkMessage,
  toolResult,
  toolUse,
} from "../support/fake-claude.js";
import { FakeTranscripts, savedMessage } from "../support/fake-transcripts.js";
import { isolatedEnv, START_UPDATES } from "../support/in-process.js";
import { streamPair, v2Connection, v2Session, rpcError } from "../support/in-process-v2.js";
import { settle } from "../support/settle.js";
import { LIBRARY_QUESTION } from "../support/questions.js";

const SAVED = "11111111-1111-4111-8111-111111111111";

const saved = (type: "user" | "assistant", message: unknown) => savedMessage(SAVED, type, message);

const CONVERSATION: ClaudeTranscriptMessage[] = [
  saved("user", { role: "user", content: [{ type: "text", text: "run the tests" }] }),
  saved("assistant", {
    id: "msg_a",
    role: "assistant",
    content: [
      { type: "text", text: "Running npm test." },
      { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/x/a.txt" } },
    ],
  }),
  saved("user", {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "hi", is_error: false }],
  }),
];

/** A v2 client whose agent has one saved conversation, SAVED, in `cwd`. */
async function withSaved() {
  const cwd = mkdtempSync(join(tmpdir(), "acp-v2-saved-"));
  const transcripts = new FakeTranscripts();
  transcripts.add({ sessionId: SAVED, cwd, summary: "run the tests", lastModified: 1_000 }, [
    ...CONVERSATION,
  ]);
  const harness = v2Connection({ transcripts });
  await harness.agent.request(v2.methods.agent.initialize, {
    protocolVersion: 2,
    info: { name: "v2-test-client", version: "0.0.0" },
  });
  return { ...harness, cwd, transcripts };
}

describe("session/list and session/resume", () => {
  it("lists the saved sessions of a cwd", async () => {
    const { agent, cwd } = await withSaved();
    const { sessions } = await agent.request(v2.methods.agent.session.list, { cwd });
    expect(sessions).toEqual([
      expect.objectContaining({ sessionId: SAVED, cwd, title: "run the tests" }),
    ]);
  });

  it("session/set_title saves the title as Claude Code's /rename does, and the listing shows it", async () => {
    const { agent, cwd, transcripts } = await withSaved();
    const answer = await agent.request(v2.methods.agent.session.setTitle, {
      sessionId: SAVED,
      title: " Renamed\nin v2 ",
    });
    expect(answer).toEqual({ title: "Renamed in v2" });
    expect(transcripts.sessions.get(SAVED)!.info.customTitle).toBe("Renamed in v2");
    const { sessions } = await agent.request(v2.methods.agent.session.list, { cwd });
    expect(sessions).toEqual([
      expect.objectContaining({ sessionId: SAVED, title: "Renamed in v2" }),
    ]);
  });

  it("session/archive hides the session from the default listing and closes it; unarchive brings it back", async () => {
    const { agent, cwd, transcripts, claude } = await withSaved();
    await agent.request(v2.methods.agent.session.resume, { sessionId: SAVED, cwd });
    await agent.request(v2.methods.agent.session.archive, { sessionId: SAVED });
    expect(claude.started.at(-1)!.closed).toBe(true);
    expect(transcripts.sessions.get(SAVED)!.info.archived).toBe(true);
    const listed = (archived?: string) =>
      agent.request(v2.methods.agent.session.list, { cwd, ...(archived ? { archived } : {}) });
    expect((await listed()).sessions).toEqual([]);
    expect((await listed("only")).sessions).toEqual([
      expect.objectContaining({ sessionId: SAVED, archived: true }),
    ]);
    await agent.request(v2.methods.agent.session.unarchive, { sessionId: SAVED });
    expect((await listed()).sessions).toEqual([
      expect.objectContaining({ sessionId: SAVED, archived: false }),
    ]);
  });

  it("session/status: saved for a session on disk, open once resumed, without opening anything itself; auth/status answers too", async () => {
    const { agent, cwd, claude } = await withSaved();
    const status = () => agent.request(v2.methods.agent.session.status, { sessionId: SAVED });
    expect(await status()).toEqual({ status: "saved" });
    expect(claude.started).toHaveLength(0);
    await agent.request(v2.methods.agent.session.resume, { sessionId: SAVED, cwd });
    // With the state resume reported before its answer.
    expect(await status()).toEqual({ status: "open", state: { state: "idle" } });
    expect(await agent.request(v2.methods.agent.auth.status, {})).toEqual({
      state: "unauthenticated",
      accounts: [],
    });
  });

  it("resume without replayFrom replays nothing and reports the current state, idle, before it answers", async () => {
    const { agent, cwd, events, claude } = await withSaved();
    const answer = await agent.request(v2.methods.agent.session.resume, {
      sessionId: SAVED,
      cwd,
    });
    expect(answer.configOptions?.map((o) => o.configId)).toEqual(["mode", "model", "thinking"]);
    const seen = events.flatMap((e) => (e.kind === "update" ? [e.notification.update] : []));
    expect(seen.filter((u) => !START_UPDATES.has(u.sessionUpdate))).toEqual([
      { sessionUpdate: "state_update", state: "idle" },
    ]);
    expect(claude.started.at(-1)!.options.resume).toBe(SAVED);
  });

  it("resume from the start replays the conversation as v2 updates, then the idle state, then answers", async () => {
    const { agent, cwd, updates } = await withSaved();
    await agent.request(v2.methods.agent.session.resume, {
      sessionId: SAVED,
      cwd,
      replayFrom: { type: "start" },
    });
    const replayedUpdates = updates(SAVED).filter((u) => !START_UPDATES.has(u.sessionUpdate));
    expect(replayedUpdates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "tool_call_update",
      "tool_call_update",
      "state_update",
    ]);
    const [user, agentText, call, done] = replayedUpdates;
    expect(user).toMatchObject({
      messageId: expect.any(String) as unknown,
      content: { type: "text", text: "run the tests" },
    });
    expect(agentText).toMatchObject({ messageId: "msg_a" });
    expect(call).toMatchObject({ toolCallId: "toolu_1", name: "Read", status: "pending" });
    expect(done).toMatchObject({ toolCallId: "toolu_1", status: "completed" });
  });

  it("a replay cursor other than the start is refused with -32602, and nothing is opened", async () => {
    const { agent, cwd, claude } = await withSaved();
    const error = await agent
      .request(v2.methods.agent.session.resume, {
        sessionId: SAVED,
        cwd,
        replayFrom: { type: "_from_message", messageId: "m" },
      })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32602);
    expect(claude.started).toEqual([]);
  });

  it("an MCP server of a transport v2 does not have is refused with -32602", async () => {
    const { agent, cwd } = await withSaved();
    const error = await agent
      .request(v2.methods.agent.session.new, {
        cwd,
        mcpServers: [{ type: "_websocket", name: "w" } as unknown as v2.McpServer],
      })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32602);
  });
});

describe("session/close, session/delete, session/fork", () => {
  it("closing a session whose turn runs reports idle cancelled before the answer, and nothing about the session after it", async () => {
    const session = await v2Session();
    const { agent, prompt, query, sessionId, updates, until } = session;
    await Promise.all([prompt("work"), query.waitForSent(1)]);
    let closedAt = -1;
    await agent.request(v2.methods.agent.session.close, { sessionId }).then(() => {
      closedAt = updates(sessionId).length;
    });
    const after = updates(sessionId);
    expect(after.at(closedAt - 1)).toEqual({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "cancelled",
    });
    query.emit(assistant("msg_late", [{ type: "text", text: "late" }]), result());
    await settle();
    await until(() => true);
    expect(updates(sessionId)).toHaveLength(closedAt);
    expect(query.closed).toBe(true);
  });

  it("delete removes the saved conversation; fork opens a copy under a new id", async () => {
    const { agent, cwd, transcripts } = await withSaved();
    const fork = await agent.request(v2.methods.agent.session.fork, { sessionId: SAVED, cwd });
    expect(fork.sessionId).not.toBe(SAVED);
    expect(fork.configOptions?.map((o) => o.configId)).toEqual(["mode", "model", "thinking"]);
    expect(transcripts.sessions.has(fork.sessionId)).toBe(true);
    await agent.request(v2.methods.agent.session.delete, { sessionId: SAVED });
    expect(transcripts.sessions.has(SAVED)).toBe(false);
  });
});

/** A stand-in for the claude binary: logs its arguments, answers `auth status`. */
function standIn(loggedIn: boolean): { executable: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "acp-v2-standin-"));
  const log = join(dir, "calls.log");
  const executable = join(dir, "claude");
  writeFileSync(
    executable,
    `#!/bin/sh\necho "$@" >> "${log}"\nif [ "$1 $2" = "auth status" ]; then echo '{"loggedIn": ${loggedIn}, "authMethod": "none"}'; fi\nexit 0\n`,
  );
  chmodSync(executable, 0o755);
  return { executable, log };
}

describe("auth on v2", () => {
  it("auth/login with an offered method checks Claude Code's login (auth required until it is), auth/logout runs its logout", async () => {
    const out = standIn(false);
    const loggedOut = await v2Session({
      capabilities: { auth: { terminal: {} } },
      executable: out.executable,
    });
    const error = await loggedOut.agent
      .request(v2.methods.agent.auth.login, { methodId: "claude-login" })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32000);
    const into = standIn(true);
    const loggedIn = await v2Session({
      capabilities: { auth: { terminal: {} } },
      executable: into.executable,
    });
    expect(
      await loggedIn.agent.request(v2.methods.agent.auth.login, { methodId: "claude-login" }),
    ).toEqual({});
    expect(await loggedIn.agent.request(v2.methods.agent.auth.logout, {})).toEqual({});
    expect(readFileSync(into.log, "utf8")).toContain("auth logout");
  });

  it("auth/login with a method this agent does not offer is refused with -32602", async () => {
    const { agent } = await v2Session({ capabilities: { auth: { terminal: {} } } });
    const error = await agent
      .request(v2.methods.agent.auth.login, { methodId: "nope" })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32602);
  });
});

describe("elicitation on v2", () => {
  const QUESTIONS = LIBRARY_QUESTION;

  it("AskUserQuestion is a form elicitation of the session and tool call; the turn requires action until it is answered", async () => {
    const { prompt, query, sessionId, events, states } = await v2Session({
      capabilities: { elicitation: { form: {} } },
      onElicitation: () => ({ action: "accept", content: { question_0: "luxon" } }),
    });
    expect(query.options.disallowedTools ?? []).not.toContain("AskUserQuestion");
    await Promise.all([prompt("ask"), query.waitForSent(1)]);
    const decision = await query.canUseTool("AskUserQuestion", QUESTIONS, {
      toolUseID: "toolu_q",
    });
    expect(decision).toMatchObject({
      behavior: "allow",
      updatedInput: { answers: { "Which library?": "luxon" } },
    });
    const asked = events.flatMap((e) => (e.kind === "elicitation" ? [e.request] : []));
    expect(asked).toEqual([
      expect.objectContaining({
        mode: "form",
        sessionId,
        toolCallId: "toolu_q",
        message: "Which library?",
      }),
    ]);
    expect(states(sessionId).map((s) => s.state)).toEqual([
      "running",
      "requires_action",
      "running",
    ]);
  });

  it("without form elicitation, AskUserQuestion is disabled as on v1", async () => {
    const { query } = await v2Session();
    expect(query.options.disallowedTools).toContain("AskUserQuestion");
  });
});

describe("subagents on v2: child sessions without a capability", () => {
  it("a subagent is announced on its parent, works in its own session with its own state_update mirrored from the parent's subagent_update", async () => {
    const { prompt, query, sessionId, events, idle } = await v2Session();
    await Promise.all([prompt("explore"), query.waitForSent(1)]);
    query.emit(
      toolUse("toolu_agent", "Agent", {
        description: "Look around",
        prompt: "List the files",
        subagent_type: "Explore",
      }),
      sdkMessage({
        type: "system",
        subtype: "task_started",
        task_id: "task-1",
        tool_use_id: "toolu_agent",
        description: "Look around",
        task_type: "local_agent",
        prompt: "List the files",
      }),
      assistant("msg_child", [{ type: "text", text: "There is a.txt." }], {
        parent_tool_use_id: "toolu_agent",
      }),
      toolResult("toolu_agent", "There is a.txt."),
      result(),
    );
    await idle(sessionId);
    const notifications = events.flatMap((e) => (e.kind === "update" ? [e.notification] : []));
    const announce = notifications.find((n) => n.update.sessionUpdate === "subagent_update");
    expect(announce).toMatchObject({
      sessionId,
      update: { title: "Look around", description: "Explore" },
    });
    const child = (announce!.update as { sessionId: string }).sessionId;
    const childUpdates = notifications.filter((n) => n.sessionId === child).map((n) => n.update);
    expect(notifications.findIndex((n) => n.sessionId === child)).toBeGreaterThan(
      notifications.indexOf(announce!),
    );
    expect(childUpdates).toContainEqual(
      expect.objectContaining({ sessionUpdate: "agent_message_chunk", messageId: "msg_child" }),
    );
    const childStates = childUpdates.flatMap((u) =>
      u.sessionUpdate === "state_update" ? [u.state] : [],
    );
    expect(childStates).toEqual(["running", "idle"]);
  });
});

describe("compaction on v2", () => {
  it("/compact is a compaction_update, in progress then completed, with no capability to declare", async () => {
    const { prompt, query, sessionId, updates, idle } = await v2Session();
    await Promise.all([prompt("/compact"), query.waitForSent(1)]);
    query.emit(
      sdkMessage({ type: "system", subtype: "status", status: "compacting" }),
      sdkMessage({ type: "system", subtype: "status", status: null, compact_result: "success" }),
      sdkMessage({
        type: "system",
        subtype: "compact_boundary",
        compact_metadata: { trigger: "manual", pre_tokens: 12_159, post_tokens: 2_536 },
      }),
      result({ modelUsage: { m: { contextWindow: 200_000 } } }),
    );
    await idle(sessionId);
    const compaction = updates(sessionId).filter((u) => u.sessionUpdate === "compaction_update");
    expect(compaction.map((u) => (u as { status: string }).status)).toEqual([
      "in_progress",
      "completed",
    ]);
  });
});

describe("notices on v2", () => {
  it("a notice is a notice update, with no capability to declare", async () => {
    const { query, sessionId, updates, until } = await v2Session();
    query.emit(
      sdkMessage({
        type: "system",
        subtype: "informational",
        level: "warning",
        content: "Fast mode is off",
      }),
    );
    await until(() => updates(sessionId).some((u) => u.sessionUpdate === "notice"));
    expect(updates(sessionId).find((u) => u.sessionUpdate === "notice")).toMatchObject({
      severity: "warning",
      title: "Fast mode is off",
    });
  });
});

/** The agent as the bin serves it, spoken to in raw JSON-RPC messages. */
function rawConnection(pin?: ProtocolPin) {
  const claude = fakeClaude();
  const [agentStream, clientSide] = streamPair();
  const agentSide = closableStream(agentStream);
  const served = agentConnector(
    {
      startQuery: claude.startQuery,
      transcripts: new FakeTranscripts(),
      resolveExecutable: () => "/fake/claude",
      env: isolatedEnv(),
    },
    pin,
  ).connect(agentSide.stream);
  const writer = clientSide.writable.getWriter();
  const reader = clientSide.readable.getReader();
  onTestFinished(async () => {
    agentSide.close();
    await served.closed;
  });
  let id = 0;
  /** Sends a request; resolves with the next message from the agent (its answer). */
  const request = async (method: string, params: unknown): Promise<AnyMessage> => {
    await writer.write({ jsonrpc: "2.0", id: ++id, method, params });
    const { value } = await reader.read();
    return value!;
  };
  /** Sends a notification: nothing answers it. */
  const notify = (method: string, params: unknown) =>
    writer.write({ jsonrpc: "2.0", method, params });
  return { request, notify };
}

const INFO = { name: "raw", version: "0" };

describe("the protocol router and the version pin", () => {
  it("a v1 initialize gets the v1 app exactly as before: protocol version 1, v1's capabilities", async () => {
    const { request } = rawConnection();
    const answer = await request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    expect(answer).toMatchObject({
      result: {
        protocolVersion: 1,
        agentCapabilities: { loadSession: true },
        agentInfo: { name: "claude-agent-acp" },
      },
    });
  });

  it("version 3 gets the highest version at or below it: v2", async () => {
    const { request } = rawConnection();
    const answer = await request("initialize", { protocolVersion: 3, info: INFO });
    expect(answer).toMatchObject({
      result: { protocolVersion: 2, info: { name: "claude-agent-acp" } },
    });
  });

  it("a malformed initialize, or a request before it, gets an error and leaves the connection usable", async () => {
    const { request } = rawConnection();
    expect(await request("initialize", { protocolVersion: "two" })).toMatchObject({
      error: { code: -32602 },
    });
    expect(await request("session/list", {})).toMatchObject({ error: { code: -32600 } });
    expect(await request("initialize", { protocolVersion: 2, info: INFO })).toMatchObject({
      result: { protocolVersion: 2 },
    });
  });

  it("a version below 1 gets v1, the version the agent supports closest to it (ACP: answer with a supported version)", async () => {
    const { request } = rawConnection();
    const answer = await request("initialize", { protocolVersion: 0, clientCapabilities: {} });
    expect(answer).toMatchObject({ result: { protocolVersion: 1, agentCapabilities: {} } });
  });

  it("notifications before the first request do not decide the route: a v2 initialize after them gets v2", async () => {
    const { request, notify } = rawConnection();
    await notify("session/cancel", { sessionId: "none" });
    const answer = await request("initialize", { protocolVersion: 2, info: INFO });
    expect(answer).toMatchObject({ result: { protocolVersion: 2 } });
  });

  it("pinned to 2, a v1 initialize is refused with -32022 naming version 2, and a v2 one may follow", async () => {
    const { request } = rawConnection(2);
    expect(
      await request("initialize", { protocolVersion: 1, clientCapabilities: {} }),
    ).toMatchObject({
      error: { code: -32022, data: { requested: 1, supported: [2] } },
    });
    expect(await request("initialize", { protocolVersion: 2, info: INFO })).toMatchObject({
      result: { protocolVersion: 2 },
    });
  });

  it("pinned to 1, a client asking for version 2 gets v1", async () => {
    const { request } = rawConnection(1);
    const answer = await request("initialize", {
      protocolVersion: 2,
      clientCapabilities: {},
    });
    expect(answer).toMatchObject({ result: { protocolVersion: 1 } });
  });
});
