// End-to-end: one agent, many sessions at once. Each session is its own Claude Code process
// (8 here: more than a client's panes usually hold, and each start costs about a second of CPU
// on CI's two cores), and every update must reach the client under the session it
// belongs to while all the prompts stream at the same time.
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type TurnSpec } from "../../../scripted-api/index.js";
import { startE2E, stopAllE2E, type WireEntry } from "../../support/e2e/index.js";
import { claudeProcesses } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);

const SESSIONS = 8;
/** Sessions opened at once: every Claude Code start-up at once would crowd two cores. */
const OPENING_BATCH = 5;

/**
 * Echoes the prompt slowly (5 deltas, 100 ms apart), but only once every session's request has
 * reached the API: the replies cannot start until every turn is in flight, so an agent that ran
 * sessions one after another would never get past the first. A loaded machine may still read a
 * stream in one burst, so how the chunks interleave on the wire is not what proves concurrency.
 */
function slowEchoOnceAllArrive(): TurnSpec {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return async (request) => {
    arrived += 1;
    if (arrived === SESSIONS) release();
    await all;
    return {
      content: [{ type: "text", text: `echo: ${lastUserText(request)}`, chunks: 5 }],
      delayMs: 100,
    };
  };
}

type Chunk = SessionNotification & { entry: WireEntry };

describe("an agent with 8 sessions open", () => {
  it("keeps each session's updates on its own session id while all 8 prompts run at once", async () => {
    // "session": every Claude Code session starts at the top of the script.
    const e2e = await startE2E({ cursor: "session", scenario: [slowEchoOnceAllArrive()] });
    const ids: string[] = [];
    while (ids.length < SESSIONS) {
      const batch = Math.min(OPENING_BATCH, SESSIONS - ids.length);
      const opened = await Promise.all(Array.from({ length: batch }, () => e2e.newSession()));
      ids.push(...opened.map((s) => s.sessionId));
    }
    expect(new Set(ids).size).toBe(SESSIONS);
    expect(await claudeProcesses(e2e)).toHaveLength(SESSIONS);
    const promptOf = (i: number) => `prompt ${i} for session ${ids[i]}`;

    // Every turn answering at all proves all 8 were open at once: no reply starts before the
    // last session's request has reached the API.
    const responses = await Promise.all(ids.map((id, i) => e2e.prompt(id, promptOf(i))));

    expect(responses.map((r) => r.stopReason)).toEqual(ids.map(() => "end_turn"));
    // Each Claude Code process got its own session's prompt (the API sees Claude's session id).
    const requests = e2e.api.mainRequests();
    expect(requests).toHaveLength(SESSIONS);
    const sentBySession = new Map(requests.map((r) => [r.sessionId, lastUserText(r)]));
    expect(ids.map((id) => sentBySession.get(id))).toEqual(ids.map((_, i) => promptOf(i)));
    // Every chunk on the wire carries the id of the session whose reply it is part of.
    const chunks = e2e.transcript
      .sessionUpdates()
      .filter((n) => n.update.sessionUpdate === "agent_message_chunk");
    const bySession = new Map<string, Chunk[]>(ids.map((id) => [id, []]));
    for (const chunk of chunks) bySession.get(chunk.sessionId)?.push(chunk);
    expect(chunks.every((c) => bySession.has(c.sessionId))).toBe(true);
    const replies = ids.map((id) =>
      bySession
        .get(id)!
        .map((c) => (c.update.sessionUpdate === "agent_message_chunk" ? c.update.content : null))
        .map((content) => (content?.type === "text" ? content.text : ""))
        .join(""),
    );
    expect(replies).toEqual(ids.map((_, i) => `echo: ${promptOf(i)}`));
    // ...and each before the answer to its own prompt.
    for (const request of e2e.transcript.calls("session/prompt", "to-agent")) {
      const { sessionId } = request.message?.params as { sessionId: string };
      const answeredAt = e2e.transcript.responseTo(request)!.seq;
      expect(bySession.get(sessionId)!.every((c) => c.entry.seq < answeredAt)).toBe(true);
    }
  }, 150_000);
});
