// End-to-end: a conversation the real Claude Code does not title (its non-essential traffic
// is off, as in every e2e run) gets a title from Claude Code's own title request, sent as
// session_info_update, and a loaded session's title is sent again. When that request gives
// no title, the first prompt makes one.
import { methods, type SessionInfoUpdate } from "@agentclientprotocol/sdk";
import { afterEach, expect, it } from "vitest";
import type { RecordedRequest, Turn } from "../../../scripted-api/index.js";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { isTitleRequest, reopenAgent } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const titled = (request: RecordedRequest): Turn | undefined =>
  isTitleRequest(request)
    ? { content: [{ type: "text", text: JSON.stringify({ title: "Login bug fix" }) }] }
    : undefined;

it("a session Claude Code does not title gets a generated title as session_info_update, and again after session/load", async () => {
  const first = await startE2E({
    scenario: { turns: [{ content: [{ type: "text", text: "On it." }] }], sideReply: titled },
  });
  const { sessionId } = await first.newSession();
  expect((await first.prompt(sessionId, "Fix the login bug.")).stopReason).toBe("end_turn");
  const info = await first.updates.waitFor(sessionId, "session_info_update", (u) => !!u.title);
  expect(info.title).toBe("Login bug fix");
  expect(first.api.sideRequests().filter(isTitleRequest)).toHaveLength(1);

  const second = await reopenAgent(first);
  await second.client.request(methods.agent.session.load, {
    sessionId,
    cwd: first.cwd,
    mcpServers: [],
  });
  const loaded: SessionInfoUpdate = await second.updates.waitFor(
    sessionId,
    "session_info_update",
    (u) => !!u.title,
  );
  expect(loaded.title).toBe("Login bug fix");
});

/** A model that answers Claude Code's title request in plain text, not the JSON it asks for. */
const untitled = (request: RecordedRequest): Turn | undefined =>
  isTitleRequest(request)
    ? { content: [{ type: "text", text: "Sure! A good title: Login bug fix" }] }
    : undefined;

it("a session whose title reply is plain text, not the JSON Claude Code asks for, is titled from its first prompt cut on a word, and titled the same after session/load", async () => {
  const first = await startE2E({
    scenario: { turns: [{ content: [{ type: "text", text: "On it." }] }], sideReply: untitled },
  });
  const { sessionId } = await first.newSession();
  await first.prompt(
    sessionId,
    "Fix the login bug that only shows up on Safari when the session cookie expired",
  );
  const title = "Fix the login bug that only shows up on Safari when the…";

  const info = await first.updates.waitFor(sessionId, "session_info_update", (u) => !!u.title);
  expect(info.title).toBe(title);
  expect(first.api.sideRequests().filter(isTitleRequest)).toHaveLength(1);

  const second = await reopenAgent(first, { scenario: { turns: [], sideReply: untitled } });
  await second.client.request(methods.agent.session.load, {
    sessionId,
    cwd: first.cwd,
    mcpServers: [],
  });
  const loaded = await second.updates.waitFor(sessionId, "session_info_update", (u) => !!u.title);
  expect(loaded.title).toBe(title);
});
