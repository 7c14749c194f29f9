// AIR's subagents (issue 52): with `nativeSubagentSessions` declared, each subagent is a child
// session in AIR's draft: `subagent_spawned` on its parent before its traffic, its traffic and
// requests in its own session, `subagent_state_update` when it ends, and work after its end a new
// generation under an id of its own; none of ACP's unstable subagent updates. With
// `backgroundSubagents`, the prompt is answered at its turn's result while a background
// subagent still works, its traffic following.
import { describe, expect, it } from "vitest";
import { initializeResponse } from "../../../acp/capabilities.js";
import { AIR } from "../../support/client-handshakes.js";
import { assistant, result, toolResult } from "../../support/fake-claude.js";
import { settle } from "../../support/settle.js";
import type { SeenEvent } from "../../support/subagent-client.js";
import {
  AGENT_CALL,
  subagentRuns as runs,
  sendMessageAgain,
  taskNotification,
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
    expect(shown.filter((s) => s.update.sessionUpdate === "subagent_state_update")).toEqual([
      {
        sessionId,
        update: {
          sessionUpdate: "subagent_state_update",
          subagentSessionId: child,
          state: "completed",
        },
      },
    ]);
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
