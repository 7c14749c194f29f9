// A conversation of three exchanges, for the tests that cut one at a message (fork at a
// message, rewind, edit a prompt): each prompt's id and each of Claude's answers' ids.
import { lastUserText, type TurnSpec } from "../../../scripted-api/index.js";
import type { E2E } from "../e2e/index.js";

/** A model that answers each prompt with "reply to: <the prompt>". */
export const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `reply to: ${lastUserText(request)}` }],
});

/** A session of three exchanges (One., Two., Three.); each prompt's and each answer's id. */
export async function threeExchanges(e2e: E2E) {
  const { sessionId } = await e2e.newSession();
  const answers: Array<{ userMessageId?: string }> = [];
  for (const text of ["One.", "Two.", "Three."]) {
    answers.push((await e2e.prompt(sessionId, text)) as object);
  }
  const replies = [
    ...new Set(e2e.updates.of(sessionId, "agent_message_chunk").map((u) => u.messageId)),
  ];
  return { sessionId, userIds: answers.map((a) => a.userMessageId!), replies };
}
