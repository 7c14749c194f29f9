// End-to-end: a Claude Code process that stops answering (here: SIGSTOP) is found out by the
// watchdog, ended with escalation, and the session recovers as after a crash. Silence alone
// is not a hang. The agent never leaves a Claude Code process behind when it exits.
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type TurnSpec } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E, timed } from "../../support/e2e/index.js";
import {
  conversation,
  inOrder,
  INTERNAL_ERROR,
  failure,
  processEnds,
  signalClaude,
} from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);

/** Short bounds keep these tests fast: silent 1 s, then 1 s for the status request. */
const HANG_ENV = { CLAUDE_AGENT_ACP_HANG_TIMEOUT_MS: "1000" };

const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `reply to: ${lastUserText(request)}` }],
});
const slow: TurnSpec = {
  content: [{ type: "text", text: "slow ".repeat(40), chunks: 40 }],
  delayMs: 250,
};

describe("a Claude Code process that stops answering", () => {
  it("fails the prompt with a clear error in bounded time, is ended, and the next prompt resumes the conversation", async () => {
    const e2e = await startE2E({ scenario: [echo, echo, echo], env: HANG_ENV });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Remember the word PAPAYA.");
    const stopped = await signalClaude(e2e, sessionId, "SIGSTOP");

    const { value: error, ms } = await timed(failure(e2e.prompt(sessionId, "Are you there?")));

    expect(ms).toBeLessThan(6_000);
    expect(error.code).toBe(INTERNAL_ERROR);
    expect(error.message).toMatch(/Claude Code stopped responding/);
    expect(error.message).toMatch(/next prompt resumes the conversation/);
    expect(await processEnds(e2e, stopped)).toBe(true);

    expect(await e2e.prompt(sessionId, "And now?")).toMatchObject({ stopReason: "end_turn" });
    const expected = [
      "user: Remember the word PAPAYA.",
      "assistant: reply to: Remember the word PAPAYA.",
      "user: And now?",
    ];
    expect(inOrder(conversation(e2e.api.lastMainRequest()!), expected)).toEqual(expected);
  });

  it("is not a quiet one: a model that keeps Claude Code silent longer than the bounds ends end_turn", async () => {
    const e2e = await startE2E({
      scenario: [{ content: [{ type: "text", text: "worth the wait" }], firstByteDelayMs: 3_500 }],
      env: HANG_ENV,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Take your time.")).toMatchObject({
      stopReason: "end_turn",
    });
    expect(e2e.log()).not.toMatch(/stopped responding/);
  });

  it("after a cancel: the prompt ends cancelled and the next prompt is answered promptly", async () => {
    const e2e = await startE2E({ scenario: [echo, slow, echo], env: HANG_ENV });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Hello.");
    const prompt = e2e.prompt(sessionId, "Talk slowly.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk", (u) =>
      JSON.stringify(u.content).includes("slow"),
    );
    const stopped = await signalClaude(e2e, sessionId, "SIGSTOP");

    await e2e.cancel(sessionId);
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    const { value: next, ms } = await timed(e2e.prompt(sessionId, "Back?"));

    expect(next).toMatchObject({ stopReason: "end_turn" });
    expect(ms).toBeLessThan(6_000);
    expect(await processEnds(e2e, stopped)).toBe(true);
  });
});

describe("the agent's exit", () => {
  it("leaves no Claude Code process behind, even a stopped one", async () => {
    const e2e = await startE2E({ scenario: [echo] });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Hello.");
    await signalClaude(e2e, sessionId, "SIGSTOP");

    e2e.closeStdin();
    const { value: exit, ms } = await timed(e2e.agent.exited);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(5_000);
    expect(await e2e.survivors(3_000)).toEqual([]);
  });
});
