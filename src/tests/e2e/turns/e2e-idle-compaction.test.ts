// End-to-end on the real Claude Code (issue 51 item 5): a long conversation left idle is
// compacted before its one-hour prompt cache expires, shown as the compaction the client
// already shows; a prompt stops it; Claude Code's own switches turn it off. Claude Code asks
// for one-hour caching (ENABLE_PROMPT_CACHING_1H) and the scripted API bills its writes so; the
// agent's switch brings the time from 54 minutes after the last request to a moment after it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { RecordedRequest, TurnSpec } from "../../../scripted-api/index.js";
import { IDLE_COMPACTION } from "../../../session/stream/compaction.js";
import { ZED } from "../../support/client-handshakes.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents();

/** A conversation of 250k tokens, over Claude Code's 200k threshold, written to the cache. */
const LONG: TurnSpec = {
  content: [{ type: "text", text: "Read it all." }],
  usage: { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 250_000 },
};

const ENV = { ENABLE_PROMPT_CACHING_1H: "1", CLAUDE_AGENT_ACP_IDLE_COMPACT_AFTER_MS: "200" };

const isCompaction = (request: RecordedRequest): boolean =>
  request.kind === "side" && /detailed summary/.test(JSON.stringify(request.body));
/** The text of the last main request's messages: what the model was given to read. */
const lastMainText = (e2e: E2E): string => JSON.stringify(e2e.api.mainRequests().at(-1)?.body);

function start(scenario: TurnSpec[], slowSummary = false) {
  return startE2E({
    env: ENV,
    clientCapabilities: {
      ...ZED.clientCapabilities,
      session: { ...ZED.clientCapabilities?.session, compaction: {} },
    },
    scenario: {
      turns: scenario,
      // A summary that takes long enough for a prompt to come while it is written.
      sideReply: (request) =>
        slowSummary && isCompaction(request)
          ? { content: [{ type: "text", text: "<summary>S</summary>" }], firstByteDelayMs: 20_000 }
          : undefined,
    },
  });
}

it("a long conversation left idle is compacted before its cache expires: the client sees the compaction, the next prompt reads the summary", async () => {
  const e2e = await start([LONG, { content: [{ type: "text", text: "Fresh." }] }]);
  const { sessionId } = await e2e.newSession();
  expect(await e2e.prompt(sessionId, "Read the whole repository.")).toMatchObject({
    stopReason: "end_turn",
  });

  const done = await e2e.updates.waitFor(
    sessionId,
    "compaction_update",
    (u) => u.status === "completed",
    20_000,
  );
  expect(done.summary?.[0]).toMatchObject({
    text: expect.stringMatching(
      new RegExp(`^${IDLE_COMPACTION.done}: 250,\\d{3} → [\\d,]+ tokens$`),
    ) as unknown,
  });
  expect(done._meta).toMatchObject({ claudeCode: { trigger: "idle" } });
  expect(e2e.api.requests.filter(isCompaction)).toHaveLength(1);
  // The context size falls to what the summary left.
  await e2e.updates.waitFor(sessionId, "usage_update", (u) => u.used < 250_000);

  expect(await e2e.prompt(sessionId, "Go on.")).toMatchObject({ stopReason: "end_turn" });
  expect(lastMainText(e2e)).toContain("This session is being continued");
  expect(lastMainText(e2e)).not.toContain("Read the whole repository.");
  // Compacted once: the small conversation left is not compacted again.
  expect(e2e.api.requests.filter(isCompaction)).toHaveLength(1);
});

it("a prompt that comes while the idle compaction runs stops it: the prompt is answered on the whole conversation", async () => {
  const e2e = await start([LONG, { content: [{ type: "text", text: "Still here." }] }], true);
  const { sessionId } = await e2e.newSession();
  await e2e.prompt(sessionId, "Read the whole repository.");
  await e2e.updates.waitFor(sessionId, "compaction_update", (u) => u.status === "in_progress");
  await vi.waitFor(() => expect(e2e.api.requests.filter(isCompaction)).toHaveLength(1), {
    timeout: 10_000,
  });

  expect(await e2e.prompt(sessionId, "One more thing.")).toMatchObject({
    stopReason: "end_turn",
  });
  const cancelled = e2e.updates.of(sessionId, "compaction_update").at(-1);
  expect(cancelled).toMatchObject({ status: "failed", error: IDLE_COMPACTION.cancelledWhy });
  expect(lastMainText(e2e)).toContain("Read the whole repository.");
  expect(lastMainText(e2e)).not.toContain("This session is being continued");
  // Claude Code's "Compaction canceled." is not shown as words of Claude's.
  const said = JSON.stringify(e2e.updates.of(sessionId, "agent_message_chunk"));
  expect(said).not.toContain("Compaction canceled");
  expect(said).toContain("Still here.");
});

it("off with Claude Code's own switches: DISABLE_COMPACT set by the client, idleCompaction false in the user's settings", async () => {
  const e2e = await start([LONG, LONG]);
  const { sessionId } = await e2e.newSession({
    _meta: { claudeCode: { options: { env: { DISABLE_COMPACT: "1" } } } },
  });
  await e2e.prompt(sessionId, "Read the whole repository.");
  await vi.waitFor(
    () => expect(e2e.log()).toContain("idle compaction is off: DISABLE_COMPACT is set"),
    { timeout: 10_000 },
  );

  writeFileSync(join(e2e.configDir, "settings.json"), JSON.stringify({ idleCompaction: false }));
  const other = await e2e.newSession();
  await e2e.prompt(other.sessionId, "Read the whole repository.");
  await vi.waitFor(
    () => expect(e2e.log()).toContain("idle compaction is off: idleCompaction is false"),
    { timeout: 10_000 },
  );
  expect(e2e.api.requests.filter(isCompaction)).toEqual([]);
  expect(e2e.updates.of(sessionId, "compaction_update")).toEqual([]);
  expect(e2e.updates.of(other.sessionId, "compaction_update")).toEqual([]);
});
