// End-to-end on the ACP v2 draft: `_session/steering` from a v2 client on the real Claude
// Code. A steer sent while a tool runs reaches the model within the same turn, and the turn
// ends idle once, after the reply to it.
import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { STEERING_METHOD, type SteeringResponse } from "../../../acp/steering.js";
import { lastUserText, toolResults } from "../../../scripted-api/index.js";
import { echo, STEER, waitingTurn } from "../../support/e2e-turns/steering.js";
import { startV2E2E, stopAllV2E2E } from "../../support/e2e/v2.js";

afterEach(stopAllV2E2E);

describe("_session/steering on v2 with the real Claude Code", { timeout: 90_000 }, () => {
  it("a steer sent while a tool runs reaches the model with the tool's result, in the same turn, which ends idle once, after the reply", async () => {
    const e2e = await startV2E2E({
      scenario: [waitingTurn("Waiting first."), echo],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    const turn = e2e.prompt(sessionId, "Wait a bit.");
    await e2e.until(() =>
      e2e.updates(sessionId).some((u) => u.sessionUpdate === "tool_call_update"),
    );
    expect(
      await e2e.client.request<SteeringResponse>(STEERING_METHOD, {
        sessionId,
        prompt: [{ type: "text", text: STEER }],
      }),
    ).toEqual({ outcome: "injected" });
    expect(await turn).toMatchObject({ stopReason: "end_turn" });

    const main = e2e.api.mainRequests();
    expect(main).toHaveLength(2);
    expect(JSON.stringify(main[0]!.body)).not.toContain(STEER);
    // The second request of the same turn carries both the tool's result and the steer.
    expect(toolResults(main[1]!)).toEqual([expect.objectContaining({ text: "slept" })]);
    expect(lastUserText(main[1]!)).toContain(STEER);

    // One turn: running once, the reply to the steer, then its one idle.
    const updates = e2e.updates(sessionId);
    const states = updates.flatMap((u) =>
      u.sessionUpdate === "state_update" ? [(u as v2.StateUpdate).state] : [],
    );
    expect(states[0]).toBe("running");
    expect(states.filter((s) => s === "idle")).toEqual(["idle"]);
    expect(states.at(-1)).toBe("idle");
    const reply = updates.findIndex(
      (u) => u.sessionUpdate === "agent_message_chunk" && JSON.stringify(u).includes("I read: "),
    );
    expect(reply).toBeGreaterThan(-1);
    const idle = updates.findIndex(
      (u) => u.sessionUpdate === "state_update" && (u as v2.StateUpdate).state === "idle",
    );
    expect(reply).toBeLessThan(idle);
    expect(updates.filter((u) => u.sessionUpdate === "user_message")).toHaveLength(1);
  });
});
