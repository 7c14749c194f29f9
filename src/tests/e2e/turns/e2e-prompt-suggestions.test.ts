// End-to-end on the real Claude Code: a client that asks for prompt suggestions gets Claude
// Code's prediction of its next prompt after a turn (as session_info_update
// _meta.promptSuggestions), and the next prompt clears it. Claude Code predicts only once a
// conversation has two answers, and only from a warm prompt cache.
import { afterEach, expect, it } from "vitest";
import {
  isPromptSuggestionRequest,
  type RecordedRequest,
  type TurnSpec,
} from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);

const WARM = {
  input_tokens: 100,
  output_tokens: 10,
  cache_read_input_tokens: 5_000,
  cache_creation_input_tokens: 50,
};
const answer = (text: string): TurnSpec => ({ content: [{ type: "text", text }], usage: WARM });
const PREDICTED = "Run the tests now";

it("a client that asks gets Claude Code's prediction of its next prompt, and its next prompt clears it", async () => {
  const e2e = await startE2E({
    // Claude Code's own switch: its remote flag, out of reach here, decides otherwise.
    env: { CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: "1" },
    clientCapabilities: { _meta: { claudeCode: { promptSuggestions: true } } },
    scenario: {
      turns: [answer("One."), answer("Two."), answer("Three.")],
      sideReply: (request: RecordedRequest) =>
        isPromptSuggestionRequest(request.body)
          ? { content: [{ type: "text", text: PREDICTED }], usage: WARM }
          : undefined,
    },
  });
  const { sessionId } = await e2e.newSession();
  const suggestions = () =>
    e2e.updates
      .of(sessionId, "session_info_update")
      .filter((u) => u._meta?.promptSuggestions !== undefined)
      .map((u) => u._meta!.promptSuggestions);

  await e2e.prompt(sessionId, "First.");
  await e2e.prompt(sessionId, "Second.");
  await e2e.updates.waitFor(
    sessionId,
    "session_info_update",
    (u) => u._meta?.promptSuggestions !== undefined,
  );
  expect(suggestions()).toEqual([{ suggestions: [{ text: PREDICTED }] }]);

  await e2e.prompt(sessionId, "Third.");
  expect(suggestions().slice(0, 2)).toEqual([
    { suggestions: [{ text: PREDICTED }] },
    { suggestions: [] },
  ]);
  // The predictions are Claude Code's side requests: every turn of the script went to a prompt.
  expect(e2e.api.mainRequests()).toHaveLength(3);
});
