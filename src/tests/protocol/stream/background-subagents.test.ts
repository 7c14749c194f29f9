// In process: a subagent that runs in the background goes on after the parent's turn has
// ended, for every client (child sessions or not). Its tool calls stay open at the end of
// the parent's turn and are closed by their own results; one still open when the subagent's
// run ends, or when the process running it ends, is closed then.
import { methods } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { UNFINISHED } from "../../../session/turns/unfinished.js";
import {
  assistant,
  result,
  sdkMessage,
  toolResult,
  toolUse,
  type FakeClaudeQuery,
} from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";
import { settle } from "../../support/settle.js";

const AGENT_CALL = "toolu_agent";
const AGENT_ID = "a1b2c3";
const LAUNCH = { description: "Look around", prompt: "Sleep, then answer", subagent_type: "x" };

function taskStarted(background: boolean, call = AGENT_CALL) {
  return sdkMessage({
    type: "system",
    subtype: "task_started",
    task_id: AGENT_ID,
    tool_use_id: call,
    description: LAUNCH.description,
    task_type: "local_agent",
    is_backgrounded: background,
  });
}

function taskNotification(status: "completed" | "failed" | "stopped") {
  return sdkMessage({
    type: "system",
    subtype: "task_notification",
    task_id: AGENT_ID,
    tool_use_id: AGENT_CALL,
    status,
    output_file: "",
    summary: "",
  });
}

/** Claude Code's result of a launch that went on in the background. */
function asyncLaunched(call = AGENT_CALL) {
  return toolResult(call, "Async agent launched successfully.", {
    structured: { isAsync: true, status: "async_launched", agentId: AGENT_ID },
  });
}

type Update = Record<string, unknown> & { _meta?: Record<string, unknown> };

function updatesOf(updates: { update: unknown }[], toolCallId: string): Update[] {
  return updates
    .map(({ update }) => update as Update)
    .filter((update) => update.toolCallId === toolCallId);
}

/** The statuses the call's updates set (its announcement is pending). */
const statuses = (updates: Update[]) =>
  updates.flatMap((u) => (u.sessionUpdate === "tool_call_update" && u.status ? [u.status] : []));
const exits = (updates: Update[]) => updates.flatMap((u) => u._meta?.terminal_exit ?? []);
const texts = (updates: Update[]) => JSON.stringify(updates.map((u) => u.content ?? null));

/**
 * The parent's turn launches a subagent (`launch` plays Claude Code's launch messages) whose
 * `sleep` is still running when the parent's turn ends.
 */
async function parentTurnEndsWhileSubagentRuns(
  launch: Parameters<FakeClaudeQuery["emit"]>,
  clientCapabilities = {},
) {
  const session = await fakeSession({ clientCapabilities });
  const response = await session.prompt(
    "Launch it",
    toolUse(AGENT_CALL, "Agent", LAUNCH),
    ...launch,
    toolUse("toolu_sleep", "Bash", { command: "sleep 3" }, AGENT_CALL),
    assistant("msg-main", [{ type: "text", text: "Launched it." }]),
    result(),
  );
  expect(response.stopReason).toBe("end_turn");
  return { ...session, sleep: () => updatesOf(session.updates, "toolu_sleep") };
}

describe("a background subagent's tool calls and the parent's turn", () => {
  it("a call of a subagent running in the background stays open at the end of the parent's turn, and its own result completes it, its terminal exiting once", async () => {
    const { query, sleep } = await parentTurnEndsWhileSubagentRuns(
      [taskStarted(true), asyncLaunched()],
      { _meta: { terminal_output: true } },
    );
    expect(statuses(sleep())).toEqual([]);
    expect(exits(sleep())).toEqual([]);

    query.emit(toolResult("toolu_sleep", "", { parent: AGENT_CALL }));
    await expect.poll(() => statuses(sleep())).toEqual(["completed"]);
    expect(exits(sleep())).toEqual([{ terminal_id: "toolu_sleep", exit_code: 0, signal: null }]);
    expect(texts(sleep())).not.toContain(UNFINISHED.notRun);
  });

  it("the launch's result alone (Async agent launched) says the subagent runs in the background", async () => {
    const { query, sleep } = await parentTurnEndsWhileSubagentRuns([asyncLaunched()]);
    expect(statuses(sleep())).toEqual([]);
    query.emit(toolResult("toolu_sleep", "", { parent: AGENT_CALL }));
    await expect.poll(() => statuses(sleep())).toEqual(["completed"]);
  });

  it("a call of a foreground subagent launched by a background one stays open too", async () => {
    const session = await fakeSession();
    await session.prompt(
      "Launch it",
      toolUse(AGENT_CALL, "Agent", LAUNCH),
      taskStarted(true),
      asyncLaunched(),
      toolUse("toolu_inner", "Agent", LAUNCH, AGENT_CALL),
      toolUse("toolu_sleep", "Bash", { command: "sleep 3" }, "toolu_inner"),
      result(),
    );
    expect(statuses(updatesOf(session.updates, "toolu_sleep"))).toEqual([]);
  });

  it("a call still open when the subagent's run ends is closed then, saying the subagent ended", async () => {
    const { query, sleep } = await parentTurnEndsWhileSubagentRuns([
      taskStarted(true),
      asyncLaunched(),
    ]);
    query.emit(taskNotification("stopped"));
    await expect.poll(() => statuses(sleep())).toEqual(["failed"]);
    expect(texts(sleep())).toContain(UNFINISHED.subagentEnded);
  });

  it("a call still open when the process ends is closed then, saying Claude Code ended", async () => {
    const { query, sleep } = await parentTurnEndsWhileSubagentRuns([
      taskStarted(true),
      asyncLaunched(),
    ]);
    query.end(new Error("crashed"));
    await expect.poll(() => statuses(sleep())).toEqual(["failed"]);
    expect(texts(sleep())).toContain(UNFINISHED.processEnded);
  });

  it("a subagent that ran in the foreground holds nothing: its call still open at the end of the turn is closed with the turn", async () => {
    const { sleep } = await parentTurnEndsWhileSubagentRuns([taskStarted(false)]);
    expect(statuses(sleep())).toEqual(["failed"]);
    expect(texts(sleep())).toContain(UNFINISHED.notRun);
  });

  it("a background subagent's call left open when the user's next turn ends stays open until the subagent's run ends", async () => {
    const { agent, sessionId, query, sleep } = await parentTurnEndsWhileSubagentRuns([
      taskStarted(true),
      asyncLaunched(),
    ]);
    const next = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Next" }],
    });
    await query.waitForSent(2);
    query.emit(result());
    expect(await next).toMatchObject({ stopReason: "end_turn" });
    await settle();
    expect(statuses(sleep())).toEqual([]);
    query.emit(taskNotification("completed"));
    await expect.poll(() => statuses(sleep())).toEqual(["failed"]);
  });
});
