// Unit and in process: a tool call Claude Code runs without asking (a rule in settings, the
// mode, a read-only tool) shows `in_progress` on its PreToolUse hook (session/tool-starts.ts);
// one the user is asked about is marked once, by the answer; an ended or unknown call is left.
import { methods, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { SessionClient } from "../acp/session-client.js";
import { ToolCallTracker } from "../session/tool-calls.js";
import { ToolStarts, type Schedule } from "../session/tool-starts.js";
import { result, toolResult, toolUse } from "./support/fake-claude.js";
import { fakeSession } from "./support/fake-session.js";

/** A client that records each tool call update with the thread it went to. */
function recordingClient() {
  const sent: Array<{ thread: string | null; update: ToolCallUpdate }> = [];
  const client = {
    forThread: (thread: string | null) => ({
      updateToolCall: (update: ToolCallUpdate) => {
        sent.push({ thread, update });
        return Promise.resolve();
      },
    }),
  } as unknown as SessionClient;
  return { client, sent };
}

/** A schedule the test fires by hand: no time passes in these tests. */
function manualSchedule() {
  const due: Array<() => void> = [];
  const schedule: Schedule = (fire) => {
    let cancelled = false;
    due.push(() => cancelled || fire());
    return () => (cancelled = true);
  };
  const fireAll = async () => {
    due.splice(0).forEach((fire) => fire());
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { schedule, fireAll };
}

function setup() {
  const tools = new ToolCallTracker();
  const { client, sent } = recordingClient();
  const { schedule, fireAll } = manualSchedule();
  const starts = new ToolStarts({ client, tools }, schedule);
  const announce = async (id: string, parent: string | null = null) => {
    const call = tools.upsert(id, "Bash", { command: "sleep 2; echo hi" }, parent);
    await tools.ensureAnnounced(
      call,
      () => ({ toolCallId: id, title: "sleep" }),
      () => Promise.resolve(),
    );
    return call;
  };
  const statuses = () => sent.map(({ update }) => [update.toolCallId, update.status]);
  return { tools, starts, sent, fireAll, announce, statuses };
}

describe("a tool call Claude Code runs without asking", () => {
  it("is marked in_progress once after its PreToolUse hook, with its claudeCode meta", async () => {
    const { starts, sent, fireAll, announce } = setup();
    const call = await announce("toolu_rule");
    starts.heard("toolu_rule");
    starts.heard("toolu_rule");
    await fireAll();
    expect(call.status).toBe("in_progress");
    expect(sent).toEqual([
      {
        thread: null,
        update: {
          toolCallId: "toolu_rule",
          status: "in_progress",
          _meta: { claudeCode: { toolName: "Bash" } },
        },
      },
    ]);
  });

  it("a subagent's call goes to its parent's thread", async () => {
    const { starts, sent, fireAll, announce } = setup();
    await announce("toolu_sub", "toolu_agent");
    starts.heard("toolu_sub");
    await fireAll();
    expect(sent.map(({ thread }) => thread)).toEqual(["toolu_agent"]);
  });

  it("a hook for an unknown call, an ended one or one already running sends nothing", async () => {
    const { starts, sent, fireAll, announce } = setup();
    const ended = await announce("toolu_done");
    ended.status = "completed";
    const failed = await announce("toolu_failed");
    failed.status = "failed";
    const running = await announce("toolu_running");
    running.status = "in_progress";
    for (const id of ["toolu_unknown", "toolu_done", "toolu_failed", "toolu_running"]) {
      starts.heard(id);
    }
    await fireAll();
    expect(sent).toEqual([]);
    expect([ended.status, failed.status]).toEqual(["completed", "failed"]);
  });

  it("a call that ends before the grace is over is not re-opened", async () => {
    const { starts, sent, fireAll, announce } = setup();
    const call = await announce("toolu_quick");
    starts.heard("toolu_quick");
    call.status = "completed";
    await fireAll();
    expect(sent).toEqual([]);
  });

  it("a call never shown (a plan tool) gets nothing", async () => {
    const { tools, starts, sent, fireAll } = setup();
    tools.upsert("toolu_todo", "TodoWrite", {}, null);
    starts.heard("toolu_todo");
    await fireAll();
    expect(sent).toEqual([]);
  });
});

describe("a tool call the user is asked about", () => {
  it("gets nothing from its hook once Claude Code asks about it", async () => {
    const { starts, sent, fireAll, announce } = setup();
    const call = await announce("toolu_ask");
    starts.heard("toolu_ask");
    starts.asked("toolu_ask");
    await fireAll();
    expect(call.status).toBe("pending");
    expect(sent).toEqual([]);
  });

  it("shows as waiting again when the ask comes after the grace", async () => {
    const { starts, fireAll, announce, statuses } = setup();
    const call = await announce("toolu_slow_ask");
    starts.heard("toolu_slow_ask");
    await fireAll();
    starts.asked("toolu_slow_ask");
    await fireAll();
    expect(call.status).toBe("pending");
    expect(statuses()).toEqual([
      ["toolu_slow_ask", "in_progress"],
      ["toolu_slow_ask", "pending"],
    ]);
  });
});

describe("in a session (fake Claude Code)", () => {
  const statusesOf = (updates: { update: unknown }[], id: string) =>
    updates
      .map(({ update }) => update as { toolCallId?: string; status?: string })
      .filter((update) => update.toolCallId === id && update.status)
      .map((update) => update.status);

  it("a command allowed by a rule is in_progress before its result, with no permission request", async () => {
    const session = await fakeSession();
    const { query, updates, permissionRequests } = session;
    const prompt = session.agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "run it" }],
    });
    await query.waitForSent(1);
    query.emit(toolUse("toolu_rule", "Bash", { command: "sleep 2; echo hi" }));
    await expect.poll(() => statusesOf(updates, "toolu_rule")).toEqual(["pending"]);
    query.preToolUse("toolu_rule");
    await expect.poll(() => statusesOf(updates, "toolu_rule")).toEqual(["pending", "in_progress"]);
    query.emit(toolResult("toolu_rule", "hi"), result());
    await prompt;
    expect(statusesOf(updates, "toolu_rule")).toEqual(["pending", "in_progress", "completed"]);
    expect(permissionRequests).toEqual([]);
  });

  it("a command the user allows is in_progress once, after the answer", async () => {
    const session = await fakeSession({
      onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow-once" } }),
    });
    const { query, updates, events } = session;
    const prompt = session.agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "run it" }],
    });
    await query.waitForSent(1);
    query.emit(toolUse("toolu_ask", "Bash", { command: "rm -rf build" }));
    await expect.poll(() => statusesOf(updates, "toolu_ask")).toEqual(["pending"]);
    query.preToolUse("toolu_ask");
    await query.canUseTool("Bash", { command: "rm -rf build" }, { toolUseID: "toolu_ask" });
    query.emit(toolResult("toolu_ask", ""), result());
    await prompt;
    expect(statusesOf(updates, "toolu_ask")).toEqual(["pending", "in_progress", "completed"]);
    const order = events.map((e) =>
      e.kind === "update"
        ? ((e.update.update as { status?: string }).status ?? "")
        : "request_permission",
    );
    expect(order.indexOf("request_permission")).toBeLessThan(order.indexOf("in_progress"));
  });
});
