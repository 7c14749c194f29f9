import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { unreadAnswer } from "../../acp/oversized.js";
import { CLIENT_FAILED, TOOL_USE_ABORTED, UNKNOWN_OPTION } from "../../permissions/messages.js";
import { CANCEL_GRACE_MS } from "../../session/turns/turn-queue.js";
import {
  fakeClaude,
  result,
  sdkMessage,
  streamedText,
  toolResult,
  toolUse,
} from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv, type PermissionHandler } from "../support/in-process.js";
import { settle } from "../support/settle.js";

const cwd = mkdtempSync(join(tmpdir(), "acp-agent-test-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function setup(options: Partial<Parameters<typeof connectInProcess>[0]> = {}) {
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery, ...options });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  return { ...harness, claude, query, sessionId };
}

function rpcError(error: unknown): { code: number; message: string } {
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

describe("initialize", () => {
  it("echoes protocol version 1 and reports agentInfo", async () => {
    const claude = fakeClaude();
    const harness = await connectInProcess({ startQuery: claude.startQuery });
    cleanup.push(() => harness.close());
    const response = await harness.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(response.protocolVersion).toBe(1);
    expect(response.agentInfo?.name).toBe("claude-agent-acp");
    // Only what works: every capability here is exercised by a test.
    expect(response.agentCapabilities).toEqual({
      loadSession: true,
      // _session/cancel_tool_call: e2e-tool-call-cancel.test.ts.
      _meta: { claudeCode: { promptQueueing: true }, cancelToolCall: { supported: true } },
      // auth/status and session/status: auth-and-session-status.test.ts, e2e-auth-status.test.ts.
      auth: { logout: {}, status: {} },
      // providers/list, set and disable: providers.test.ts, e2e-providers.test.ts.
      providers: {},
      // session/rewind and session/edit_prompt: session-rewind.test.ts, e2e-rewind.test.ts.
      rewindSession: { supported: true, supportsEditPrompt: true },
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: {
        list: {},
        delete: {},
        resume: {},
        close: {},
        additionalDirectories: {},
        fork: {},
        systemPrompt: { mode: { override: {} } },
        title: {},
        archive: {},
        workspaceTrust: {},
        status: {},
      },
    });
  });

  it("answers an unsupported protocol version with its latest version", async () => {
    const claude = fakeClaude();
    const harness = await connectInProcess({ startQuery: claude.startQuery });
    cleanup.push(() => harness.close());
    const response = await harness.agent.request(methods.agent.initialize, {
      protocolVersion: 99,
      clientCapabilities: {},
    });
    expect(response.protocolVersion).toBe(1);
  });
});

describe("session/new", () => {
  it("rejects a relative cwd with invalid params", async () => {
    const { agent } = await setup();
    const error = await agent
      .request(methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32602);
  });

  it("rejects a cwd that is not an existing directory with invalid params", async () => {
    const { agent } = await setup();
    const error = await agent
      .request(methods.agent.session.new, { cwd: join(cwd, "missing"), mcpServers: [] })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32602);
  });

  it("starts one private Claude query per session, in the session's cwd", async () => {
    const { claude, sessionId } = await setup();
    expect(claude.started).toHaveLength(1);
    expect(claude.started[0]!.options.cwd).toBe(cwd);
    expect(claude.started[0]!.options.sessionId).toBe(sessionId);
  });
});

describe("session/prompt", () => {
  it("streams text as agent_message_chunk and ends with end_turn", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    const sent = await query.waitForSent(1);
    expect(sent.message.content).toEqual([{ type: "text", text: "hello" }]);
    // A person's input, as Claude Code's features that gate on a human prompt expect it.
    expect(sent.origin).toEqual({ kind: "human" });
    query.emit(...streamedText("msg_1", "Hel"));
    await settle();
    query.emit(...streamedText("msg_1", "lo"), result());
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    const chunks = updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(chunks).toEqual([
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "Hel" },
        messageId: "msg_1",
      },
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "lo" },
        messageId: "msg_1",
      },
    ]);
  });

  it("sends deltas that reach it together as one chunk, before the prompt's response", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    await query.waitForSent(1);
    query.emit(...streamedText("msg_1", "Hel", "lo", ", world"), result());
    const texts = prompt.then(() =>
      updates.flatMap((n) =>
        n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text"
          ? [n.update.content.text]
          : [],
      ),
    );
    expect(await texts).toEqual(["Hello, world"]);
  });

  it("cleans Claude's text of escape sequences and control characters before the client shows it", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    query.emit(...streamedText("msg_1", "\u001b[31mred\u001b[0m text\u202e\u0007 ok\n"), result());
    await prompt;
    const texts = updates
      .map((n) => n.update)
      .flatMap((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
          ? [u.content.text]
          : [],
      );
    expect(texts).toEqual(["red text ok\n"]);
  });

  it.each([
    [
      "a refusal Claude Code reports as an error ends with stopReason refusal",
      [result({ isError: true, stopReason: "refusal", text: "flagged" })],
      "refusal",
    ],
    [
      "an exhausted output limit (max_output_tokens) ends with stopReason max_tokens",
      [
        sdkMessage({
          type: "assistant",
          message: { id: "x", model: "<synthetic>", content: [{ type: "text", text: "too long" }] },
          parent_tool_use_id: null,
          error: "max_output_tokens",
        }),
        result({ isError: true, stopReason: "max_tokens", text: "exceeded" }),
      ],
      "max_tokens",
    ],
    [
      "a result with stop_reason max_tokens ends with max_tokens",
      [result({ stopReason: "max_tokens" })],
      "max_tokens",
    ],
    [
      "error_max_turns ends with max_turn_requests",
      [result({ subtype: "error_max_turns", stopReason: null })],
      "max_turn_requests",
    ],
  ] as const)("%s", async (_rule, messages, stopReason) => {
    const { agent, query, sessionId } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    query.emit(...messages);
    expect(await prompt).toMatchObject({ stopReason });
  });

  it("sends media first, then each embedded resource as its own block, then the typed text and file mentions as the last block (Claude Code reads @-mentions only there)", async () => {
    const { agent, query, sessionId } = await setup();
    void agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: "text", text: "look at" },
        { type: "resource_link", uri: "file:///home/user/a%20b.txt", name: "a b.txt" },
        { type: "image", data: "iVBOR", mimeType: "image/png" },
        { type: "text", text: " please" },
        { type: "resource", resource: { uri: "file:///x.md", text: "# X" } },
      ],
    });
    const sent = await query.waitForSent(1);
    expect(sent.message.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
      { type: "text", text: '<context ref="file:///x.md">\n# X\n</context>' },
      { type: "text", text: 'look at @"/home/user/a b.txt" please' },
    ]);
  });

  it("answers a prompt for an unknown session with resource not found", async () => {
    const { agent } = await setup();
    const error = await agent
      .request(methods.agent.session.prompt, {
        sessionId: "nope",
        prompt: [{ type: "text", text: "x" }],
      })
      .catch((e: unknown) => e);
    expect(rpcError(error).code).toBe(-32002);
  });

  it("queues a prompt sent while a turn runs and answers both in order", async () => {
    const { agent, query, sessionId } = await setup();
    const order: string[] = [];
    const first = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "one" }] })
      .then(() => order.push("one"));
    const second = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] })
      .then(() => order.push("two"));
    await query.waitForSent(1);
    // The second prompt is not sent to Claude while the first runs.
    await new Promise((r) => setTimeout(r, 20));
    expect(query.sent).toHaveLength(1);
    query.emit(result());
    await query.waitForSent(2);
    expect(query.sent[1]!.message.content).toEqual([{ type: "text", text: "two" }]);
    query.emit(result());
    await Promise.all([first, second]);
    expect(order).toEqual(["one", "two"]);
  });

  it("ends with an error carrying the message when the process dies, and the next prompt resumes", async () => {
    const { agent, claude, query, sessionId } = await setup();
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "x" }] })
      .catch((e: unknown) => e);
    await query.waitForSent(1);
    // Claude Code had started on the turn when it died.
    query.emit(...streamedText("msg_1", "Working"));
    await new Promise((r) => setTimeout(r, 20));
    query.end(new Error("Claude Code process exited with code 137"));
    const error = rpcError(await prompt);
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("exited");

    const restarted = claude.nextStart();
    const next = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    const second = await restarted;
    expect(second.options.resume).toBe(sessionId);
    await second.waitForSent(1);
    second.emit(result());
    expect(await next).toMatchObject({ stopReason: "end_turn" });
  });
});

describe("a process that dies before it saw the prompt", () => {
  it("is resumed and the prompt is sent again, instead of failing the turn", async () => {
    const { agent, claude, query, sessionId } = await setup();
    const restarted = claude.nextStart();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    await query.waitForSent(1);
    // It ended without a word for this turn (e.g. an idle process that was just closing).
    query.end();
    const second = await restarted;
    expect(second.options.resume).toBe(sessionId);
    const resent = await second.waitForSent(1);
    expect(resent.message.content).toEqual([{ type: "text", text: "hello" }]);
    second.emit(result());
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
  });
});

describe("session/cancel", () => {
  it("interrupts Claude and answers the prompt cancelled", async () => {
    const { agent, query, sessionId } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(query.interrupts).toBe(1);
  });

  it("answers cancelled within the grace time even if Claude never stops", async () => {
    const { agent, query, sessionId } = await setup();
    query.onInterrupt = () => undefined;
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    const started = Date.now();
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(Date.now() - started).toBeLessThan(CANCEL_GRACE_MS + 500);
  });
});

describe("permissions", () => {
  it("announces the tool call before asking, then allows once", async () => {
    const { agent, query, sessionId, events } = await setup({
      onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow-once" } }),
    });
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    const decision = await query.canUseTool(
      "Bash",
      { command: "npm test" },
      { toolUseID: "toolu_1" },
    );
    expect(decision).toMatchObject({ behavior: "allow", updatedInput: { command: "npm test" } });
    const kinds = events.map((e) =>
      e.kind === "update" ? e.update.update.sessionUpdate : "request_permission",
    );
    expect(kinds.indexOf("tool_call")).toBeLessThan(kinds.indexOf("request_permission"));
    query.emit(
      toolUse("toolu_1", "Bash", { command: "npm test" }),
      toolResult("toolu_1", "ok"),
      result(),
    );
    await prompt;
  });

  it("a cancelled outcome aborts the tool use", async () => {
    const { query, sessionId, agent } = await setup({
      onPermission: () => ({ outcome: { outcome: "cancelled" } }),
    });
    void agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_2" });
    expect(decision).toMatchObject({ behavior: "deny", message: TOOL_USE_ABORTED });
  });

  /** A session with a prompt running, and a way to ask as Claude Code does. */
  async function asking(onPermission: PermissionHandler, extra = {}) {
    const harness = await setup({ onPermission, ...extra });
    void harness.agent.request(methods.agent.session.prompt, {
      sessionId: harness.sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await harness.query.waitForSent(1);
    return harness;
  }

  it("lifecycle 1: an ask whose signal is already aborted stops at once, asking no one", async () => {
    const { query, permissionRequests } = await asking(() => ({
      outcome: { outcome: "selected", optionId: "allow-once" },
    }));
    const controller = new AbortController();
    controller.abort();
    const decision = await query.canUseTool(
      "Bash",
      { command: "ls" },
      { toolUseID: "toolu_a", signal: controller.signal },
    );
    expect(decision).toMatchObject({ behavior: "deny", message: TOOL_USE_ABORTED });
    expect(permissionRequests).toHaveLength(0);
  });

  it("cancellation: the signal aborting while the request is open ends it with Tool use aborted and cancels the client request", async () => {
    let clientSignal: AbortSignal | undefined;
    const { query } = await asking(
      (_request, signal) =>
        new Promise(() => {
          clientSignal = signal; // a client that never answers
        }),
    );
    const controller = new AbortController();
    const decision = query.canUseTool(
      "Bash",
      { command: "ls" },
      { toolUseID: "toolu_b", signal: controller.signal },
    );
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await decision).toMatchObject({ behavior: "deny", message: TOOL_USE_ABORTED });
    await new Promise((r) => setTimeout(r, 20));
    expect(clientSignal?.aborted).toBe(true);
  });

  it("cancellation: a client that rejects after the cancellation still ends in Tool use aborted", async () => {
    const { query } = await asking(
      (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("dialog closed")));
        }),
    );
    const controller = new AbortController();
    const decision = query.canUseTool(
      "Bash",
      { command: "ls" },
      { toolUseID: "toolu_c", signal: controller.signal },
    );
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await decision).toMatchObject({ behavior: "deny", message: TOOL_USE_ABORTED });
  });

  it("a late answer, after the ask was cancelled, is not applied", async () => {
    const { query } = await asking(
      () =>
        new Promise((resolve) =>
          setTimeout(
            () => resolve({ outcome: { outcome: "selected", optionId: "allow-once" } }),
            80,
          ),
        ),
    );
    const controller = new AbortController();
    const decision = query.canUseTool(
      "Bash",
      { command: "rm -rf x" },
      { toolUseID: "toolu_d", signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 10);
    expect(await decision).toMatchObject({ behavior: "deny", message: TOOL_USE_ABORTED });
  });

  it.each([
    ["a forged option id", "allow-everything-forever"],
    ["an option id from another request (stale)", "exit-plan-bypass"],
    ["an empty option id", ""],
  ])("%s is refused and the tool does not run", async (_rule, optionId) => {
    const { query } = await asking(() => ({ outcome: { outcome: "selected", optionId } }));
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_e" });
    expect(decision).toMatchObject({ behavior: "deny", message: UNKNOWN_OPTION });
  });

  it("a client that fails the request (not a cancellation) gets no approval", async () => {
    const { query } = await asking(() => {
      throw new Error("no dialog here");
    });
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_f" });
    expect(decision).toMatchObject({ behavior: "deny", message: CLIENT_FAILED });
  });

  it("an answer over the message limit (not read) ends the ask as a cancelled answer: Tool use aborted", async () => {
    const { query } = await asking(() => {
      // What the transport hands the connection instead of the client's over-limit answer.
      const { code, message, data } = unreadAnswer(0, { byteLength: 2_000 }, 1_000).error;
      throw new RequestError(code, message, data);
    });
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_u" });
    expect(decision).toEqual({ behavior: "deny", message: TOOL_USE_ABORTED });
  });

  it("bypass: a request that reaches the callback in bypassPermissions mode is shown, not auto-allowed", async () => {
    const { agent, query, sessionId, permissionRequests } = await setup({
      env: isolatedEnv({ IS_SANDBOX: "1" }),
      onPermission: () => ({ outcome: { outcome: "selected", optionId: "reject" } }),
    });
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
    void agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    const decision = await query.canUseTool(
      "Bash",
      { command: "npm test" },
      {
        toolUseID: "toolu_g",
        matchedAskRule: { source: "projectSettings", toolName: "Bash", ruleContent: "npm test:*" },
      },
    );
    expect(permissionRequests).toHaveLength(1);
    expect(decision).toMatchObject({ behavior: "deny", decisionClassification: "user_reject" });
  });

  it("an allowed call is shown in progress after Claude Code has its answer, and a result that came first is not undone", async () => {
    const { query, updates } = await asking(() => ({
      outcome: { outcome: "selected", optionId: "allow-once" },
    }));
    const statuses = (id: string) =>
      updates
        .map((n) => n.update)
        .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id)
        .map((u) => (u as { status?: string }).status);

    query.emit(toolUse("toolu_run", "Bash", { command: "ls" }));
    await new Promise((r) => setTimeout(r, 20));
    await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_run" });
    expect(statuses("toolu_run")).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(statuses("toolu_run")).toEqual(["in_progress"]);

    query.emit(toolUse("toolu_fast", "Bash", { command: "pwd" }));
    await new Promise((r) => setTimeout(r, 20));
    await query.canUseTool("Bash", { command: "pwd" }, { toolUseID: "toolu_fast" });
    query.emit(toolResult("toolu_fast", "/"));
    await new Promise((r) => setTimeout(r, 20));
    expect(statuses("toolu_fast")).toEqual(["completed"]);
  });

  it("subagent attribution: a subagent's tool call carries _meta.claudeCode.parentToolUseId, in updates and in the request", async () => {
    const { query, updates, permissionRequests } = await asking(() => ({
      outcome: { outcome: "selected", optionId: "allow-once" },
    }));
    query.emit(toolUse("toolu_sub", "Bash", { command: "ls" }, "toolu_agent"));
    await new Promise((r) => setTimeout(r, 20));
    await query.canUseTool(
      "Bash",
      { command: "ls" },
      { toolUseID: "toolu_sub", agentID: "agent-1" },
    );
    // The tool runs before its result comes, as with Claude Code.
    await new Promise((r) => setTimeout(r, 20));
    query.emit(toolResult("toolu_sub", "a.txt", { parent: "toolu_agent" }));
    await new Promise((r) => setTimeout(r, 20));
    const forCall = updates
      .map((n) => n.update)
      .filter(
        (u) =>
          (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
          u.toolCallId === "toolu_sub",
      );
    expect(forCall.length).toBeGreaterThanOrEqual(3);
    for (const update of forCall) {
      expect(update._meta).toMatchObject({ claudeCode: { parentToolUseId: "toolu_agent" } });
    }
    expect(permissionRequests[0]?.toolCall._meta).toMatchObject({
      claudeCode: { parentToolUseId: "toolu_agent" },
    });
  });
});
