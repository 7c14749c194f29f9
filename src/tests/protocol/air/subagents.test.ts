// AIR's subagents (issue 52): with `nativeSubagentSessions` declared, each subagent is a child
// session in AIR's draft: `subagent_spawned` on its parent before its traffic, its traffic and
// requests in its own session, `subagent_state_update` when it ends, and work after its end a new
// generation under an id of its own; none of ACP's unstable subagent updates. The Agent call that
// launched it is not shown in the parent, unless it asks the user or fails before any child. With
// `backgroundSubagents`, the prompt is answered at its turn's result while a background
// subagent still works, its traffic following.
import { describe, expect, it } from "vitest";
import { initializeResponse } from "../../../acp/capabilities.js";
import { AIR, ZED } from "../../support/client-handshakes.js";
import { assistant, result, toolResult, toolUse } from "../../support/fake-claude.js";
import { sessionCwd, subagentClient } from "../../support/subagent-client.js";
import { fakeTranscripts } from "../../support/fake-transcripts.js";
import type { ClaudeTranscriptMessage } from "../../../claude/transcripts.js";
import { START_UPDATES } from "../../support/in-process.js";
import { randomUUID } from "node:crypto";
import { methods } from "@agentclientprotocol/sdk";
import { settle } from "../../support/settle.js";
import type { SeenEvent } from "../../support/subagent-client.js";
import {
  AGENT_CALL,
  LAUNCH,
  subagentRuns as runs,
  sendMessageAgain,
  taskNotification,
  taskStarted,
} from "../../support/subagent-script.js";

const AIR_SUBAGENTS = {
  ...AIR.clientCapabilities,
  _meta: {
    jetbrains: {
      air: { version: 1, capabilities: ["nativeSubagentSessions", "backgroundSubagents"] },
    },
  },
};

type Update = { sessionUpdate: string; [key: string]: unknown };
/** What the client saw, in order, each update as it came on the wire (AIR's too). */
const seen = (events: SeenEvent[]): Array<{ sessionId: string; update: Update }> =>
  events.map((e) =>
    e.kind === "update"
      ? { sessionId: e.notification.sessionId, update: e.notification.update }
      : { sessionId: e.request.sessionId, update: { sessionUpdate: "permission" } },
  );

/** The one end AIR hears of a child that completed, on its parent. */
const completedOn = (sessionId: string, child: string) => [
  {
    sessionId,
    update: {
      sessionUpdate: "subagent_state_update",
      subagentSessionId: child,
      state: "completed",
    },
  },
];

describe("AIR's nativeSubagentSessions", () => {
  it("is advertised to AIR with backgroundSubagents", () => {
    const advertised = (
      initializeResponse(AIR)._meta as { jetbrains: { air: { capabilities: string[] } } }
    ).jetbrains.air.capabilities;
    expect(advertised).toEqual(
      expect.arrayContaining(["nativeSubagentSessions", "backgroundSubagents"]),
    );
  });

  it("a subagent is announced with subagent_spawned before its traffic, works and asks in its own session, and ends with subagent_state_update completed", async () => {
    const { events, query, sessionId, response } = await runs(false, {
      clientCapabilities: AIR_SUBAGENTS,
    });
    query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    expect(await response).toMatchObject({ stopReason: "end_turn" });
    await settle();
    const shown = seen(events);
    const spawned = shown.find((s) => s.update.sessionUpdate === "subagent_spawned")!;
    expect(spawned.sessionId).toBe(sessionId);
    const child = spawned.update.subagentSessionId as string;
    expect(spawned.update).toEqual({
      sessionUpdate: "subagent_spawned",
      subagentSessionId: child,
      name: "Look around",
      task: "List the files",
      prompt: "List the files",
      capabilities: {},
    });
    const first = shown.findIndex((s) => s.sessionId === child);
    expect(shown.indexOf(spawned)).toBeLessThan(first);
    expect(shown.filter((s) => s.sessionId === child).map((s) => s.update.sessionUpdate)).toEqual(
      expect.arrayContaining(["tool_call", "permission", "agent_message_chunk"]),
    );
    expect(shown.at(-1)).toBeDefined();
    expect(shown.filter((s) => s.update.sessionUpdate === "subagent_state_update")).toEqual(
      completedOn(sessionId, child),
    );
    expect(JSON.stringify(shown)).not.toMatch(/subagent_update"|session_message/);
  });

  it("a failed subagent ends failed; work after its end is a new generation, announced anew under its own id", async () => {
    const { agent, events, query, sessionId, response } = await runs(false, {
      clientCapabilities: AIR_SUBAGENTS,
    });
    query.emit(
      taskNotification("failed"),
      toolResult(AGENT_CALL, "It failed.", { isError: true }),
      result(),
    );
    await response;
    await settle();
    const ended = seen(events).filter((s) => s.update.sessionUpdate === "subagent_state_update");
    expect(ended.map((s) => s.update.state)).toEqual(["failed"]);
    const child = ended[0]!.update.subagentSessionId as string;

    await sendMessageAgain({ agent, query, sessionId });
    const shown = seen(events);
    const spawns = shown.filter((s) => s.update.sessionUpdate === "subagent_spawned");
    expect(spawns.map((s) => s.update.subagentSessionId)).toEqual([child, `${child}:generation:2`]);
    expect(spawns[1]!.update).toMatchObject({ prompt: "And b.txt?" });
    expect(
      shown.some(
        (s) =>
          s.sessionId === `${child}:generation:2` &&
          s.update.sessionUpdate === "agent_message_chunk",
      ),
    ).toBe(true);
    expect(
      shown
        .filter((s) => s.update.sessionUpdate === "subagent_state_update")
        .map((s) => [s.update.subagentSessionId, s.update.state]),
    ).toEqual([
      [child, "failed"],
      [`${child}:generation:2`, "completed"],
    ]);
  });
});

describe("AIR's child sessions show the work, not the Agent call that launched it", () => {
  /** The updates of the launching call the parent session showed. */
  const launchShown = (events: SeenEvent[], sessionId: string) =>
    seen(events).filter((s) => s.sessionId === sessionId && s.update.toolCallId === AGENT_CALL);

  it("a subagent's Agent call, its updates and its result are not shown in the parent; Zed's parent shows them", async () => {
    const air = await runs(false, { clientCapabilities: AIR_SUBAGENTS });
    air.query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    await air.response;
    await settle();
    expect(launchShown(air.events, air.sessionId)).toEqual([]);

    const zed = await runs(false, { clientCapabilities: ZED.clientCapabilities! });
    zed.query.emit(toolResult(AGENT_CALL, "There is a.txt."), result());
    await zed.response;
    await settle();
    expect(launchShown(zed.events, zed.sessionId).map((s) => s.update.sessionUpdate)).toContain(
      "tool_call",
    );
  });

  /** A turn whose Agent call (an unknown agent type) fails before any subagent starts. */
  async function failedLaunch(ask: boolean) {
    const client = await subagentClient({ clientCapabilities: AIR_SUBAGENTS });
    const { agent, query, sessionId, events } = client;
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Explore" }],
    });
    await query.waitForSent(1);
    const input = { description: "Bad", prompt: "Go", subagent_type: "nope" };
    query.emit(toolUse(AGENT_CALL, "Agent", input));
    await settle();
    if (ask) await query.canUseTool("Agent", input, { toolUseID: AGENT_CALL });
    query.emit(toolResult(AGENT_CALL, "Agent type 'nope' not found", { isError: true }), result());
    await response;
    await settle();
    return { events, sessionId };
  }

  it("a launch that fails before any child session is shown once, as a failed call with its reason, unmarked as a subagent", async () => {
    const { events, sessionId } = await failedLaunch(false);
    const shown = launchShown(events, sessionId);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.update).toMatchObject({
      sessionUpdate: "tool_call",
      status: "failed",
      title: "Bad",
    });
    expect(JSON.stringify(shown[0]!.update)).toContain("Agent type 'nope' not found");
    expect(JSON.stringify(shown[0]!.update)).not.toContain('"subagent"');
  });

  it("a launch the user is asked about is shown before the ask, and its end follows", async () => {
    const { events, sessionId } = await failedLaunch(true);
    const order = seen(events)
      .filter((s) => s.update.toolCallId === AGENT_CALL || s.update.sessionUpdate === "permission")
      .map((s) => [s.update.sessionUpdate, s.update.status]);
    expect(order[0]).toEqual(["tool_call", "pending"]);
    expect(order).toContainEqual(["permission", undefined]);
    expect(order.at(-1)).toEqual(["tool_call_update", "failed"]);
    expect(launchShown(events, sessionId).length).toBeGreaterThan(1);
  });
});

describe("AIR's skill key in a child session", () => {
  it("a Skill call a subagent makes, shown in its child session, names the skill's file", async () => {
    const skill = "/project/.claude/skills/greet/SKILL.md";
    const { agent, query, sessionId, events } = await subagentClient({
      clientCapabilities: AIR_SUBAGENTS,
      claude: {
        commands: [{ name: "greet", description: "Greets", argumentHint: "" }],
        skillFiles: [{ name: "greet", path: skill }],
      },
    });
    await expect.poll(() => JSON.stringify(events)).toContain("skillPath");
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Explore" }],
    });
    await query.waitForSent(1);
    query.emit(toolUse(AGENT_CALL, "Agent", LAUNCH), taskStarted(false));
    query.emit(toolUse("toolu_skill", "Skill", { skill: "greet" }, AGENT_CALL));
    query.emit(
      toolResult("toolu_skill", "Loaded.", { parent: AGENT_CALL }),
      toolResult(AGENT_CALL, "Greeted."),
      result(),
    );
    await response;
    const call = seen(events).find(
      (s) => s.update.sessionUpdate === "tool_call" && s.update.toolCallId === "toolu_skill",
    )!;
    expect(call.sessionId).not.toBe(sessionId);
    expect(call.update._meta).toMatchObject({
      jetbrains: { air: { skill: { name: "greet", path: skill } } },
    });
  });
});

describe("AIR's backgroundSubagents", () => {
  it("the prompt is answered at its turn's result while a background subagent works; its traffic and its end follow the answer", async () => {
    const { events, query, response } = await runs(true, { clientCapabilities: AIR_SUBAGENTS });
    query.emit(assistant("msg-main", [{ type: "text", text: "Launched it." }]), result());
    expect(await response).toMatchObject({ stopReason: "end_turn" });
    const answeredAt = events.length;
    query.emit(taskNotification("completed"));
    await settle();
    const after = seen(events.slice(answeredAt));
    expect(after.map((s) => [s.update.sessionUpdate, s.update.state])).toContainEqual([
      "subagent_state_update",
      "completed",
    ]);
  });
});

describe("AIR's subagents on session/load", () => {
  /** A message of a saved transcript, `at` seconds in. */
  const saved = (
    type: "user" | "assistant",
    content: unknown,
    at: number,
    thread: string | null = null,
  ) =>
    ({
      type,
      uuid: randomUUID(),
      session_id: "saved",
      message: { ...(type === "assistant" ? { id: `msg-${at}` } : {}), role: type, content },
      parent_tool_use_id: thread,
      parent_agent_id: null,
      timestamp: new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(),
    }) as ClaudeTranscriptMessage;

  it("a saved subagent replays as it ran: subagent_spawned on the parent, its work in its child session, subagent_state_update completed, and no Agent call in the parent", async () => {
    const sessionId = randomUUID();
    const cwd = sessionCwd();
    const transcripts = fakeTranscripts();
    const launch = {
      description: "Look around",
      prompt: "List the files",
      subagent_type: "Explore",
    };
    transcripts.add({ sessionId, cwd }, [
      saved("user", [{ type: "text", text: "Explore" }], 1),
      saved("assistant", [{ type: "tool_use", id: AGENT_CALL, name: "Agent", input: launch }], 2),
      saved(
        "user",
        [{ type: "tool_result", tool_use_id: AGENT_CALL, content: "There is a.txt." }],
        7,
      ),
      saved("assistant", [{ type: "text", text: "MAIN-DONE" }], 8),
    ]);
    transcripts.addSubagent(sessionId, {
      agentId: "a1b2c3",
      messages: [
        saved("user", launch.prompt, 3, AGENT_CALL),
        saved(
          "assistant",
          [{ type: "tool_use", id: "toolu_ls", name: "Bash", input: { command: "ls" } }],
          4,
          AGENT_CALL,
        ),
        saved(
          "user",
          [{ type: "tool_result", tool_use_id: "toolu_ls", content: "a.txt" }],
          5,
          AGENT_CALL,
        ),
        saved("assistant", [{ type: "text", text: "There is a.txt." }], 6, AGENT_CALL),
      ],
    });
    const { events } = await subagentClient({
      transcripts,
      cwd,
      open: { sessionId, method: "load" },
      clientCapabilities: AIR_SUBAGENTS,
    });
    const shown = seen(events).filter((s) => !START_UPDATES.has(s.update.sessionUpdate));
    const spawned = shown.find((s) => s.update.sessionUpdate === "subagent_spawned")!;
    const child = spawned.update.subagentSessionId as string;
    const lines = shown.map(
      (s) =>
        `${s.sessionId === sessionId ? "parent" : s.sessionId === child ? "child" : s.sessionId} ${s.update.sessionUpdate}`,
    );
    expect(lines[0]).toBe("parent user_message_chunk");
    expect(lines).toContain("child tool_call");
    expect(lines.indexOf("parent subagent_spawned")).toBeLessThan(lines.indexOf("child tool_call"));
    expect(lines.filter((l) => l.startsWith("child")).at(-1)).toBe("child agent_message_chunk");
    expect(shown.filter((s) => s.update.sessionUpdate === "subagent_state_update")).toEqual(
      completedOn(sessionId, child),
    );
    expect(lines.at(-1)).toBe("parent agent_message_chunk");
    expect(shown.filter((s) => s.update.toolCallId === AGENT_CALL)).toEqual([]);
    expect(JSON.stringify(shown)).not.toMatch(/subagent_update"|session_message/);
  });
});
