// End-to-end on the real Claude Code (issue 55 item 6): session/fork with a `messageId` forks
// the conversation as it stood at that message, one of Claude's (its chunks' id) or a prompt
// (its answer's userMessageId); the session itself is untouched, an id it does not hold is
// refused.
import { afterEach, expect, it } from "vitest";
import type { TurnSpec } from "../../../scripted-api/index.js";
import { shareAgents, startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { echo, threeExchanges } from "../../support/e2e-sessions/exchanges.js";
import { conversation, INVALID_PARAMS, rawError } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);
shareAgents();

async function forkAt(e2e: E2E, sessionId: string, messageId: string | null | undefined) {
  return e2e.client.request<{ sessionId: string }>("session/fork", {
    sessionId,
    cwd: e2e.cwd,
    mcpServers: [],
    messageId,
  });
}

it("a fork at Claude's first answer continues from there: the fork's next request holds the first exchange alone, and the session goes on whole", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId, replies } = await threeExchanges(e2e);
  expect(replies).toHaveLength(3);

  const fork = await forkAt(e2e, sessionId, replies[0]);
  expect(fork.sessionId).not.toBe(sessionId);
  await e2e.prompt(fork.sessionId, "Forked.");
  expect(conversation(e2e.api.lastMainRequest()!)).toEqual([
    "user: One.",
    "assistant: reply to: One.",
    "user: Forked.",
  ]);
  await e2e.prompt(sessionId, "Four.");
  expect(conversation(e2e.api.lastMainRequest()!).join("\n")).toContain("reply to: Three.");
});

it("a fork at a prompt (its userMessageId) keeps that prompt and nothing after it", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId, userIds } = await threeExchanges(e2e);
  const fork = await forkAt(e2e, sessionId, userIds[1]);
  await e2e.prompt(fork.sessionId, "Forked.");
  const asked = conversation(e2e.api.lastMainRequest()!);
  expect(asked.slice(0, 3)).toEqual(["user: One.", "assistant: reply to: One.", "user: Two."]);
  expect(asked.join("\n")).not.toContain("reply to: Two.");
  expect(asked.at(-1)).toBe("user: Forked.");
});

it("a messageId the session does not hold is refused as invalid params, and nothing is forked", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId } = await e2e.newSession();
  await e2e.prompt(sessionId, "One.");
  const before = (await e2e.client.request<{ sessions: unknown[] }>("session/list", {})).sessions;
  const error = await rawError(e2e, "session/fork", {
    sessionId,
    cwd: e2e.cwd,
    mcpServers: [],
    messageId: "msg_not_here",
  });
  expect(error?.code).toBe(INVALID_PARAMS);
  const after = (await e2e.client.request<{ sessions: unknown[] }>("session/list", {})).sessions;
  expect(after).toHaveLength(before.length);
});
