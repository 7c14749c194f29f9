// Idle compaction and the idle close (issue 51 item 5): the process whose prompt cache the
// compaction reads is kept until the compaction has run, which is Claude Code's `/compact`
// sent by the agent, and is closed after it as any idle process.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, expect, it, vi } from "vitest";
import { IDLE_COMPACTION } from "../../session/stream/compaction.js";
import { fakeClaude, result, sdkMessage, streamEvent } from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

/** A response that wrote 250k tokens of one-hour cache: a long conversation, cached for an hour. */
const longCachedResponse = streamEvent({
  type: "message_start",
  message: {
    id: "m1",
    usage: {
      input_tokens: 10,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 250_000,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 250_000 },
    },
  },
});

/** A session idle after one turn of a long conversation cached for an hour. */
async function idleAfterLongTurn(env: NodeJS.ProcessEnv) {
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery, env: isolatedEnv(env) });
  cleanup.push(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "acp-idle-compact-"));
  const { sessionId } = await harness.agent.request(methods.agent.session.new, {
    cwd,
    mcpServers: [],
  });
  const query = claude.started[0]!;
  const prompt = harness.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Read it all." }],
  });
  await query.waitForSent(1);
  query.emit(longCachedResponse, result());
  await prompt;
  return { harness, query, sessionId };
}

it("an idle compaction due keeps the process past the idle close; the agent sends /compact to it, and the process closes after", async () => {
  const { harness, query } = await idleAfterLongTurn({
    CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS: "20",
    CLAUDE_AGENT_ACP_IDLE_COMPACT_AFTER_MS: "300",
  });

  // Past the idle time, the compaction not yet due: the process stays.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(query.closed).toBe(false);

  const compact = await query.waitForSent(2);
  expect(compact.message.content).toBe("/compact");
  expect(compact.origin).toBeUndefined();
  expect(query.closed).toBe(false);
  query.emit(
    sdkMessage({ type: "system", subtype: "status", status: "compacting" }),
    sdkMessage({
      type: "system",
      subtype: "compact_boundary",
      compact_metadata: { trigger: "manual", pre_tokens: 250_011, post_tokens: 3_000 },
    }),
    result({ stopReason: null }),
  );
  await vi.waitFor(() => expect(query.closed).toBe(true), { timeout: 2_000 });
  expect(
    harness.updates.some(
      (n) =>
        n.update.sessionUpdate === "tool_call_update" &&
        n.update.title === "Compacted while idle, before the prompt cache expired",
    ),
  ).toBe(true);
});

it("session/cancel stops an idle compaction that runs (the client shows it as running), and does not drop one that is only due", async () => {
  const { harness, query, sessionId } = await idleAfterLongTurn({
    CLAUDE_AGENT_ACP_IDLE_COMPACT_AFTER_MS: "150",
  });

  // Due, not running: a cancel (nothing to cancel) leaves it due.
  await harness.agent.notify(methods.agent.session.cancel, { sessionId });
  const compact = await query.waitForSent(2);
  expect(compact.message.content).toBe("/compact");
  expect(query.interrupts).toBe(0);

  // Claude Code answers the interrupt with these messages (below), not at once.
  query.onInterrupt = () => undefined;
  query.emit(sdkMessage({ type: "system", subtype: "status", status: "compacting" }));
  await harness.agent.notify(methods.agent.session.cancel, { sessionId });
  await vi.waitFor(() => expect(query.interrupts).toBe(1), { timeout: 2_000 });
  // What Claude Code says of a compaction it was told to stop.
  query.emit(
    sdkMessage({ type: "system", subtype: "status", status: null, compact_result: "failed" }),
    result({ stopReason: null }),
  );
  await vi.waitFor(
    () =>
      expect(
        harness.updates.some(
          (n) =>
            n.update.sessionUpdate === "tool_call_update" &&
            n.update.title === IDLE_COMPACTION.cancelled,
        ),
      ).toBe(true),
    { timeout: 2_000 },
  );
});
