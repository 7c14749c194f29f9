// In process: a background command's terminal (its output file read as it grows) ends with
// the process that ran it, also when the session replaced that process itself (a plan
// approved with "clear context"): its task can no longer report an end, so the terminal
// gets terminal_exit with an unknown exit code.
import { appendFile, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type ContentBlock } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { SDKMessage, SDKUserMessage } from "../../../claude/types.js";
import { assistant, result, sdkMessage, toolResult, toolUse } from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";

const text = (t: string): ContentBlock[] => [{ type: "text", text: t }];
const answering = (...messages: SDKUserMessage[]) =>
  result({ extra: { user_message_uuids: messages.map((m) => m.uuid) } });

type Meta = Record<string, { data?: string } | undefined>;

/** The `_meta` of each update to `toolCallId`, in order. */
function metasOf(updates: { update: unknown }[], toolCallId: string): Meta[] {
  return updates
    .map(({ update }) => update as { toolCallId?: string; _meta?: Meta })
    .filter((update) => update.toolCallId === toolCallId)
    .map((update) => update._meta ?? {});
}

/** A Bash call that Claude Code moved to the background, its output file in `dir`. */
async function backgroundBash(id: string, taskId: string) {
  const dir = join(await mkdtemp(join(tmpdir(), "terminal-bg-")), "tasks");
  await mkdir(dir);
  const outputFile = join(dir, `${taskId}.output`);
  const messages = [
    toolUse(id, "Bash", { command: "make watch", run_in_background: true }),
    toolResult(
      id,
      `Command running in background with ID: ${taskId}. Output is being written to: ${outputFile}. You will be notified when it completes.`,
      { structured: { stdout: "", stderr: "", interrupted: false, backgroundTaskId: taskId } },
    ),
  ];
  return { outputFile, messages };
}

/** Claude Code's task event of a command that went on in the background. */
function commandTaskStarted(id: string, taskId: string) {
  return sdkMessage({
    type: "system",
    subtype: "task_started",
    task_id: taskId,
    tool_use_id: id,
    description: "watch",
    task_type: "local_bash",
    is_backgrounded: true,
  });
}

function taskNotification(taskId: string, summary: string) {
  return sdkMessage({
    type: "system",
    subtype: "task_notification",
    task_id: taskId,
    status: "completed",
    output_file: "",
    summary,
  });
}

describe("a subagent's background command", () => {
  it("keeps its terminal open, streams its output file and ends with its task's exit code, though its result has no structured part", async () => {
    const session = await fakeSession({ clientCapabilities: { _meta: { terminal_output: true } } });
    const { agent, sessionId, query, updates } = session;
    const answer = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("go") });
    const prompt = await query.waitForSent(1);
    const bg = await backgroundBash("toolu_bg", "b3");
    await appendFile(bg.outputFile, "watching\n");
    // As a subagent's: the command's messages name the subagent, its result is text only.
    const [use, withStructure] = bg.messages as [SDKMessage, SDKUserMessage];
    query.emit(
      { ...use, parent_tool_use_id: "toolu_agent" } as SDKMessage,
      commandTaskStarted("toolu_bg", "b3"),
      { ...withStructure, parent_tool_use_id: "toolu_agent", tool_use_result: undefined },
      answering(prompt),
    );
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
    await expect
      .poll(() => metasOf(updates, "toolu_bg").some((m) => m.terminal_output?.data))
      .toBe(true);
    expect(metasOf(updates, "toolu_bg").some((m) => m.terminal_exit)).toBe(false);

    query.emit(taskNotification("b3", 'Background command "watch" completed (exit code 0)'));
    await expect
      .poll(() => metasOf(updates, "toolu_bg").at(-1)?.terminal_exit)
      .toEqual({ terminal_id: "toolu_bg", exit_code: 0, signal: null });
    const output = metasOf(updates, "toolu_bg")
      .map((m) => m.terminal_output?.data ?? "")
      .join("");
    expect(output).toBe("watching\n");
  });
});

describe("a background command's terminal and its process", () => {
  it("ends (unknown exit code) when a clear-context plan handoff replaces the process, its output so far kept", async () => {
    const session = await fakeSession({
      clientCapabilities: { _meta: { terminal_output: true } },
      onPermission: () => ({
        outcome: { outcome: "selected", optionId: "exit-plan-clear-accept-edits" },
      }),
    });
    const { agent, sessionId, query, claude, updates } = session;
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const answer = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("go") });
    const first = await query.waitForSent(1);
    const bg = await backgroundBash("toolu_bg", "b1");
    await appendFile(bg.outputFile, "watching\n");
    query.emit(...bg.messages);
    await expect
      .poll(() => metasOf(updates, "toolu_bg").some((m) => m.terminal_output?.data))
      .toBe(true);

    const next = claude.nextStart();
    query.emit(
      assistant("m1", [
        { type: "tool_use", id: "plan", name: "ExitPlanMode", input: { plan: "1. Do" } },
      ]),
    );
    await query.canUseTool("ExitPlanMode", { plan: "1. Do" }, { toolUseID: "plan" });
    query.emit(
      result({ subtype: "error_during_execution", extra: { user_message_uuids: [first.uuid] } }),
    );
    const fresh = await next;
    fresh.emit(answering(await fresh.waitForSent(1)));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    await expect
      .poll(() => metasOf(updates, "toolu_bg").at(-1)?.terminal_exit)
      .toEqual({ terminal_id: "toolu_bg", exit_code: null, signal: null });
    const output = () =>
      metasOf(updates, "toolu_bg")
        .map((m) => m.terminal_output?.data ?? "")
        .join("");
    expect(output()).toBe("watching\n");
  });

  it("ends (unknown exit code) when the process dies", async () => {
    const session = await fakeSession({ clientCapabilities: { _meta: { terminal_output: true } } });
    const { agent, sessionId, query, updates } = session;
    const answer = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("go") });
    const prompt = await query.waitForSent(1);
    const bg = await backgroundBash("toolu_bg", "b2");
    query.emit(...bg.messages, answering(prompt));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
    expect(metasOf(updates, "toolu_bg").some((m) => m.terminal_exit)).toBe(false);

    query.end(new Error("crashed"));

    await expect
      .poll(() => metasOf(updates, "toolu_bg").at(-1)?.terminal_exit)
      .toEqual({ terminal_id: "toolu_bg", exit_code: null, signal: null });
  });
});
