// End-to-end on the ACP v2 draft with the real Claude Code: `tool_call/cancel` stops one
// running command, offered by the call's `capabilities.cancel`; the command's processes are
// gone, the call ends `cancelled`, and the turn goes on to the model's end.
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { startV2E2E, stopAllV2E2E } from "../../support/e2e/v2.js";
import { bashTurn, longCommand, processesWith } from "../../support/e2e-turns/terminal.js";

afterEach(stopAllV2E2E);

describe("tool_call/cancel on v2", () => {
  it("a running command offers cancel and stops within 2 s when asked: its processes are gone, it ends cancelled, the turn ends end_turn", async () => {
    const id = "toolu_v2_cancel";
    const mark = "tick-v2-cancel";
    const e2e = await startV2E2E({
      permission: { answer: "select", optionId: "allow-once" },
      scenario: [
        bashTurn(id, longCommand(mark)),
        { content: [{ type: "text", text: "Stopped." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();
    const ended = e2e.prompt(sessionId, "Run the command.");
    const call = () =>
      e2e
        .updates(sessionId)
        .flatMap((u) => (u.sessionUpdate === "tool_call_update" && u.toolCallId === id ? [u] : []));
    // Output streams once Claude Code has made a task of it.
    await e2e.until(() =>
      e2e.updates(sessionId).some((u) => u.sessionUpdate === "terminal_output_chunk"),
    );
    expect(call()[0]?.capabilities).toEqual({ cancel: {} });
    const askedAt = Date.now();
    expect(
      await e2e.client.request(v2.methods.agent.toolCall.cancel, { sessionId, toolCallId: id }),
    ).toEqual({});
    await e2e.until(() => call().some((u) => u.status === "cancelled"));
    expect(Date.now() - askedAt).toBeLessThan(2_000);
    expect(await ended).toMatchObject({ stopReason: "end_turn" });
    expect(processesWith(mark)).toEqual([]);
  });
});
