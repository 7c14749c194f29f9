// End-to-end on the real Claude Code (issue 55 items 2 and 4, the session-rewind RFD):
// session/rewind keeps the conversation up to a message and drops the rest, for the model's
// next request and for a load; session/edit_prompt runs a prompt's turn again with new
// content; a wrong id changes nothing.
import { existsSync, lstatSync } from "node:fs";
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import type { TurnSpec } from "../../../scripted-api/index.js";
import { shareAgents, startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";
import { echo, threeExchanges } from "../../support/e2e-sessions/exchanges.js";
import { conversation, INVALID_PARAMS, rawError } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);
shareAgents();

const rewind = (e2e: E2E, sessionId: string, toMessageId: string) =>
  e2e.client.request<{ remainingMessageCount: number; lastMessageId: string }>("session/rewind", {
    sessionId,
    toMessageId,
  });

it("is advertised as the RFD says", async () => {
  const e2e = await startE2E();
  const answer = await e2e.initialize();
  expect(answer.agentCapabilities).toMatchObject({
    rewindSession: { supported: true, supportsEditPrompt: true },
  });
});

it("a rewind to Claude's first answer: the next request holds the first exchange alone", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId, replies } = await threeExchanges(e2e);
  expect(replies).toHaveLength(3);

  expect(await rewind(e2e, sessionId, replies[0]!)).toEqual({
    remainingMessageCount: 2,
    lastMessageId: replies[0],
  });
  await e2e.prompt(sessionId, "Four.");
  expect(conversation(e2e.api.lastMainRequest()!)).toEqual([
    "user: One.",
    "assistant: reply to: One.",
    "user: Four.",
  ]);
});

it("a load right after a rewind replays only what was kept, and the session goes on from there", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId, replies } = await threeExchanges(e2e);
  await rewind(e2e, sessionId, replies[1]!);
  await e2e.client.request("session/close", { sessionId });
  e2e.updates.forget();

  await e2e.client.request("session/load", { sessionId, cwd: e2e.cwd, mcpServers: [] });
  const replayed = e2e.updates
    .of(sessionId)
    .flatMap((u) =>
      (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk") &&
      u.content.type === "text"
        ? [`${u.sessionUpdate === "user_message_chunk" ? "user" : "assistant"}: ${u.content.text}`]
        : [],
    );
  expect(replayed).toEqual([
    "user: One.",
    "assistant: reply to: One.",
    "user: Two.",
    "assistant: reply to: Two.",
  ]);
  await e2e.prompt(sessionId, "Four.");
  expect(conversation(e2e.api.lastMainRequest()!).join("\n")).not.toContain("Three.");
});

it("an edit of the second prompt runs it again with the new text and drops the third", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId, userIds } = await threeExchanges(e2e);

  const answer = await e2e.client.request<object>("session/edit_prompt", {
    sessionId,
    messageId: userIds[1],
    newContent: [{ type: "text", text: "Two, edited." }],
  });
  expect(answer).toMatchObject({
    stopReason: "end_turn",
    userMessageId: expect.any(String) as string,
  });
  expect(conversation(e2e.api.lastMainRequest()!)).toEqual([
    "user: One.",
    "assistant: reply to: One.",
    "user: Two, edited.",
  ]);
  const text = e2e.updates
    .of(sessionId, "agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
  expect(text).toContain("reply to: Two, edited.");
});

it("a messageId the session does not hold, and an edit of an answer, are refused and change nothing", async () => {
  const e2e = await startE2E({ scenario: Array<TurnSpec>(6).fill(echo) });
  const { sessionId, replies } = await threeExchanges(e2e);
  const unknown = await rawError(e2e, "session/rewind", { sessionId, toMessageId: "msg_nope" });
  expect(unknown?.code).toBe(INVALID_PARAMS);
  const notPrompt = await rawError(e2e, "session/edit_prompt", {
    sessionId,
    messageId: replies[0],
    newContent: [{ type: "text", text: "x" }],
  });
  expect(notPrompt?.code).toBe(INVALID_PARAMS);
  await e2e.prompt(sessionId, "Four.");
  expect(conversation(e2e.api.lastMainRequest()!).join("\n")).toContain("reply to: Three.");
});

it("a rewind during a running turn cancels it first: the command waiting for permission never runs", async () => {
  const e2e = await startE2E({
    scenario: [
      echo,
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_rewind_running",
            name: "Bash",
            input: { command: "echo ran > ran.txt", description: "Write" },
          },
        ],
      },
      echo,
    ],
    permission: { answer: "never" },
  });
  const { sessionId } = await e2e.newSession();
  await e2e.prompt(sessionId, "One.");
  const [first] = new Set(e2e.updates.of(sessionId, "agent_message_chunk").map((u) => u.messageId));
  const running = e2e.prompt(sessionId, "Write the file.");
  await e2e.permissions.waitForRequest(1);

  await rewind(e2e, sessionId, first!);
  expect(await running).toMatchObject({ stopReason: "cancelled" });
  expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);
  await e2e.prompt(sessionId, "Two.");
  expect(conversation(e2e.api.lastMainRequest()!)).toEqual([
    "user: One.",
    "assistant: reply to: One.",
    "user: Two.",
  ]);
});

it("a rewind with files puts back a file Claude changed after the message, leaves one a link replaced, and lists both; a dry run first changes nothing", async () => {
  const tool = (id: string, name: string, input: Record<string, unknown>): TurnSpec => ({
    content: [{ type: "tool_use", id, name, input }],
  });
  const e2e = await startE2E({ permission: { answer: "select", optionId: "allow-once" } });
  const a = join(e2e.cwd, "a.txt");
  const b = join(e2e.cwd, "b.txt");
  const elsewhere = join(e2e.home, "elsewhere.txt");
  await writeFile(a, "original\n");
  await writeFile(elsewhere, "not Claude's\n");
  e2e.api.setScenario([
    echo,
    tool("toolu_rewind_read", "Read", { file_path: a }),
    tool("toolu_rewind_write_a", "Write", { file_path: a, content: "changed\n" }),
    tool("toolu_rewind_write_b", "Write", { file_path: b, content: "new\n" }),
    { content: [{ type: "text", text: "Both written." }] },
    echo,
  ]);
  const { sessionId } = await e2e.newSession();
  await e2e.prompt(sessionId, "One.");
  const [first] = new Set(e2e.updates.of(sessionId, "agent_message_chunk").map((u) => u.messageId));
  await e2e.prompt(sessionId, "Change the files.");
  expect(await readFile(a, "utf8")).toBe("changed\n");

  const preview = await e2e.client.request<{ _meta?: { claudeCode?: { files?: unknown } } }>(
    "session/rewind",
    { sessionId, toMessageId: first, _meta: { claudeCode: { rewindFiles: "dryRun" } } },
  );
  expect(preview._meta?.claudeCode?.files).toMatchObject({
    dryRun: true,
    filesChanged: expect.arrayContaining([a, b]) as unknown,
  });
  expect(await readFile(a, "utf8")).toBe("changed\n");

  // Another hand puts a link where Claude's file was.
  await rm(b);
  await symlink(elsewhere, b);
  const done = await e2e.client.request<{ _meta?: { claudeCode?: { files?: unknown } } }>(
    "session/rewind",
    { sessionId, toMessageId: first, _meta: { claudeCode: { rewindFiles: true } } },
  );
  expect(done._meta?.claudeCode?.files).toMatchObject({ dryRun: false, skippedLinks: 1 });
  expect(await readFile(a, "utf8")).toBe("original\n");
  expect(await readFile(elsewhere, "utf8")).toBe("not Claude's\n");
  expect(lstatSync(b).isSymbolicLink()).toBe(true);
  await e2e.prompt(sessionId, "Two.");
  expect(conversation(e2e.api.lastMainRequest()!)).toEqual([
    "user: One.",
    "assistant: reply to: One.",
    "user: Two.",
  ]);
});
