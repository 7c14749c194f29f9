// The ACP v2 draft in process: the agent as the bin serves it (the SDK's protocol router
// over the v1 and v2 apps, on a fake Claude Code), an SDK v2 client over a stream pair.
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { describe, expect, it } from "vitest";
import {
  assistant,
  result,
  sdkMessage,
  streamedText,
  toolResult,
  toolUse,
} from "../support/fake-claude.js";
import { START_UPDATES } from "../support/in-process.js";
import { v2Session, rpcError } from "../support/in-process-v2.js";
import { settle } from "../support/settle.js";

describe("initialize with protocol version 2", () => {
  it("answers version 2 with v2's info, the baseline session capabilities and the optional ones this agent has", async () => {
    const { initialized } = await v2Session();
    expect(initialized).toMatchObject({
      protocolVersion: 2,
      info: { name: "claude-agent-acp", title: "Claude Code" },
      capabilities: {
        session: {
          prompt: { image: {}, embeddedContext: {} },
          mcp: { stdio: {}, http: {} },
          delete: {},
          additionalDirectories: {},
          fork: {},
        },
      },
    });
    // No login method without terminal auth: v2 asks auth/login and auth/logout then.
    expect(initialized.authMethods ?? []).toEqual([]);
  });

  it("offers Claude Code's terminal logins, by methodId and type, to a client with auth.terminal", async () => {
    const { initialized } = await v2Session({ capabilities: { auth: { terminal: {} } } });
    expect(initialized.authMethods).toEqual([
      expect.objectContaining({
        type: "terminal",
        methodId: "claude-login",
        args: ["--login", "--claudeai"],
      }),
      expect.objectContaining({
        type: "terminal",
        methodId: "console-login",
        args: ["--login", "--console"],
      }),
    ]);
  });
});

describe("session/new", () => {
  it("answers the session id and its config options by configId, the mode among them; no modes", async () => {
    const { created } = await v2Session();
    expect(created).not.toHaveProperty("modes");
    const mode = created.configOptions?.find((o) => o.configId === "mode");
    expect(mode).toMatchObject({ category: "mode", type: "select", currentValue: "default" });
    expect(created.configOptions?.map((o) => o.configId)).toEqual(["mode", "model", "thinking"]);
  });
});

describe("session/prompt: the answer is the insertion, the turn's end is the idle state_update", () => {
  it("answers with the inserted message's id when the turn starts, echoes the user message under it, reports running, streams, then idle end_turn", async () => {
    const { prompt, query, sessionId, updates, idle } = await v2Session();
    const answer = await Promise.all([prompt("Hello"), query.waitForSent(1)]).then(([a]) => a);
    // Answered while Claude has not said anything yet: the answer does not wait for the turn.
    expect(answer.messageId).toEqual(expect.any(String));
    query.emit(...streamedText("msg_1", "Hi", " there"), result());
    await idle(sessionId);
    const shown = updates(sessionId).filter((u) => !START_UPDATES.has(u.sessionUpdate));
    expect(shown).toEqual([
      {
        sessionUpdate: "user_message",
        messageId: answer.messageId,
        content: [{ type: "text", text: "Hello" }],
      },
      { sessionUpdate: "state_update", state: "running" },
      {
        sessionUpdate: "agent_message_chunk",
        messageId: "msg_1",
        content: { type: "text", text: "Hi" },
      },
      {
        sessionUpdate: "agent_message_chunk",
        messageId: "msg_1",
        content: { type: "text", text: " there" },
      },
      // The turn's usage (v1's prompt answer carries it) goes with its end.
      {
        sessionUpdate: "state_update",
        state: "idle",
        stopReason: "end_turn",
        usage: expect.objectContaining({ totalTokens: 0 }) as unknown,
      },
    ]);
  });
});

describe("prompts while a turn runs, cancel and failures", () => {
  it("a prompt sent during a turn is held: answered only when its own turn starts, after the first one's idle", async () => {
    const { prompt, query, sessionId, states, updates, idle } = await v2Session();
    void prompt("first");
    await query.waitForSent(1);
    let secondAnswered = false;
    const second = prompt("second").then((answer) => {
      secondAnswered = true;
      return answer;
    });
    await settle();
    expect(secondAnswered).toBe(false);
    query.emit(result());
    await query.waitForSent(2);
    const { messageId } = await second;
    query.emit(result());
    await idle(sessionId, 2);
    expect(states(sessionId).map((s) => [s.state, "stopReason" in s ? s.stopReason : ""])).toEqual([
      ["running", ""],
      ["idle", "end_turn"],
      ["running", ""],
      ["idle", "end_turn"],
    ]);
    const kinds = updates(sessionId)
      .filter((u) => u.sessionUpdate === "user_message" || u.sessionUpdate === "state_update")
      .map((u) => (u.sessionUpdate === "user_message" ? u.messageId : u.sessionUpdate));
    // running, idle, then the second prompt's user message.
    expect(kinds.indexOf(messageId)).toBe(3);
  });

  it("session/cancel ends the running turn with idle cancelled, and a held prompt is answered -32800 without being inserted", async () => {
    const { prompt, query, sessionId, agent, states, updates, idle } = await v2Session();
    void prompt("first");
    await query.waitForSent(1);
    const held = prompt("second").catch((e: unknown) => e);
    await settle();
    await agent.notify(v2.methods.agent.session.cancel, { sessionId });
    expect(rpcError(await held).code).toBe(-32800);
    await idle(sessionId);
    expect(states(sessionId).at(-1)).toMatchObject({ state: "idle", stopReason: "cancelled" });
    expect(updates(sessionId).filter((u) => u.sessionUpdate === "user_message")).toHaveLength(1);
    expect(query.sent).toHaveLength(1);
  });

  it("a turn that fails ends idle with stopReason error and the JSON-RPC error v1 answers the prompt with", async () => {
    const { prompt, query, sessionId, states, idle } = await v2Session();
    await Promise.all([prompt("go"), query.waitForSent(1)]);
    query.emit(result({ isError: true, text: "Overloaded" }));
    await idle(sessionId);
    expect(states(sessionId).at(-1)).toEqual({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: "Internal error: Overloaded" },
    });
  });

  it("a prompt to an unknown session, or with content this agent does not take, is refused before any insertion", async () => {
    const { agent, sessionId, updates } = await v2Session();
    const unknown = await agent
      .request(v2.methods.agent.session.prompt, {
        sessionId: "no-such-session",
        prompt: [{ type: "text", text: "hi" }],
      })
      .catch((e: unknown) => e);
    expect(rpcError(unknown)).toMatchObject({
      code: -32002,
      data: { sessionId: "no-such-session" },
    });
    const audio = await agent
      .request(v2.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
      })
      .catch((e: unknown) => e);
    expect(rpcError(audio).code).toBe(-32602);
    expect(updates(sessionId).filter((u) => u.sessionUpdate === "user_message")).toEqual([]);
  });
});

describe("permissions on v2", () => {
  it("a request has v2's title and tool_call subject, keeps the options and _meta.permission, and the turn requires action while it waits", async () => {
    const { prompt, query, sessionId, events, states, idle } = await v2Session();
    await Promise.all([prompt("test"), query.waitForSent(1)]);
    query.emit(toolUse("toolu_1", "Bash", { command: "npm test" }));
    await settle();
    const decision = await query.canUseTool(
      "Bash",
      { command: "npm test" },
      {
        toolUseID: "toolu_1",
        suggestions: [
          {
            type: "addRules",
            rules: [{ toolName: "Bash", ruleContent: "npm test:*" }],
            behavior: "allow",
            destination: "localSettings",
          },
        ],
      },
    );
    expect(decision).toMatchObject({ behavior: "allow" });
    const asked = events.flatMap((e) => (e.kind === "permission" ? [e.request] : []));
    expect(asked).toHaveLength(1);
    const [request] = asked;
    expect(request).toMatchObject({
      sessionId,
      title: "npm test",
      subject: { type: "tool_call", toolCall: { toolCallId: "toolu_1" } },
      _meta: { permission: { version: 1, title: "npm test" } },
    });
    expect(request!.options).toEqual([
      { optionId: "allow-once", name: "Yes", kind: "allow_once" },
      {
        optionId: "allow-with-updates",
        name: "Yes, and don't ask again for npm test commands in this project",
        kind: "allow_always",
      },
      { optionId: "reject", name: "No", kind: "reject_once" },
    ]);
    query.emit(toolResult("toolu_1", "ok"), result());
    await idle(sessionId);
    expect(states(sessionId).map((s) => s.state)).toEqual([
      "running",
      "requires_action",
      "running",
      "idle",
    ]);
  });

  it("an outcome v1 does not know is never an approval", async () => {
    const { prompt, query } = await v2Session({
      onPermission: () => ({ outcome: { outcome: "_later" } }),
    });
    await Promise.all([prompt("test"), query.waitForSent(1)]);
    query.emit(toolUse("toolu_1", "Bash", { command: "rm -rf build" }));
    await settle();
    const decision = await query.canUseTool(
      "Bash",
      { command: "rm -rf build" },
      {
        toolUseID: "toolu_1",
      },
    );
    expect(decision).toMatchObject({ behavior: "deny" });
  });
});

describe("config options on v2: the mode is one of them", () => {
  it("set_config_option with an id value switches the mode; the answer and config_option_update carry it, and no current_mode_update is sent", async () => {
    const { agent, sessionId, query, updates, until } = await v2Session();
    const { configOptions } = await agent.request(v2.methods.agent.session.setConfigOption, {
      sessionId,
      configId: "mode",
      type: "id",
      value: "acceptEdits",
    });
    expect(configOptions.find((o) => o.configId === "mode")).toMatchObject({
      currentValue: "acceptEdits",
    });
    expect(query.modes).toContain("acceptEdits");
    await until(() => updates(sessionId).some((u) => u.sessionUpdate === "config_option_update"));
    const kinds = updates(sessionId).map((u) => u.sessionUpdate);
    expect(kinds).not.toContain("current_mode_update");
  });

  it("a value whose type does not fit, or an unknown mode, is refused with -32602", async () => {
    const { agent, sessionId } = await v2Session();
    const typed = await agent
      .request(v2.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "mode",
        type: "boolean",
        value: true,
      })
      .catch((e: unknown) => e);
    expect(rpcError(typed).code).toBe(-32602);
    const unknown = await agent
      .request(v2.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "mode",
        type: "id",
        value: "nonsense",
      })
      .catch((e: unknown) => e);
    expect(rpcError(unknown).code).toBe(-32602);
  });
});

describe("what v2 has a place for", () => {
  it("a command is a display terminal: terminal_update with command and cwd, the terminal as content, its output base64 in terminal_output_chunk, its exit in terminal_update", async () => {
    const { prompt, query, sessionId, updates, idle, cwd } = await v2Session();
    await Promise.all([prompt("ls"), query.waitForSent(1)]);
    query.emit(toolUse("toolu_ls", "Bash", { command: "ls" }));
    await settle();
    await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_ls" });
    query.emit(toolResult("toolu_ls", "a.txt"), result());
    await idle(sessionId);
    const terminal = updates(sessionId).filter(
      (u) =>
        u.sessionUpdate === "terminal_update" ||
        u.sessionUpdate === "terminal_output_chunk" ||
        (u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_ls"),
    );
    // Both can be cancelled (tool_call/cancel, terminal/cancel).
    expect(terminal[0]).toEqual({
      sessionUpdate: "terminal_update",
      terminalId: "toolu_ls",
      command: "ls",
      cwd,
      capabilities: { cancel: {} },
    });
    expect(terminal[1]).toMatchObject({
      sessionUpdate: "tool_call_update",
      toolCallId: "toolu_ls",
      name: "Bash",
      status: "pending",
      kind: "execute",
      content: [{ type: "terminal", terminalId: "toolu_ls" }],
      capabilities: { cancel: {} },
    });
    const output = terminal.find((u) => u.sessionUpdate === "terminal_output_chunk");
    expect(output).toEqual({
      sessionUpdate: "terminal_output_chunk",
      terminalId: "toolu_ls",
      data: Buffer.from("a.txt\n").toString("base64"),
    });
    expect(terminal.at(-1)).toEqual({
      sessionUpdate: "terminal_update",
      terminalId: "toolu_ls",
      exitStatus: { exitCode: 0 },
    });
    const meta = JSON.stringify(terminal.map((u) => ("_meta" in u ? u._meta : undefined)));
    expect(meta).not.toContain("terminal_");
  });

  it.each([
    ["tool_call/cancel", v2.methods.agent.toolCall.cancel, "toolCallId"],
    ["terminal/cancel", v2.methods.agent.terminal.cancel, "terminalId"],
  ] as const)(
    "%s stops a running command's task, the turn goes on, and the call ends cancelled; a Read offers no cancel and is refused with -32602",
    async (_name, method, key) => {
      const { agent, prompt, query, sessionId, updates, idle } = await v2Session();
      await Promise.all([prompt("run"), query.waitForSent(1)]);
      query.emit(toolUse("toolu_long", "Bash", { command: "long" }));
      await settle();
      await query.canUseTool("Bash", { command: "long" }, { toolUseID: "toolu_long" });
      query.emit(
        sdkMessage({
          type: "system",
          subtype: "task_started",
          task_id: "task_long",
          tool_use_id: "toolu_long",
          description: "long",
          task_type: "local_bash",
        }),
      );
      await settle();
      expect(await agent.request(method, { sessionId, [key]: "toolu_long" } as never)).toEqual({});
      expect(query.stoppedTasks).toEqual(["task_long"]);
      query.emit(toolResult("toolu_long", "Exit code 137", { isError: true }));
      query.emit(toolUse("toolu_read", "Read", { file_path: "/etc/hostname" }));
      await settle();
      const refused = await agent
        .request(v2.methods.agent.toolCall.cancel, { sessionId, toolCallId: "toolu_read" })
        .catch((e: unknown) => e);
      expect(rpcError(refused).code).toBe(-32602);
      query.emit(toolResult("toolu_read", "host"), result());
      await idle(sessionId);
      const calls = updates(sessionId).flatMap((u) =>
        u.sessionUpdate === "tool_call_update" ? [u] : [],
      );
      const long = calls.filter((u) => u.toolCallId === "toolu_long");
      expect(long.at(-1)).toMatchObject({ status: "cancelled" });
      expect(calls.find((u) => u.toolCallId === "toolu_read")).not.toHaveProperty("capabilities");
    },
  );

  it("an edit's diff is a structured change with a git patch", async () => {
    const { prompt, query, sessionId, updates, idle, cwd } = await v2Session();
    await Promise.all([prompt("edit"), query.waitForSent(1)]);
    const file = `${cwd}/a.txt`;
    query.emit(
      toolUse("toolu_e", "Edit", { file_path: file, old_string: "one\ntwo", new_string: "one\n2" }),
    );
    await settle();
    query.emit(result());
    await idle(sessionId);
    const call = updates(sessionId).find(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_e",
    );
    expect(call).toMatchObject({
      content: [
        {
          type: "diff",
          changes: [{ operation: "modify", path: file, fileType: "text" }],
          patch: {
            format: "git_patch",
            text: expect.stringContaining("@@ -1,2 +1,2 @@\n one\n-two\n+2\n") as unknown,
          },
        },
      ],
    });
  });

  it("a todo list is one plan_update of the session's plan", async () => {
    const { prompt, query, sessionId, updates, idle } = await v2Session();
    await Promise.all([prompt("plan"), query.waitForSent(1)]);
    const todos = [{ content: "ship", status: "pending", activeForm: "shipping" }];
    query.emit(toolUse("toolu_t", "TodoWrite", { todos }), toolResult("toolu_t", "ok"), result());
    await idle(sessionId);
    expect(updates(sessionId).filter((u) => u.sessionUpdate === "plan_update")).toEqual([
      {
        sessionUpdate: "plan_update",
        plan: {
          type: "items",
          planId: "todos",
          entries: [{ content: "ship", status: "pending", priority: "medium" }],
        },
      },
    ]);
  });

  it("Claude's text without a message id still gets one, the same for the chunks of one message", async () => {
    const { prompt, query, sessionId, updates, idle } = await v2Session();
    await Promise.all([prompt("hi"), query.waitForSent(1)]);
    // Assistant messages without the streamed events: the message id is the API's.
    query.emit(assistant("msg_x", [{ type: "text", text: "Done." }]), result());
    await idle(sessionId);
    const chunks = updates(sessionId).filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(chunks).toEqual([
      expect.objectContaining({ messageId: "msg_x", content: { type: "text", text: "Done." } }),
    ]);
  });
});
