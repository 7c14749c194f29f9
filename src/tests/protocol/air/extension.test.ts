// JetBrains AIR's extension (issue 52): negotiated in initialize, and only there does any AIR key
// flow; `loadReplayEnd` marks the end of a load's replay for a client that declared it. The same
// flows with Zed's and the registry's handshakes carry no AIR key at all.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type InitializeRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { initializeResponse } from "../../../acp/capabilities.js";
import { ACPX, AIR, REGISTRY_VALIDATOR, ZED } from "../../support/client-handshakes.js";
import { fakeClaude } from "../../support/fake-claude.js";
import { FakeTranscripts, savedMessage } from "../../support/fake-transcripts.js";
import { connectInProcess, START_UPDATES } from "../../support/in-process.js";

const SAVED = "44444444-4444-4444-8444-444444444444";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

/** A load of a saved conversation by a client of this handshake; what it saw, in order. */
async function load(handshake: InitializeRequest) {
  const cwd = mkdtempSync(join(tmpdir(), "acp-air-"));
  const transcripts = new FakeTranscripts();
  transcripts.add({ sessionId: SAVED, cwd, summary: "hi", lastModified: 1_000 }, [
    savedMessage(SAVED, "user", { role: "user", content: "hi" }),
    savedMessage(SAVED, "assistant", {
      id: "msg_1",
      role: "assistant",
      content: [{ type: "text", text: "Hello." }],
    }),
  ]);
  const claude = fakeClaude();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    transcripts,
    clientCapabilities: handshake.clientCapabilities ?? {},
  });
  cleanup.push(() => harness.close());
  const answered = harness.agent
    .request(methods.agent.session.load, { sessionId: SAVED, cwd, mcpServers: [] })
    .then(() => harness.updates.length);
  const before = await answered;
  // What the replay sent: Claude Code's start reports (which may come first) aside.
  const replayed = harness.updates
    .slice(0, before)
    .map((n) => n.update)
    .filter((u) => !START_UPDATES.has(u.sessionUpdate));
  return { updates: harness.updates.map((n) => n.update), replayed };
}

describe("JetBrains AIR's extension", () => {
  it("is answered in the initialize result's _meta.jetbrains.air for AIR alone: the version and what the agent advertises", () => {
    const air = (initializeResponse(AIR)._meta as { jetbrains: { air: unknown } }).jetbrains.air;
    expect(air).toMatchObject({ version: 1 });
    // What is built; the session index's follow for a client that declared it (session-index.test.ts).
    expect((air as { capabilities: string[] }).capabilities.slice(0, 9)).toEqual([
      "customInstructions",
      "recommendedValue",
      "sessionFailure",
      "planFile",
      "agentFileChangeReport",
      "nativeSubagentSessions",
      "backgroundSubagents",
      "asyncTasks",
      "diffPatch",
    ]);
    for (const other of [ZED, ACPX, REGISTRY_VALIDATOR]) {
      expect(JSON.stringify(initializeResponse(other))).not.toContain("jetbrains");
    }
  });

  it("loadReplayEnd: one session_info_update after the last replayed update, before the load's answer", async () => {
    const { replayed } = await load(AIR);
    expect(replayed.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "session_info_update",
    ]);
    expect(replayed.at(-1)).toEqual({
      sessionUpdate: "session_info_update",
      _meta: { jetbrains: { air: { version: 1, loadReplayEnd: true } } },
    });
  });

  it("a client that is not AIR sees no AIR key in a load, nor an end-of-replay update", async () => {
    for (const handshake of [ZED, ACPX, REGISTRY_VALIDATOR]) {
      const { updates, replayed } = await load(handshake);
      expect(replayed.map((u) => u.sessionUpdate)).toEqual([
        "user_message_chunk",
        "agent_message_chunk",
      ]);
      expect(JSON.stringify(updates)).not.toContain("jetbrains");
    }
  });
});
