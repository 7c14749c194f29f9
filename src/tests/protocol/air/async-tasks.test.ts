// AIR's asyncTasks (issue 52): for a client that declared it, a command moved to the background
// (or any task Claude Code runs apart from a subagent) is announced with async_task_spawned,
// under the id of the tool call that started it, its progress (what changed) and state follow as
// Claude Code reports them, and the command's call is marked as gone on in the background;
// `_session/async_task/stop` stops it as its tool call is stopped. Zed hears none of it.
import { methods, type InitializeRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { ACPX, AIR, ZED } from "../../support/client-handshakes.js";
import {
  ownTurnResult,
  result,
  sdkMessage,
  streamedText,
  toolResult,
  toolUse,
} from "../../support/fake-claude.js";
import { subagentClient } from "../../support/subagent-client.js";
import { BackgroundedCommands } from "../../../acp/air/async-tasks.js";
import { settle } from "../../support/settle.js";

const AIR_TASKS: InitializeRequest = {
  ...AIR,
  clientCapabilities: {
    ...AIR.clientCapabilities,
    _meta: { jetbrains: { air: { version: 1, capabilities: ["asyncTasks"] } } },
  },
};

const started = (fields: Record<string, unknown>) =>
  sdkMessage({ type: "system", subtype: "task_started", task_id: "task-7", ...fields });
/** `npm run dev` as a task that goes on in the background from its start. */
const inBackground = () =>
  started({
    tool_use_id: "toolu_s",
    task_type: "local_bash",
    description: "npm run dev",
    is_backgrounded: true,
  });
const notified = (status: string, summary: string, output_file = "") =>
  sdkMessage({
    type: "system",
    subtype: "task_notification",
    task_id: "task-7",
    tool_use_id: "toolu_s",
    status,
    output_file,
    summary,
  });
const progressed = (fields: Record<string, unknown>) =>
  sdkMessage({
    type: "system",
    subtype: "task_progress",
    task_id: "task-7",
    tool_use_id: "toolu_s",
    description: "npm run dev",
    usage: { total_tokens: 0, tool_uses: 0, duration_ms: 1000 },
    ...fields,
  });
const updated = (patch: Record<string, unknown>) =>
  sdkMessage({ type: "system", subtype: "task_updated", task_id: "task-7", patch });

/**
 * A turn of a client of this handshake that runs `npm run dev` (task-7) and ends. AIR's task
 * updates are no schema's the SDK's client knows: they are seen on the wire (subagent-client.ts).
 */
async function commandTurn(handshake: InitializeRequest, ...task: ReturnType<typeof sdkMessage>[]) {
  const harness = await subagentClient({
    clientCapabilities: handshake.clientCapabilities ?? {},
  });
  const { agent, query, sessionId } = harness;
  const prompt = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Start the server." }],
  });
  await query.waitForSent(1);
  query.emit(toolUse("toolu_s", "Bash", { command: "npm run dev", run_in_background: true }));
  query.emit(...task, toolResult("toolu_s", "Command running in background with ID: task-7"));
  query.emit(result());
  await prompt;
  const seen = () => harness.events.flatMap((e) => (e.kind === "update" ? [e.notification] : []));
  return { ...harness, seen };
}

/** The task updates the client got. */
const tasks = (updates: Array<{ update: unknown }>) =>
  updates
    .map((n) => n.update as { sessionUpdate: string })
    .filter((u) => u.sessionUpdate.startsWith("async_task_"));

describe("AIR's asyncTasks", () => {
  it("a command moved to the background is announced under its tool call's id, and ends as Claude Code says, with its summary", async () => {
    const { query, seen } = await commandTurn(AIR_TASKS, inBackground());
    query.emit(notified("completed", 'Background command "npm run dev" completed (exit code 0)'));
    await expect.poll(() => tasks(seen()).length).toBe(2);
    expect(tasks(seen())).toEqual([
      {
        sessionUpdate: "async_task_spawned",
        asyncTaskId: "toolu_s",
        taskType: "shell",
        name: "npm run dev",
        description: "npm run dev",
        showInTranscript: true,
        canStop: true,
        toolCallId: "toolu_s",
      },
      {
        sessionUpdate: "async_task_state_update",
        asyncTaskId: "toolu_s",
        state: "completed",
        summary: 'Background command "npm run dev" completed (exit code 0)',
      },
    ]);
  });

  it("a command of the turn is no task until it goes on in the background; killed, it is stopped; a subagent is never a task", async () => {
    const { query, seen } = await commandTurn(
      AIR_TASKS,
      started({ tool_use_id: "toolu_s", task_type: "local_bash", description: "npm run dev" }),
      sdkMessage({
        type: "system",
        subtype: "task_started",
        task_id: "agent-1",
        tool_use_id: "toolu_a",
        task_type: "local_agent",
        description: "Look around",
        is_backgrounded: true,
      }),
    );
    expect(tasks(seen())).toEqual([]);
    query.emit(updated({ is_backgrounded: true }), updated({ status: "killed" }));
    await expect
      .poll(() => tasks(seen()).map((u) => u.sessionUpdate))
      .toEqual(["async_task_spawned", "async_task_state_update"]);
    expect(tasks(seen())[1]).toMatchObject({ asyncTaskId: "toolu_s", state: "stopped" });
  });

  it("_session/async_task/stop stops the task as its tool call is stopped; one that is over is not stopped", async () => {
    const { agent, query, sessionId } = await commandTurn(AIR_TASKS, inBackground());
    await expect(
      agent.request("_session/async_task/stop", { sessionId, asyncTaskId: "toolu_s" }),
    ).resolves.toEqual({ stopped: true });
    expect(query.stoppedTasks).toEqual(["task-7"]);
    await expect(
      agent.request("_session/async_task/stop", { sessionId, asyncTaskId: "toolu_none" }),
    ).resolves.toEqual({ stopped: false });
    await expect(
      agent.request("_session/async_task/stop", { sessionId, asyncTaskId: " " }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("a task's progress sends only what changed, a beat with nothing new sends nothing, and its end names its output file", async () => {
    const { query, seen } = await commandTurn(AIR_TASKS, inBackground());
    const usage = (ms: number) => ({ total_tokens: 10, tool_uses: 1, duration_ms: ms });
    query.emit(
      progressed({ usage: usage(1000), last_tool_name: "Bash" }),
      progressed({ usage: usage(1000), last_tool_name: "Bash" }),
      progressed({
        usage: usage(2000),
        last_tool_name: "Bash",
        summary: "Listening\u001b[0m on 3000",
      }),
      notified("completed", "Done.", "/config/tasks/task-7.output"),
    );
    await expect.poll(() => tasks(seen()).length).toBe(4);
    expect(tasks(seen()).slice(1)).toEqual([
      {
        sessionUpdate: "async_task_progress",
        asyncTaskId: "toolu_s",
        description: "npm run dev",
        lastToolName: "Bash",
        usage: { totalTokens: 10, toolUses: 1, durationMs: 1000 },
      },
      {
        sessionUpdate: "async_task_progress",
        asyncTaskId: "toolu_s",
        summary: "Listening on 3000",
        usage: { totalTokens: 10, toolUses: 1, durationMs: 2000 },
      },
      {
        sessionUpdate: "async_task_state_update",
        asyncTaskId: "toolu_s",
        state: "completed",
        summary: "Done.",
        outputFilePath: "/config/tasks/task-7.output",
      },
    ]);
  });

  it("the command's completed call is marked as gone on in the background; Zed, and AIR without asyncTasks, see no mark", async () => {
    const marked = (updates: Array<{ update: unknown }>, id: string) =>
      updates
        .map((n) => n.update as { sessionUpdate: string; toolCallId?: string; status?: string })
        .find((u) => u.toolCallId === id && u.status === "completed") as
        { _meta?: { jetbrains?: { air?: { asyncTasks?: unknown } } } } | undefined;
    const { seen } = await commandTurn(AIR_TASKS, inBackground());
    expect(marked(seen(), "toolu_s")?._meta?.jetbrains?.air?.asyncTasks).toEqual({
      backgrounded: true,
    });
    for (const handshake of [ZED, AIR]) {
      const other = await commandTurn(handshake, inBackground());
      expect(marked(other.seen(), "toolu_s")?._meta?.jetbrains?.air?.asyncTasks).toBeUndefined();
    }
  });

  it("a command that ran in the turn, or failed, is not marked; one whose result names its task is", () => {
    const commands = new BackgroundedCommands(AIR_TASKS.clientCapabilities!);
    const meta = { claudeCode: { toolName: "Bash" } };
    const call = (id: string, fields: Record<string, unknown>) =>
      commands.mark({ toolCallId: id, _meta: meta, ...fields }) as { _meta?: unknown };
    const mark = { jetbrains: { air: { version: 1, asyncTasks: { backgrounded: true } } } };
    call("ran", { rawInput: { command: "ls" } });
    expect(call("ran", { status: "completed", rawOutput: { stdout: "" } })._meta).toEqual(meta);
    call("failed", { rawInput: { command: "x", run_in_background: true } });
    expect(call("failed", { status: "failed" })._meta).toEqual(meta);
    const named = call("moved", { status: "completed", rawOutput: { backgroundTaskId: "b1" } });
    expect(named._meta).toEqual({ ...meta, ...mark });
  });

  it("a turn Claude Code starts itself is a task while it runs, shown in the panel and not the transcript; Zed hears none", async () => {
    const { query, seen } = await commandTurn(AIR_TASKS);
    query.emit(...streamedText("own", "The server is up."), ownTurnResult());
    await expect.poll(() => tasks(seen()).length).toBe(2);
    const [spawned, ended] = tasks(seen()) as unknown as Array<{ asyncTaskId: string }>;
    expect(spawned).toEqual({
      sessionUpdate: "async_task_spawned",
      asyncTaskId: expect.stringMatching(/^autonomous-turn-[0-9a-f-]{36}$/) as unknown,
      name: "Claude is working",
      taskType: "turn",
      description: "Claude Code started a turn without a prompt.",
      showInTranscript: false,
      canStop: true,
    });
    expect(ended).toEqual({
      sessionUpdate: "async_task_state_update",
      asyncTaskId: spawned!.asyncTaskId,
      state: "completed",
    });
    const zed = await commandTurn(ZED);
    zed.query.emit(...streamedText("own", "The server is up."), ownTurnResult());
    await expect
      .poll(() => zed.seen().some((n) => JSON.stringify(n).includes("server is up")))
      .toBe(true);
    expect(tasks(zed.seen())).toEqual([]);
  });

  it("_session/async_task/stop on the task of Claude Code's own turn interrupts that turn, which ends stopped, not failed; another id stops nothing", async () => {
    const { agent, query, seen, sessionId } = await commandTurn(AIR_TASKS);
    query.onInterrupt = () => query.emit(ownTurnResult({ subtype: "error_during_execution" }));
    query.emit(...streamedText("own", "Working on my own."));
    await expect.poll(() => tasks(seen()).length).toBe(1);
    const { asyncTaskId } = tasks(seen())[0] as unknown as { asyncTaskId: string };
    const stop = (id: string) =>
      agent.request("_session/async_task/stop", { sessionId, asyncTaskId: id });
    await expect(stop("autonomous-turn-another")).resolves.toEqual({ stopped: false });
    expect(query.interrupts).toBe(0);
    await expect(stop(asyncTaskId)).resolves.toEqual({ stopped: true });
    expect(query.interrupts).toBe(1);
    await expect.poll(() => tasks(seen()).length).toBe(2);
    expect(tasks(seen())[1]).toEqual({
      sessionUpdate: "async_task_state_update",
      asyncTaskId,
      state: "stopped",
    });
    await expect(stop(asyncTaskId)).resolves.toEqual({ stopped: false });
    // Stopped by the user, the turn did not fail: no notice says it did.
    expect(JSON.stringify(seen())).not.toContain("turn_error");
  });

  it("the own turn's task is not stopped while a prompt waits behind it", async () => {
    const { agent, query, seen, sessionId } = await commandTurn(AIR_TASKS);
    query.emit(...streamedText("own", "Working on my own."));
    await expect.poll(() => tasks(seen()).length).toBe(1);
    const { asyncTaskId } = tasks(seen())[0] as unknown as { asyncTaskId: string };
    const waiting = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Next." }],
    });
    await settle();
    await expect(
      agent.request("_session/async_task/stop", { sessionId, asyncTaskId }),
    ).resolves.toEqual({ stopped: false });
    expect(query.interrupts).toBe(0);
    query.emit(ownTurnResult());
    await query.waitForSent(2);
    query.emit(result());
    await waiting;
  });

  it("Zed, and AIR without asyncTasks, hear no task and cannot call the stop method", async () => {
    for (const handshake of [ZED, ACPX, AIR]) {
      const { agent, seen, sessionId } = await commandTurn(handshake, inBackground());
      expect(tasks(seen())).toEqual([]);
      await expect(
        agent.request("_session/async_task/stop", { sessionId, asyncTaskId: "toolu_s" }),
      ).rejects.toMatchObject({ code: -32601 });
    }
  });
});
