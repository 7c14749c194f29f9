// End-to-end on the ACP v2 draft: a v2 client over stdio, the built agent, the real Claude
// Code and the scripted API. The prompt lifecycle and the session lifecycle with Claude
// Code's real transcripts: cancel, close, resume with replay.
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { systemText } from "../../../scripted-api/index.js";
import { textTurn } from "../../support/audit/project.js";
import { startV2E2E, stopAllV2E2E } from "../../support/e2e/v2.js";

afterEach(stopAllV2E2E);

describe("a v2 session with the real Claude Code", () => {
  it("takes the system prompt RFD: advertised in initialize, and an override replaces Claude Code's prompt", async () => {
    const e2e = await startV2E2E({ scenario: [textTurn("Omega here.")] });
    const init = await e2e.initialize();
    expect(init.capabilities?.session).toMatchObject({ systemPrompt: { mode: { override: {} } } });
    const { sessionId } = await e2e.client.request(v2.methods.agent.session.new, {
      cwd: e2e.cwd,
      systemPrompt: { mode: "override", content: [{ type: "text", text: "You are Omega." }] },
    });
    expect((await e2e.prompt(sessionId, "Who?")).stopReason).toBe("end_turn");
    const system = systemText(e2e.api.mainRequests().at(-1)!);
    expect(system).toContain("You are Omega.");
    expect(system).not.toContain("You are Claude Code");
  });

  it("a prompt is answered with its message id, streams under Claude's message id, and ends idle end_turn; resume from the start replays it, then reports idle", async () => {
    const e2e = await startV2E2E({ scenario: [textTurn("Hello from Claude.")] });
    const { sessionId } = await e2e.newSession();

    const { messageId, stopReason } = await e2e.prompt(sessionId, "Say hello.");
    expect(stopReason).toBe("end_turn");
    const live = e2e.updates(sessionId);
    expect(live).toContainEqual({
      sessionUpdate: "user_message",
      messageId,
      content: [{ type: "text", text: "Say hello." }],
    });
    const text = live.flatMap((u) => {
      if (u.sessionUpdate !== "agent_message_chunk") return [];
      const { content } = u as v2.ContentChunk;
      return content.type === "text" ? [(content as v2.TextContent).text] : [];
    });
    expect(text.join("")).toBe("Hello from Claude.");

    await e2e.client.request(v2.methods.agent.session.close, { sessionId });
    const from = e2e.transcript.entries.length;
    await e2e.client.request(v2.methods.agent.session.resume, {
      sessionId,
      cwd: e2e.cwd,
      replayFrom: { type: "start" },
    });
    // As sent: the SDK client may hand the answer over before the updates that preceded it.
    const resume = e2e.transcript.calls("session/resume", "to-agent").at(-1)!;
    const answer = e2e.transcript.responseTo(resume)!;
    const replayed = e2e.transcript.entries
      .slice(from)
      .filter((e) => e.seq < answer.seq && e.message?.method === "session/update")
      .map((e) => (e.message?.params as v2.UpdateSessionNotification).update)
      .filter((u) => u.sessionUpdate !== "available_commands_update");
    // The replayed user message keeps the id its live echo had: Claude Code's.
    expect(replayed.at(0)).toMatchObject({
      sessionUpdate: "user_message_chunk",
      messageId,
      content: { type: "text", text: "Say hello." },
    });
    expect(replayed).toContainEqual(
      expect.objectContaining({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "Hello from Claude." },
      }),
    );
    expect(replayed.at(-1)).toEqual({ sessionUpdate: "state_update", state: "idle" });
  });

  it("session/cancel while Claude streams ends the turn idle cancelled, and the next prompt is served", async () => {
    const e2e = await startV2E2E({
      scenario: [
        { content: [{ type: "text", text: "slow ".repeat(200) }], delayMs: 20 },
        textTurn("Back."),
      ],
    });
    const { sessionId } = await e2e.newSession();
    const turn = e2e.prompt(sessionId, "Talk slowly.");
    await e2e.until(() =>
      e2e.updates(sessionId).some((u) => u.sessionUpdate === "agent_message_chunk"),
    );
    await e2e.client.notify(v2.methods.agent.session.cancel, { sessionId });
    expect(await turn).toMatchObject({ stopReason: "cancelled" });
    expect(await e2e.prompt(sessionId, "Again.")).toMatchObject({ stopReason: "end_turn" });
  });
});
