// End-to-end: `_session/cancel_tool_call` stops one running command and not the turn. The
// command's processes are gone, Claude Code gives the model the call's result as stopped, the
// model's next turn runs, and the prompt ends as the model ends it. The built agent, the real
// Claude Code binary, the scripted Anthropic API.
import { afterEach, describe, expect, it } from "vitest";
import { toolResults } from "../../../scripted-api/index.js";
import { CANCEL_TOOL_CALL_METHOD } from "../../../acp/tool-call-cancel.js";
import { ZED } from "../../support/client-handshakes.js";
import { shareAgents, startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { toolCallEvents } from "../../support/e2e-turns/index.js";
import { bashTurn, longCommand, metaOf, processesWith } from "../../support/e2e-turns/terminal.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

async function start(id: string, mark: string) {
  const e2e = await startE2E({
    permission: { answer: "select", optionId: "allow-once" },
    clientCapabilities: ZED.clientCapabilities,
    scenario: [bashTurn(id, longCommand(mark)), { content: [{ type: "text", text: "Stopped." }] }],
  });
  const { sessionId } = await e2e.newSession();
  const prompt = e2e.prompt(sessionId, "Run the command.");
  return { e2e, sessionId, prompt };
}

const cancel = (e2e: E2E, sessionId: string, toolCallId: string) =>
  e2e.rawRequest(CANCEL_TOOL_CALL_METHOD, { sessionId, toolCallId });

const ended = (e2e: E2E, sessionId: string, id: string) =>
  e2e.updates.waitFor(
    sessionId,
    "tool_call_update",
    (u) => u.toolCallId === id && (u.status === "failed" || u.status === "completed"),
  );

describe("_session/cancel_tool_call", () => {
  it("stops a running command within 2 s: its processes are gone, the model reads that it was stopped, and the turn ends as the model ends it", async () => {
    const id = "toolu_cancel_running";
    const mark = "tick-cancel-running";
    const { e2e, sessionId, prompt } = await start(id, mark);
    // Its output streams once Claude Code has made a task of it.
    await e2e.updates.waitFor(sessionId, "tool_call_update", (u) =>
      Boolean(u.toolCallId === id && metaOf(u).terminal_output?.data.includes(mark)),
    );
    const askedAt = Date.now();
    expect(await cancel(e2e, sessionId, id)).toMatchObject({ result: {} });
    expect((await ended(e2e, sessionId, id)).status).toBe("failed");
    expect(Date.now() - askedAt).toBeLessThan(2_000);
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(processesWith(mark)).toEqual([]);
    const [result] = toolResults(e2e.api.mainRequests().at(-1)!);
    expect(result).toMatchObject({ tool_use_id: id, is_error: true });
    expect(result!.text).toMatch(/^Exit code 137\b/);
    // The model's answer after it is shown: the turn went on.
    expect(e2e.updates.of(sessionId, "agent_message_chunk").length).toBeGreaterThan(0);
    // Over now: a second cancel, or one of an id never seen, is refused with -32602.
    expect((await cancel(e2e, sessionId, id)).error?.code).toBe(-32602);
    expect((await cancel(e2e, sessionId, "toolu_never")).error?.code).toBe(-32602);
  });

  it("asked before Claude Code made a task of the command, stops it as soon as it does: the 30 s command ends in a few", async () => {
    const id = "toolu_cancel_early";
    const mark = "tick-cancel-early";
    const { e2e, sessionId, prompt } = await start(id, mark);
    await e2e.updates.waitFor(
      sessionId,
      "tool_call_update",
      (u) => u.toolCallId === id && u.status === "in_progress",
    );
    const askedAt = Date.now();
    expect(await cancel(e2e, sessionId, id)).toMatchObject({ result: {} });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(Date.now() - askedAt).toBeLessThan(8_000);
    expect(toolCallEvents(e2e, sessionId, id).at(-1)?.status).toBe("failed");
    expect(processesWith(mark)).toEqual([]);
  });
});
