// End-to-end: a session/cancel applies to the turns that existed when it arrived, never to a
// prompt that arrived after it, even when both come in one write.
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type TurnSpec } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);

const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `reply to: ${lastUserText(request)}` }],
});

const ROUNDS = 20;

describe("a cancel sent just before a prompt", () => {
  it(`in the same write on an idle session leaves the prompt alone (${ROUNDS} of ${ROUNDS} end end_turn with their reply)`, async () => {
    const e2e = await startE2E({ scenario: Array.from({ length: ROUNDS }, () => echo) });
    const { sessionId } = await e2e.newSession();
    const outcomes: unknown[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const id = `cancel-then-prompt-${round}`;
      const from = e2e.transcript.entries.length;
      const cancel = { jsonrpc: "2.0", method: "session/cancel", params: { sessionId } };
      const prompt = {
        jsonrpc: "2.0",
        id,
        method: "session/prompt",
        params: { sessionId, prompt: [{ type: "text", text: `round ${round}` }] },
      };
      await e2e.sendRaw(`${JSON.stringify(cancel)}\n${JSON.stringify(prompt)}\n`);
      const answer = await e2e.transcript.waitFor(
        (e) => e.direction === "from-agent" && e.message?.id === id,
        { from, timeoutMs: 20_000, what: `the answer to ${id}` },
      );
      outcomes.push(answer.message?.result ?? answer.message?.error);
    }

    expect(outcomes).toEqual(
      Array.from({ length: ROUNDS }, (): unknown =>
        expect.objectContaining({ stopReason: "end_turn" }),
      ),
    );
    // From the wire, where each reply precedes its answer (the client's update log may lag).
    const replies = e2e.transcript
      .sessionUpdates()
      .map(({ update: u }) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
          ? u.content.text
          : "",
      )
      .join("");
    for (let round = 1; round <= ROUNDS; round++) {
      expect(replies).toContain(`reply to: round ${round}`);
    }
  });
});
