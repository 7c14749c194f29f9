// The session-rewind RFD's examples replayed against the agent in process (a scripted Claude
// Code and saved transcripts): the capability, session/rewind's request and answer, and
// session/edit_prompt's, with what Claude Code is started with after them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, expect, it } from "vitest";
import type { FilesRewound } from "../../claude/query.js";
import type { ClaudeTranscriptMessage } from "../../claude/transcripts.js";
import { fakeClaude, result, streamedText } from "../support/fake-claude.js";
import { FakeTranscripts } from "../support/fake-transcripts.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const SESSION = "abc12300-0000-4000-8000-000000000000";
const entry = (
  uuid: string,
  type: "user" | "assistant",
  message: unknown,
): ClaudeTranscriptMessage => ({
  type,
  uuid,
  session_id: SESSION,
  message,
  parent_tool_use_id: null,
  parent_agent_id: null,
});
const prompt = (uuid: string, text: string) =>
  entry(uuid, "user", { role: "user", content: [{ type: "text", text }] });
const reply = (uuid: string, id: string, text: string) =>
  entry(uuid, "assistant", { id, role: "assistant", content: [{ type: "text", text }] });

/** Three exchanges; Claude's second message is the RFD's `msg_42`. */
const CONVERSATION = [
  prompt("p1", "First."),
  reply("a1", "msg_41", "One."),
  prompt("p2", "Second."),
  reply("a2", "msg_42", "Two."),
  prompt("p3", "Third."),
  reply("a3", "msg_43", "Three."),
];

async function loaded() {
  const cwd = mkdtempSync(join(tmpdir(), "acp-rewind-"));
  const transcripts = new FakeTranscripts();
  transcripts.add({ sessionId: SESSION, cwd, lastModified: 1_000 }, [...CONVERSATION]);
  const claude = fakeClaude();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    transcripts,
    env: isolatedEnv(),
  });
  cleanup.push(() => harness.close());
  await harness.agent.request(methods.agent.session.load, {
    sessionId: SESSION,
    cwd,
    mcpServers: [],
  });
  return { ...harness, claude, cwd };
}

it("advertises agentCapabilities.rewindSession with supported and supportsEditPrompt", async () => {
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery });
  cleanup.push(() => harness.close());
  const answer = await harness.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
  });
  expect(answer.agentCapabilities).toMatchObject({
    rewindSession: { supported: true, supportsEditPrompt: true },
  });
});

it("session/rewind to msg_42 answers {remainingMessageCount, lastMessageId}, and Claude Code resumes there", async () => {
  const { agent, claude } = await loaded();
  const answer = await agent.request("session/rewind", {
    sessionId: SESSION,
    toMessageId: "msg_42",
  });
  expect(answer).toEqual({ remainingMessageCount: 4, lastMessageId: "msg_42" });

  // The cut drops one turn (Third.): Claude Code starts at once to check it.
  expect(claude.started.at(-1)!.options).toMatchObject({
    resume: SESSION,
    resumeSessionAt: "a2",
    resumeDropsTurn: "p3",
  });
});

it("session/edit_prompt with newContent answers as session/prompt, streaming meanwhile", async () => {
  const { agent, claude, updates } = await loaded();
  const answer = agent.request<{ stopReason: string; userMessageId?: string }>(
    "session/edit_prompt",
    {
      sessionId: SESSION,
      messageId: "p2",
      newContent: [{ type: "text", text: "Updated prompt..." }],
    },
  );
  const query = await (async () => {
    for (;;) {
      const last = claude.started.at(-1);
      if (last && last.options.resumeSessionAt === "a1") return last;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  await query.waitForSent(1);
  expect(JSON.stringify(query.sent[0])).toContain("Updated prompt...");
  query.emit(...streamedText("m", "Redone."), result());
  expect(await answer).toMatchObject({
    stopReason: "end_turn",
    userMessageId: expect.any(String) as string,
  });
  const texts = updates.flatMap((n) =>
    n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text"
      ? [n.update.content.text]
      : [],
  );
  expect(texts.at(-1)).toBe("Redone.");
});

it("an unknown toMessageId, and an edit of an agent message, are -32602", async () => {
  const { agent } = await loaded();
  const codes = await Promise.all(
    [
      agent.request("session/rewind", { sessionId: SESSION, toMessageId: "msg_99" }),
      agent.request("session/edit_prompt", {
        sessionId: SESSION,
        messageId: "a1",
        newContent: [{ type: "text", text: "x" }],
      }),
    ].map((request) =>
      request.then(
        () => 0,
        (error: unknown) => (error instanceof RequestError ? error.code : -1),
      ),
    ),
  );
  expect(codes).toEqual([-32602, -32602]);
});

it("what Claude Code says of the files (their paths, its refusal) reaches the client cleaned", async () => {
  const { agent, claude } = await loaded();
  const query = claude.started.at(-1)!;
  let answer: FilesRewound = {
    canRewind: true,
    filesChanged: ["/p/\u001b[31mred\u001b[0m.txt", "/p/\u202etxt.exe"],
    insertions: 1,
    deletions: 0,
  };
  query.rewindFiles = () => Promise.resolve(answer);
  const preview = await agent.request<{ _meta?: { claudeCode?: { files?: unknown } } }>(
    "session/rewind",
    { sessionId: SESSION, toMessageId: "msg_42", _meta: { claudeCode: { rewindFiles: "dryRun" } } },
  );
  expect(preview._meta?.claudeCode?.files).toMatchObject({
    filesChanged: ["/p/red.txt", "/p/txt.exe"],
  });

  answer = { canRewind: false, error: "no\u001b]0;owned\u0007 checkpoint" };
  const refused = await agent
    .request("session/rewind", {
      sessionId: SESSION,
      toMessageId: "msg_42",
      _meta: { claudeCode: { rewindFiles: "dryRun" } },
    })
    .then(
      () => undefined,
      (error: unknown) => error as RequestError,
    );
  expect(refused?.code).toBe(-32602);
  expect(refused?.message).toContain("no checkpoint");
  expect([...(refused?.message ?? "")].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
});
