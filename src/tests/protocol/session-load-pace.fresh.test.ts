// A long conversation opens at once (issue: history at any size): session/load reads the
// transcript while it checks the session, the replay's first update goes out before the rest
// are translated, and the Claude SDK, which every session needs, loads while the agent is
// idle after `initialize`. In process, with fake transcripts and a fake Claude Code.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, methods } from "@agentclientprotocol/sdk";
import { describe, expect, it, vi } from "vitest";
import { createAgent } from "../../agent.js";
import { claudeSdkLoaded, preloadClaudeSdk } from "../../claude/sdk-loader.js";
import type { ClaudeTranscriptMessage } from "../../claude/transcripts.js";
import { readingAhead } from "../../session/lifecycle/saved.js";
import type { StreamTranslator } from "../../session/stream/stream.js";
import { replayConversation } from "../../session/background/subagent-replay.js";
import type { Subagents } from "../../session/background/subagents.js";
import { fakeClaude } from "../support/fake-claude.js";
import { FakeTranscripts, savedMessage } from "../support/fake-transcripts.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

const SAVED = "44444444-4444-4444-8444-444444444444";

const said = (text: string): ClaudeTranscriptMessage =>
  savedMessage(SAVED, "user", { role: "user", content: [{ type: "text", text }] });

/** Transcripts whose session check waits until `answer` is called. */
class SlowCheck extends FakeTranscripts {
  readonly calls: string[] = [];
  private release: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  answer(): void {
    this.release();
  }

  override async info(sessionId: string, dir?: string) {
    this.calls.push("info");
    await this.released;
    return super.info(sessionId, dir);
  }

  override messages(sessionId: string) {
    this.calls.push(`messages ${sessionId}`);
    return super.messages(sessionId);
  }
}

describe("session/load of a long conversation", () => {
  it("reads the transcript while it checks the session, and reads it once", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "acp-load-pace-"));
    const transcripts = new SlowCheck();
    transcripts.add({ sessionId: SAVED, cwd }, [said("first"), said("second")]);
    const claude = fakeClaude();
    const harness = await connectInProcess({ startQuery: claude.startQuery, transcripts });
    try {
      const load = harness.agent.request(methods.agent.session.load, {
        sessionId: SAVED,
        cwd,
        mcpServers: [],
      });
      await vi.waitFor(() => expect(transcripts.calls).toContain("info"));
      // The check has not answered, and the transcript is being read already.
      expect(transcripts.calls).toContain(`messages ${SAVED}`);
      transcripts.answer();
      await load;
      expect(transcripts.calls.filter((call) => call === `messages ${SAVED}`)).toHaveLength(1);
      const texts = harness.updates.flatMap(({ update }) =>
        update.sessionUpdate === "user_message_chunk" && update.content.type === "text"
          ? [update.content.text]
          : [],
      );
      expect(texts).toEqual(["first", "second"]);
    } finally {
      harness.close();
    }
  });

  it("a read ahead is taken once; another conversation, or the same one again, is read anew", async () => {
    const transcripts = new SlowCheck();
    const conversation = [said("first")];
    transcripts.add({ sessionId: SAVED, cwd: "/p" }, conversation);
    transcripts.add({ sessionId: "other", cwd: "/p" }, [said("other")]);
    const reader = readingAhead(transcripts, SAVED, "/p");
    expect(transcripts.calls).toEqual([`messages ${SAVED}`]);
    expect(await reader.messages(SAVED, "/p")).toBe(conversation);
    expect(transcripts.calls).toEqual([`messages ${SAVED}`]);
    await reader.messages("other", "/p");
    await reader.messages(SAVED, "/p");
    expect(transcripts.calls).toEqual([`messages ${SAVED}`, "messages other", `messages ${SAVED}`]);
  });

  it("the replay lets the event loop turn after its first message, so the client gets the start before the rest is translated", async () => {
    for (const children of [undefined, { working: () => [] }]) {
      const seen: string[] = [];
      const messages = Array.from({ length: 200 }, (_, i) => said(`m${i}`));
      const transcripts = new FakeTranscripts();
      transcripts.add({ sessionId: SAVED, cwd: "/p" }, messages);
      const stream = {
        replay: (message: ClaudeTranscriptMessage) => {
          seen.push(message.uuid === messages[0]!.uuid ? "first" : "later");
          return Promise.resolve();
        },
      } as unknown as StreamTranslator;
      const replaying = replayConversation(
        {
          transcripts,
          cwd: "/p",
          stream,
          children: children as never,
          subagents: {} as Subagents,
        },
        SAVED,
      );
      // Queued before the replay has read anything: it runs at the first turn of the loop.
      setImmediate(() => seen.push("turn"));
      await replaying;
      expect(seen.slice(0, 3)).toEqual(["first", "turn", "later"]);
      expect(seen.filter((s) => s !== "turn")).toHaveLength(200);
    }
  });
});

describe("the Claude SDK at start", () => {
  it("is asked to load once the client is known (initialize), not before", async () => {
    const preload = vi.fn();
    const agentApp = createAgent({
      startQuery: fakeClaude().startQuery,
      transcripts: new FakeTranscripts(),
      resolveExecutable: () => "/fake/claude",
      env: isolatedEnv(),
      preload,
    });
    const connection = client({ name: "test-client" }).connect(agentApp);
    try {
      expect(preload).not.toHaveBeenCalled();
      await connection.agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: {},
      });
      expect(preload).toHaveBeenCalledTimes(1);
    } finally {
      connection.close();
    }
  });
});

describe("preloadClaudeSdk", () => {
  it("loads the SDK after its delay, not before", async () => {
    expect(claudeSdkLoaded()).toBe(false);
    preloadClaudeSdk(20);
    expect(claudeSdkLoaded()).toBe(false);
    await vi.waitFor(() => expect(claudeSdkLoaded()).toBe(true), { timeout: 20_000 });
  });
});
