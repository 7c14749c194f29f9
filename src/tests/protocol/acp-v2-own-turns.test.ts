// The ACP v2 draft in process: a turn Claude Code starts itself (a background task's result,
// a wake-up) is foreground work like a prompt's turn: `running`, its updates, then `idle`
// with its stop reason and tokens, in order with the prompts' turns around it; session/cancel
// with no prompt of the client's stops it.
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { describe, expect, it } from "vitest";
import { ownTurnResult, result, streamedText } from "../support/fake-claude.js";
import { foregroundWords, v2Session } from "../support/in-process-v2.js";
import { settle } from "../support/settle.js";

describe("a turn Claude Code starts itself, on v2", () => {
  it("after a prompt's turn: running before its first update, then idle end_turn with its tokens", async () => {
    const { prompt, query, sessionId, updates, states, idle } = await v2Session();
    await Promise.all([prompt("Start a background task."), query.waitForSent(1)]);
    query.emit(...streamedText("m1", "Started."), result());
    await idle(sessionId);

    query.emit(
      ...streamedText("m2", "The task found 42."),
      ownTurnResult({ usage: { input_tokens: 7, output_tokens: 3 } }),
    );
    await idle(sessionId, 2);

    expect(foregroundWords(updates(sessionId))).toEqual([
      "user_message",
      "running",
      "text m1",
      "idle end_turn",
      "running",
      "text m2",
      "idle end_turn",
    ]);
    expect(states(sessionId).at(-1)).toEqual({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "end_turn",
      usage: expect.objectContaining({
        inputTokens: 7,
        outputTokens: 3,
        totalTokens: 10,
      }) as unknown,
    });
  });

  it("a prompt sent while it runs is inserted after its idle: the prompt's user message and running come next", async () => {
    const { prompt, query, sessionId, updates, idle } = await v2Session();
    query.emit(...streamedText("own", "Working on my own."));
    await settle();
    let answered = false;
    const answer = prompt("Next.").then((a) => {
      answered = true;
      return a;
    });
    await settle();
    expect(answered).toBe(false);
    expect(query.sent).toHaveLength(0);

    query.emit(ownTurnResult());
    await query.waitForSent(1);
    const { messageId } = await answer;
    query.emit(...streamedText("mine", "Your answer."), result());
    await idle(sessionId, 2);

    expect(foregroundWords(updates(sessionId))).toEqual([
      "running",
      "text own",
      "idle end_turn",
      "user_message",
      "running",
      "text mine",
      "idle end_turn",
    ]);
    expect(updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: "user_message", messageId }),
    );
  });

  it("that starts while the prompt's idle is still to be sent comes after it", async () => {
    const { prompt, query, sessionId, updates, idle } = await v2Session();
    await Promise.all([prompt("go"), query.waitForSent(1)]);
    // The prompt's result and Claude Code's own turn in one burst.
    query.emit(result(), ...streamedText("own", "More."), ownTurnResult());
    await idle(sessionId, 2);
    expect(foregroundWords(updates(sessionId))).toEqual([
      "user_message",
      "running",
      "idle end_turn",
      "running",
      "text own",
      "idle end_turn",
    ]);
  });

  it("that fails ends idle with stopReason error and the error, after its notice", async () => {
    const { query, sessionId, updates, states, idle } = await v2Session();
    query.emit(
      ...streamedText("own", "Trying."),
      ownTurnResult({ isError: true, text: "Overloaded" }),
    );
    await idle(sessionId);
    expect(states(sessionId).at(-1)).toEqual({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: "Internal error: Overloaded" },
    });
    const kinds = updates(sessionId).map((u) => u.sessionUpdate);
    expect(kinds.indexOf("notice")).toBeLessThan(kinds.lastIndexOf("state_update"));
  });

  it("whose process dies ends idle with stopReason error, and the next prompt is served", async () => {
    const { prompt, query, claude, sessionId, states, idle } = await v2Session();
    query.emit(...streamedText("own", "Trying."));
    await settle();
    query.end(new Error("crashed"));
    await idle(sessionId);
    expect(states(sessionId).at(-1)).toMatchObject({
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: expect.stringContaining("Claude Code exited") as unknown },
    });

    const next = claude.nextStart();
    void prompt("Again.");
    const fresh = await next;
    await fresh.waitForSent(1);
    fresh.emit(result());
    await idle(sessionId, 2);
    expect(states(sessionId).map((s) => s.state)).toEqual(["running", "idle", "running", "idle"]);
  });

  it("session/cancel while it runs, with no prompt of the client's, interrupts it: idle cancelled, no failure notice", async () => {
    const { agent, query, sessionId, updates, states, idle } = await v2Session();
    query.onInterrupt = () => query.emit(ownTurnResult({ subtype: "error_during_execution" }));
    query.emit(...streamedText("own", "Working on my own."));
    await settle();
    await agent.notify(v2.methods.agent.session.cancel, { sessionId });
    await idle(sessionId);
    expect(query.interrupts).toBe(1);
    expect(states(sessionId).map((s) => [s.state, "stopReason" in s ? s.stopReason : ""])).toEqual([
      ["running", ""],
      ["idle", "cancelled"],
    ]);
    expect(JSON.stringify(updates(sessionId))).not.toContain("turn_error");
  });

  it("session/close while it runs reports idle cancelled before the answer, and nothing of it after", async () => {
    const { agent, query, sessionId, updates, states } = await v2Session();
    query.emit(...streamedText("own", "Working."));
    await settle();
    await agent.request(v2.methods.agent.session.close, { sessionId });
    expect(states(sessionId).map((s) => [s.state, "stopReason" in s ? s.stopReason : ""])).toEqual([
      ["running", ""],
      ["idle", "cancelled"],
    ]);
    const before = updates(sessionId).length;
    query.emit(...streamedText("own2", "After the close."), ownTurnResult());
    await settle();
    expect(updates(sessionId)).toHaveLength(before);
  });

  it("a result that comes while the user's turn runs is not a turn of its own: no state is reported for it", async () => {
    const { prompt, query, sessionId, states, idle } = await v2Session();
    await Promise.all([prompt("go"), query.waitForSent(1)]);
    query.emit(...streamedText("m1", "Working."), ownTurnResult());
    await settle();
    expect(states(sessionId).map((s) => s.state)).toEqual(["running"]);
    query.emit(result());
    await idle(sessionId);
    expect(states(sessionId).map((s) => s.state)).toEqual(["running", "idle"]);
  });
});
