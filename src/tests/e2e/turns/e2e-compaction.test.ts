// End-to-end: `/compact` on the real Claude Code (the scripted API writes the summary) is
// shown to the client, and the context size falls to what is left.
import { afterEach, expect, it } from "vitest";
import { ZED } from "../../support/client-handshakes.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

/** A first turn (the context window becomes known), then `/compact`: the `used` before and after. */
async function compact(e2e: E2E, sessionId: string): Promise<{ before: number; after: number }> {
  expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
  const before = e2e.updates.of(sessionId, "usage_update").at(-1)!.used;
  expect(await e2e.prompt(sessionId, "/compact")).toMatchObject({ stopReason: "end_turn" });
  return { before, after: e2e.updates.of(sessionId, "usage_update").at(-1)!.used };
}

it("/compact for Zed with session.compaction gives a completed compaction_update, then a smaller usage_update", async () => {
  const e2e = await startE2E({
    scenario: [{ content: [{ type: "text", text: "Hello." }] }],
    clientCapabilities: {
      ...ZED.clientCapabilities,
      session: { ...ZED.clientCapabilities?.session, compaction: {} },
    },
  });
  const { sessionId } = await e2e.newSession();
  const { before, after } = await compact(e2e, sessionId);

  const compaction = e2e.updates.of(sessionId, "compaction_update");
  expect(compaction.at(-1)).toMatchObject({ status: "completed" });
  expect(compaction.at(-1)?.summary?.[0]).toMatchObject({
    text: expect.stringMatching(/^Compacted conversation: [\d,]+ → [\d,]+ tokens$/) as unknown,
  });
  expect(after).toBeLessThan(before);
  expect(e2e.updates.of(sessionId, "tool_call")).toEqual([]);
});

it("/compact for Zed without the signal gives a completed 'Compacted conversation' tool call, then a smaller usage_update", async () => {
  const e2e = await startE2E({
    scenario: [{ content: [{ type: "text", text: "Hello." }] }],
    clientCapabilities: ZED.clientCapabilities,
  });
  const { sessionId } = await e2e.newSession();
  const { before, after } = await compact(e2e, sessionId);

  expect(e2e.updates.of(sessionId, "compaction_update")).toEqual([]);
  expect(e2e.updates.of(sessionId, "tool_call_update").at(-1)).toMatchObject({
    title: "Compacted conversation",
    status: "completed",
  });
  expect(after).toBeLessThan(before);
  // The command's own output ("Compacted") is not shown again as a message.
  expect(JSON.stringify(e2e.updates.of(sessionId, "agent_message_chunk"))).not.toContain(
    "Compacted",
  );
});
