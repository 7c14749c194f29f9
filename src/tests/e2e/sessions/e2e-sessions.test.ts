// End-to-end: sessions that last — load (with replay), resume, list, close, delete, fork,
// additional directories and titles — against the real Claude Code behind the built agent.
// A "fresh agent" is a second agent process on the first one's HOME and config dir: an
// editor reopening a conversation after a restart.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  methods,
  type ContentBlock,
  type SessionInfo,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { getSessionInfo, getSessionMessages } from "@anthropic-ai/claude-agent-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { sdkTranscripts } from "../../../claude/transcripts.js";
import {
  lastUserText,
  systemText,
  toolResults,
  type TurnSpec,
} from "../../../scripted-api/index.js";
import { continuationId } from "../../../session/lifecycle/continuations.js";
import {
  poll,
  shareAgents,
  startE2E,
  stopAllE2E,
  timed,
  type E2E,
} from "../../support/e2e/index.js";
import { planThenImplement, setMode } from "../../support/e2e-turns/index.js";
import {
  answered,
  claudeProcesses,
  claudeProcessOf,
  cloneTranscript,
  conversation,
  inOrder,
  INVALID_PARAMS,
  isTitleRequest,
  processEnds,
  rawError,
  reopenAgent,
  RESOURCE_NOT_FOUND,
  TODO_WRITE_ENV,
  transcriptFile,
} from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);
shareAgents();

const BASH_ID = "toolu_e2e_bash";
const TODO_ID = "toolu_e2e_todo";

/** Two prompts: a text turn (with a thought), then a Bash command and a TodoWrite plan. */
const CONVERSATION: TurnSpec[] = [
  {
    content: [
      { type: "thinking", thinking: "A greeting is in order." },
      { type: "text", text: "Hello there." },
    ],
  },
  {
    content: [
      { type: "text", text: "Writing the file." },
      {
        type: "tool_use",
        id: BASH_ID,
        name: "Bash",
        input: { command: "echo hi > out.txt", description: "Write hi to out.txt" },
      },
    ],
  },
  {
    content: [
      {
        type: "tool_use",
        id: TODO_ID,
        name: "TodoWrite",
        input: {
          todos: [
            { content: "Write the file", status: "completed", activeForm: "Writing the file" },
            { content: "Check the file", status: "in_progress", activeForm: "Checking the file" },
          ],
        },
      },
    ],
  },
  { content: [{ type: "text", text: "All done." }] },
];

function textOf(content: ContentBlock): string {
  return content.type === "text" ? content.text : `<${content.type}>`;
}

/** Updates as short readable lines, for asserting a replay in order. */
function describeUpdate(update: SessionUpdate): string {
  switch (update.sessionUpdate) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk":
      return `${update.sessionUpdate}: ${textOf(update.content)}`;
    case "tool_call":
      return `tool_call ${update.toolCallId} ${update.kind ?? ""} ${update.status ?? ""}`;
    case "tool_call_update":
      return `tool_call_update ${update.toolCallId} ${update.status ?? ""}`;
    case "plan":
      return `plan: ${update.entries.map((e) => `${e.content} (${e.status})`).join(", ")}`;
    default:
      return update.sessionUpdate;
  }
}

describe("session/load", () => {
  it("a fresh agent replays the whole conversation before answering, then continues it", async () => {
    const first = await startE2E({
      scenario: CONVERSATION,
      permission: { answer: "select", optionId: "allow-once" },
      env: TODO_WRITE_ENV,
    });
    const { sessionId } = await first.newSession();
    const hello = await first.prompt(sessionId, "Say hello.");
    expect(hello.stopReason).toBe("end_turn");
    const write = await first.prompt(sessionId, "Write hi, then plan.");
    expect(write.stopReason).toBe("end_turn");

    const second = await reopenAgent(first, { env: TODO_WRITE_ENV });
    const init = answered(second, "initialize", "");
    expect(init.response.message?.result).toMatchObject({
      agentCapabilities: { loadSession: true },
    });
    const response = await second.client.request(methods.agent.session.load, {
      sessionId,
      cwd: first.cwd,
      mcpServers: [],
    });

    expect(response.modes?.currentModeId).toBe("default");
    // On the wire: every replayed update comes before the load response.
    const load = answered(second, "session/load", sessionId);
    const replayed = load.updatesBefore.map((n) => describeUpdate(n.update));
    expect(replayed).toEqual([
      "user_message_chunk: Say hello.",
      "agent_thought_chunk: A greeting is in order.",
      "agent_message_chunk: Hello there.",
      "user_message_chunk: Write hi, then plan.",
      "agent_message_chunk: Writing the file.",
      `tool_call ${BASH_ID} execute pending`,
      `tool_call_update ${BASH_ID} completed`,
      "plan: Write the file (completed), Checking the file (in_progress)",
      "agent_message_chunk: All done.",
    ]);
    // Each of Claude's messages keeps its id across the load (issue 55: a client can point at
    // any message it has shown, before or after a reload).
    const idsOf = (updates: SessionUpdate[]) => [
      ...new Set(
        updates.flatMap((u) =>
          u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk"
            ? [u.messageId]
            : [],
        ),
      ),
    ];
    const live = first.updates.of(sessionId);
    expect(idsOf(load.updatesBefore.map((n) => n.update))).toEqual(idsOf(live));
    expect(idsOf(live)).toHaveLength(3);
    expect(idsOf(live).every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    // And each prompt's answer names its user message as the replay does.
    const userIds = load.updatesBefore.flatMap((n) =>
      n.update.sessionUpdate === "user_message_chunk" ? [n.update.messageId] : [],
    );
    const userMessageId = (response: object) =>
      (response as { userMessageId?: string }).userMessageId;
    expect(userIds).toEqual([userMessageId(hello), userMessageId(write)]);
    expect(userIds.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    const toolCall = load.updatesBefore.find((n) => n.update.sessionUpdate === "tool_call");
    expect(toolCall?.update).toMatchObject({
      title: "echo hi > out.txt",
      rawInput: { command: "echo hi > out.txt" },
    });
    // The replayed result shows what the command returned to the model back then.
    const bashResult = toolResults(first.api.mainRequests()[2]!).find(
      (r) => r.tool_use_id === BASH_ID,
    );
    const result = load.updatesBefore.find(
      (n) => n.update.sessionUpdate === "tool_call_update" && n.update.status === "completed",
    )?.update;
    const shown = result?.sessionUpdate === "tool_call_update" ? result.content : undefined;
    expect(bashResult?.text).toBeTruthy();
    expect(JSON.stringify(shown)).toContain(bashResult!.text);
    // Nothing of the conversation after the response (only the command list).
    const late = second.transcript
      .sessionUpdates()
      .filter((n) => n.sessionId === sessionId && n.entry.seq > load.response.seq);
    expect(late.map((n) => n.update.sessionUpdate)).not.toContain("agent_message_chunk");
    // The agent reads the transcript itself and the SDK takes the chain from its entries:
    // the same messages as the SDK's own reading of the file.
    const [ours, sdks] = await inConfigDir(first.configDir, () =>
      Promise.all([
        sdkTranscripts.messages(sessionId, first.cwd),
        getSessionMessages(sessionId, { dir: first.cwd }),
      ]),
    );
    expect(ours).toEqual(sdks);
    expect(ours.length).toBeGreaterThan(5);
    // The new agent's Claude Code resumes the saved conversation.
    expect((await claudeProcessOf(second, sessionId))?.command).toContain(`--resume=${sessionId}`);

    expect((await second.prompt(sessionId, "Still there?")).stopReason).toBe("end_turn");

    const [request] = second.api.mainRequests();
    expect(request?.sessionId).toBe(sessionId);
    const sent = conversation(request!);
    const earlier = [
      "user: Say hello.",
      "assistant: Hello there.",
      "user: Write hi, then plan.",
      "assistant: Writing the file.",
      `assistant tool_use Bash ${BASH_ID}`,
      `user tool_result ${BASH_ID}`,
      `assistant tool_use TodoWrite ${TODO_ID}`,
      `user tool_result ${TODO_ID}`,
      "assistant: All done.",
      "user: Still there?",
    ];
    expect(inOrder(sent, earlier)).toEqual(earlier);
    expect(lastUserText(request!)).toBe("Still there?");
  });
});

describe("session/load after a plan handed off with clear context", () => {
  const PLAN = "# Plan\n\n1. Create impl.txt.\n";

  it("the handoff's conversation takes the id derived from the session's, even with a spare ready; a fresh agent replays both conversations and continues the latest", async () => {
    const first = await startE2E({
      permission: { answer: "select", optionId: "exit-plan-clear-auto" },
      env: { CLAUDE_AGENT_ACP_PREWARM: "1" },
    });
    first.api.setScenario([
      { content: [{ type: "text", text: "Hello." }] },
      ...planThenImplement(first, PLAN),
    ]);
    const ready = "spare: a prewarmed Claude Code process is ready";
    const spares = (n: number) =>
      poll(() => Promise.resolve(first.log().split(ready).length > n || undefined), 20_000);
    expect(await spares(1)).toBe(true);
    const { sessionId } = await first.newSession();
    expect(await first.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    // The spare's replacement, started after the first turn, is parked when the handoff comes.
    expect(await spares(2)).toBe(true);
    const claims = first.log().split("spare: the session claims the prewarmed process").length;
    await setMode(first, sessionId, "plan");
    expect(await first.prompt(sessionId, "Plan it, then do it.")).toMatchObject({
      stopReason: "end_turn",
    });
    const fresh = first.api.mainRequests().at(-1)!;
    expect(fresh.sessionId).toBe(continuationId(sessionId));
    expect(first.log().split("spare: the session claims the prewarmed process").length).toBe(
      claims,
    );
    expect(await readFile(join(first.cwd, "impl.txt"), "utf8")).toBe("implemented\n");

    const second = await reopenAgent(first);
    second.api.setScenario([{ content: [{ type: "text", text: "Still here." }] }]);
    await second.client.request(methods.agent.session.load, {
      sessionId,
      cwd: first.cwd,
      mcpServers: [],
    });
    const replayed = answered(second, "session/load", sessionId).updatesBefore.map((n) =>
      describeUpdate(n.update),
    );
    const said = replayed.filter((line) => /^(user|agent)_message_chunk/.test(line));
    expect(said[0]).toBe("user_message_chunk: Hi.");
    expect(said).toContain("agent_message_chunk: Hello.");
    expect(said).toContain("user_message_chunk: Plan it, then do it.");
    expect(
      said.some((line) => line.startsWith("user_message_chunk: Implement the following plan:")),
    ).toBe(true);
    expect(said.at(-1)).toBe("agent_message_chunk: Implemented.");
    expect(replayed).toContain("tool_call_update toolu_impl completed");
    expect((await claudeProcessOf(second, continuationId(sessionId)))?.command).toContain(
      `--resume=${continuationId(sessionId)}`,
    );

    expect((await second.prompt(sessionId, "Still there?")).stopReason).toBe("end_turn");
    const [request] = second.api.mainRequests();
    expect(request?.sessionId).toBe(continuationId(sessionId));
    expect(
      inOrder(conversation(request!), ["assistant: Implemented.", "user: Still there?"]),
    ).toEqual(["assistant: Implemented.", "user: Still there?"]);
    // Listed once, under the session's id.
    const listed = await second.client.request(methods.agent.session.list, { cwd: first.cwd });
    expect(listed.sessions.map((s: SessionInfo) => s.sessionId)).toEqual([sessionId]);
  });
});

describe("session/load after a cancelled turn", () => {
  it("replays only what the user wrote: Claude Code's interruption marker is no user message", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "text", text: "slow ".repeat(30), chunks: 30 }], delayMs: 200 },
        { content: [{ type: "text", text: "Fine." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();
    const cancelled = e2e.prompt(sessionId, "Talk slowly.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk");
    await e2e.cancel(sessionId);
    expect((await cancelled).stopReason).toBe("cancelled");
    await e2e.prompt(sessionId, "Next question.");
    await e2e.client.request(methods.agent.session.close, { sessionId });

    await e2e.client.request(methods.agent.session.load, {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    });

    const replayed = answered(e2e, "session/load", sessionId).updatesBefore.map((n) => n.update);
    const userText = replayed.flatMap((u) =>
      u.sessionUpdate === "user_message_chunk" ? [textOf(u.content)] : [],
    );
    expect(userText).toEqual(["Talk slowly.", "Next question."]);
  });
});

/** A plan made with the Task* tools (the agent's default): two tasks, the first completed. */
const TASK_PLAN: TurnSpec[] = [
  {
    content: [
      {
        type: "tool_use",
        name: "TaskCreate",
        input: { subject: "Write the file", description: "Write it", activeForm: "Writing" },
      },
      {
        type: "tool_use",
        name: "TaskCreate",
        input: { subject: "Check the file", description: "Check it", activeForm: "Checking" },
      },
    ],
  },
  {
    content: [
      { type: "tool_use", name: "TaskUpdate", input: { taskId: "1", status: "completed" } },
    ],
  },
  { content: [{ type: "text", text: "Planned." }] },
];

describe("session/load of a Task* plan", () => {
  it("replays the plan the Task* tools built, as the last plan before the load response", async () => {
    const e2e = await startE2E({ scenario: TASK_PLAN });
    const { sessionId } = await e2e.newSession();
    expect((await e2e.prompt(sessionId, "Plan it.")).stopReason).toBe("end_turn");
    const live = e2e.updates.of(sessionId, "plan").at(-1);
    expect(live?.entries.map((e) => [e.content, e.status])).toEqual([
      ["Write the file", "completed"],
      ["Check the file", "pending"],
    ]);
    await e2e.client.request(methods.agent.session.close, { sessionId });

    await e2e.client.request(methods.agent.session.load, {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    });

    const replayed = answered(e2e, "session/load", sessionId).updatesBefore.map((n) => n.update);
    const plan = replayed.filter((u) => u.sessionUpdate === "plan").at(-1);
    expect(plan).toEqual(live);
  });
});

/** Answers every prompt with `reply to: <prompt>`. */
const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `reply to: ${lastUserText(request)}` }],
});

describe("session/resume", () => {
  it("a fresh agent resumes without replaying anything, and the conversation continues; session/status says open, then saved in the fresh agent, then open", async () => {
    const first = await startE2E({ scenario: [echo] });
    const { sessionId } = await first.newSession();
    await first.prompt(sessionId, "Remember the word PAPAYA.");
    const status = async (e2e: E2E) =>
      (await e2e.rawRequest("session/status", { sessionId })).result;
    expect(await status(first)).toEqual({ status: "open" });

    const second = await reopenAgent(first, { scenario: [echo] });
    expect(await status(second)).toEqual({ status: "saved" });
    const response = await second.client.request(methods.agent.session.resume, {
      sessionId,
      cwd: first.cwd,
    });
    expect(await status(second)).toEqual({ status: "open" });

    expect(response.modes?.currentModeId).toBe("default");
    expect(answered(second, "session/resume", sessionId).updatesBefore).toEqual([]);
    expect((await claudeProcessOf(second, sessionId))?.command).toContain(`--resume=${sessionId}`);
    expect((await second.prompt(sessionId, "Which word?")).stopReason).toBe("end_turn");
    const chunks = second.updates.of(sessionId, "agent_message_chunk");
    expect(chunks.map((c) => textOf(c.content)).join("")).toBe("reply to: Which word?");
    // Nothing of the earlier turn reached the client, but the model was sent all of it.
    expect(second.updates.of(sessionId, "user_message_chunk")).toEqual([]);
    const sent = conversation(second.api.mainRequests()[0]!);
    const expected = [
      "user: Remember the word PAPAYA.",
      "assistant: reply to: Remember the word PAPAYA.",
      "user: Which word?",
    ];
    expect(inOrder(sent, expected)).toEqual(expected);
  });
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("session/list", () => {
  it("lists only the given cwd's sessions, titled by the prompt without control characters, with ISO updatedAt", async () => {
    // No title comes back from Claude Code's title request: the prompt names the session.
    const e2e = await startE2E({
      scenario: {
        turns: [echo, echo],
        sideReply: (request) =>
          isTitleRequest(request) ? { content: [{ type: "text", text: "no title" }] } : undefined,
      },
    });
    const otherCwd = join(dirname(e2e.cwd), "other-project");
    await mkdir(otherCwd);
    const startedAt = Date.now();
    const here = (await e2e.newSession()).sessionId;
    const there = (await e2e.newSession({ cwd: otherCwd })).sessionId;
    // BEL, a bidi override, a tab and a newline inside the prompt that names the session.
    await e2e.prompt(here, "Fix \u0007the\u202e login\tbug\n now");
    await e2e.prompt(there, "Elsewhere.");

    const listed = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    const elsewhere = await e2e.client.request(methods.agent.session.list, { cwd: otherCwd });
    const everywhere = await e2e.client.request(methods.agent.session.list, {});

    const withoutDates = (sessions: SessionInfo[]) => sessions.map(({ updatedAt: _, ...s }) => s);
    const idle = { claudeCode: { state: "idle" } };
    expect(withoutDates(listed.sessions)).toEqual([
      {
        sessionId: here,
        cwd: e2e.cwd,
        title: "Fix the login bug now",
        archived: false,
        _meta: idle,
      },
    ]);
    expect(listed.nextCursor).toBeUndefined();
    expect(withoutDates(elsewhere.sessions)).toEqual([
      { sessionId: there, cwd: otherCwd, title: "Elsewhere.", archived: false, _meta: idle },
    ]);
    expect(everywhere.sessions.map((s) => s.sessionId).sort()).toEqual([here, there].sort());
    for (const { updatedAt } of everywhere.sessions) {
      expect(updatedAt).toMatch(ISO_DATE);
      expect(Date.parse(updatedAt!)).toBeGreaterThanOrEqual(startedAt - 1_000);
      expect(Date.parse(updatedAt!)).toBeLessThanOrEqual(Date.now());
    }
  });

  it("pages past 50 sessions with an opaque cursor, a malformed cursor gets -32602, and a page after a cursor leaves out what was deleted or written to since", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "The one real conversation.");
    // The title the agent generates for it is saved in its transcript: wait for it, so the
    // listing does not move between the two pages (a page after a cursor holds only older ones).
    await e2e.updates.waitFor(sessionId, "session_info_update", (u) => !!u.title);
    // 54 more saved conversations: copies of the real transcript under new ids.
    const file = await transcriptFile(e2e.configDir, sessionId);
    expect(file).toBeDefined();
    const copies = Array.from({ length: 54 }, () => randomUUID());
    await Promise.all(copies.map((id) => cloneTranscript(file!, sessionId, id)));

    const first = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    expect(first.sessions).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await e2e.client.request(methods.agent.session.list, {
      cwd: e2e.cwd,
      cursor: first.nextCursor!,
    });
    expect(second.sessions).toHaveLength(5);
    expect(second.nextCursor).toBeUndefined();
    const ids = [...first.sessions, ...second.sessions].map((s) => s.sessionId);
    expect(new Set(ids).size).toBe(55);
    expect(ids.sort()).toEqual([sessionId, ...copies].sort());
    expect([...first.sessions, ...second.sessions].every((s) => s.cwd === e2e.cwd)).toBe(true);

    const error = await rawError(e2e, "session/list", { cwd: e2e.cwd, cursor: "not-a-cursor" });
    expect(error?.code).toBe(INVALID_PARAMS);

    // Between the pages, one conversation of the second page is deleted and another is
    // renamed (Claude Code's custom-title record appended): the same cursor's page leaves
    // both out, and a listing from the top shows the renamed one first, with its new title.
    const [, gone, renamed] = second.sessions.map((s) => s.sessionId);
    await rm((await transcriptFile(e2e.configDir, gone!))!);
    await appendFile(
      (await transcriptFile(e2e.configDir, renamed!))!,
      `${JSON.stringify({ type: "custom-title", customTitle: "Renamed by the user", sessionId: renamed })}\n`,
    );
    const again = await e2e.client.request(methods.agent.session.list, {
      cwd: e2e.cwd,
      cursor: first.nextCursor!,
    });
    expect(again.sessions.map((s) => s.sessionId)).toEqual(
      second.sessions.map((s) => s.sessionId).filter((id) => id !== gone && id !== renamed),
    );
    const top = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    expect(top.sessions[0]).toMatchObject({ sessionId: renamed, title: "Renamed by the user" });
    expect(top.sessions.some((s) => s.sessionId === gone)).toBe(false);
  });
});

describe("session/set_title", () => {
  it("saves the title where Claude Code keeps /rename's, so its own session listing shows it; the open session publishes it and session/list lists it", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Something to title.");
    await e2e.updates.waitFor(sessionId, "session_info_update", (u) => !!u.title);

    const response = await e2e.client.request<{ title: string }>("session/set_title", {
      sessionId,
      title: "Renamed in the editor",
    });
    expect(response).toEqual({ title: "Renamed in the editor" });
    await e2e.updates.waitFor(
      sessionId,
      "session_info_update",
      (u) => u.title === "Renamed in the editor",
    );
    const transcript = await readFile((await transcriptFile(e2e.configDir, sessionId))!, "utf8");
    expect(transcript).toContain('"type":"custom-title"');
    // What `claude --resume` lists: the SDK reads the same record.
    const info = await claudeCodeRow(e2e.configDir, sessionId);
    expect(info?.customTitle).toBe("Renamed in the editor");
    const listed = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    expect(listed.sessions).toEqual([
      expect.objectContaining({ sessionId, title: "Renamed in the editor" }),
    ]);
  });
});

/** The SDK and the agent's transcript readers read CLAUDE_CONFIG_DIR of this process. */
async function inConfigDir<T>(configDir: string, read: () => Promise<T>): Promise<T> {
  const saved = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = configDir;
  try {
    return await read();
  } finally {
    if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
    else process.env.CLAUDE_CONFIG_DIR = saved;
  }
}

/** A session's row as Claude Code's own listing (`claude --resume`) reads it. */
function claudeCodeRow(configDir: string, sessionId: string) {
  return inConfigDir(configDir, () => getSessionInfo(sessionId));
}

describe("session/archive and session/unarchive", () => {
  it("archive with Claude Code's own mark, so its listing hides the session too; unarchive and a later prompt bring it back", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Something to archive.");
    type Listed = { sessions: { sessionId: string; archived?: boolean | null }[] };
    const list = (archived?: string) =>
      e2e.client.request<Listed>("session/list", {
        cwd: e2e.cwd,
        ...(archived ? { archived } : {}),
      });

    await e2e.client.request("session/archive", { sessionId });
    expect((await claudeCodeRow(e2e.configDir, sessionId))?.archived).toBe(true);
    expect((await list()).sessions).toEqual([]);
    expect((await list("only")).sessions).toEqual([
      expect.objectContaining({ sessionId, archived: true }),
    ]);
    // Archiving closed the session.
    const closed = await e2e.client
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "x" }] })
      .catch((error: unknown) => error);
    expect((closed as { code?: number }).code).toBe(-32002);

    await e2e.client.request("session/unarchive", { sessionId });
    expect((await claudeCodeRow(e2e.configDir, sessionId))?.archived).toBe(false);
    expect((await list()).sessions).toEqual([
      expect.objectContaining({ sessionId, archived: false }),
    ]);

    // Claude Code's rule: a prompt sent after the mark unarchives the session.
    await e2e.client.request("session/archive", { sessionId });
    await e2e.client.request(methods.agent.session.resume, {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    });
    await e2e.prompt(sessionId, "Back to work.");
    expect((await claudeCodeRow(e2e.configDir, sessionId))?.archived).toBe(false);
    expect((await list()).sessions).toEqual([
      expect.objectContaining({ sessionId, archived: false }),
    ]);
  });
});

describe("session/close", () => {
  it("cancels the running prompt as session/cancel would, ends its Claude Code process, and closing twice is harmless", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "text", text: "slow ".repeat(40), chunks: 40 }], delayMs: 250 },
      ],
    });
    const { sessionId } = await e2e.newSession();
    const prompt = e2e.prompt(sessionId, "Talk slowly.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk");
    const claude = await claudeProcessOf(e2e, sessionId);
    expect(claude).toBeDefined();

    const { ms } = await timed(e2e.client.request(methods.agent.session.close, { sessionId }));
    const { value: response, ms: answeredAfter } = await timed(prompt);

    expect(response.stopReason).toBe("cancelled");
    expect(ms + answeredAfter).toBeLessThan(3_000);
    expect(await processEnds(e2e, claude!.pid)).toBe(true);
    // Nothing more of the turn after its answer.
    const closed = answered(e2e, "session/prompt", sessionId).response.seq;
    const after = e2e.transcript
      .sessionUpdates()
      .filter((n) => n.sessionId === sessionId && n.entry.seq > closed);
    expect(after.map((n) => n.update.sessionUpdate)).toEqual([]);
    await expect(e2e.client.request(methods.agent.session.close, { sessionId })).resolves.toEqual(
      {},
    );
    expect((await rawError(e2e, "session/prompt", { sessionId, prompt: [] }))?.code).toBe(
      RESOURCE_NOT_FOUND,
    );
    expect(await claudeProcesses(e2e)).toEqual([]);
  });
});

describe("session/delete", () => {
  it("deletes the saved conversation: gone from session/list and from disk, not loadable, and a second delete or an unknown id gets -32002", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Soon forgotten.");
    const kept = (await e2e.newSession()).sessionId;
    await e2e.prompt(kept, "Kept.");
    const file = await transcriptFile(e2e.configDir, sessionId);
    expect(file).toBeDefined();
    const claude = await claudeProcessOf(e2e, sessionId);

    await expect(e2e.client.request(methods.agent.session.delete, { sessionId })).resolves.toEqual(
      {},
    );

    expect(existsSync(file!)).toBe(false);
    const listed = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([kept]);
    expect(await processEnds(e2e, claude!.pid)).toBe(true);
    const load = { sessionId, cwd: e2e.cwd, mcpServers: [] };
    expect((await rawError(e2e, "session/load", load))?.code).toBe(RESOURCE_NOT_FOUND);
    // Deleting it again, like any unknown id, is not found on the raw wire (the SDK client
    // reads -32002 on delete as done) and deletes nothing else.
    const again = await rawError(e2e, "session/delete", { sessionId });
    const unknown = await rawError(e2e, "session/delete", { sessionId: randomUUID() });
    expect([again?.code, unknown?.code]).toEqual([RESOURCE_NOT_FOUND, RESOURCE_NOT_FOUND]);
    const still = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    expect(still.sessions.map((s) => s.sessionId)).toEqual([kept]);
  });
});

describe("session/fork", () => {
  it("gives a new session whose first model request carries the original conversation, leaving the original untouched", async () => {
    const e2e = await startE2E({ scenario: [echo, echo, echo] });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Remember the word PAPAYA.");
    const original = await readFile((await transcriptFile(e2e.configDir, sessionId))!, "utf8");

    const fork = await e2e.client.request<{ sessionId: string }>("session/fork", {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    });

    expect(fork.sessionId).not.toBe(sessionId);
    expect(fork.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await claudeProcessOf(e2e, fork.sessionId))?.command).toContain(
      `--resume=${fork.sessionId}`,
    );
    expect((await e2e.prompt(fork.sessionId, "Fork question.")).stopReason).toBe("end_turn");
    expect((await e2e.prompt(sessionId, "Original question.")).stopReason).toBe("end_turn");

    const [, forkRequest, originalRequest] = e2e.api.mainRequests();
    expect(forkRequest?.sessionId).toBe(fork.sessionId);
    const earlier = [
      "user: Remember the word PAPAYA.",
      "assistant: reply to: Remember the word PAPAYA.",
    ];
    expect(inOrder(conversation(forkRequest!), [...earlier, "user: Fork question."])).toEqual([
      ...earlier,
      "user: Fork question.",
    ]);
    // The original goes on from where it was: the fork's turn is not part of it.
    expect(originalRequest?.sessionId).toBe(sessionId);
    const continued = conversation(originalRequest!);
    expect(inOrder(continued, [...earlier, "user: Original question."])).toEqual([
      ...earlier,
      "user: Original question.",
    ]);
    expect(continued.join("\n")).not.toContain("Fork question.");
    const now = await readFile((await transcriptFile(e2e.configDir, sessionId))!, "utf8");
    expect(now.startsWith(original)).toBe(true);
    expect(now).not.toContain("Fork question.");
    // Each session's updates stay on its own id.
    const forkText = e2e.updates
      .of(fork.sessionId, "agent_message_chunk")
      .map((c) => textOf(c.content));
    expect(forkText.join("")).toBe("reply to: Fork question.");
  });
});

/** A run whose model reads `<extra>/secret.txt` on every prompt (and whose client rejects asks). */
async function readingOutsideTheCwd() {
  const extra = { dir: "", secret: "" };
  /** Reads the secret file; once its result is in, says so. */
  const readSecret: TurnSpec = (request) =>
    lastUserText(request) === ""
      ? { content: [{ type: "text", text: "Read it." }] }
      : { content: [{ type: "tool_use", name: "Read", input: { file_path: extra.secret } }] };
  const e2e = await startE2E({
    scenario: Array.from({ length: 6 }, () => readSecret),
    permission: { answer: "select", optionId: "reject" },
  });
  // Beside the cwd, one per test (the tests of this file share an agent and its sandbox).
  extra.dir = await mkdtemp(join(dirname(e2e.cwd), "extra-"));
  extra.secret = join(extra.dir, "secret.txt");
  await writeFile(extra.secret, "s3cret\n");
  /** The last Read result the model was sent. */
  const lastRead = () => toolResults(e2e.api.lastMainRequest()!).at(-1);
  return { e2e, extra: extra.dir, lastRead };
}

describe("additionalDirectories", () => {
  it("on session/new reach Claude Code: a Read there is not asked and the model's environment lists the directory", async () => {
    const { e2e, extra, lastRead } = await readingOutsideTheCwd();
    const { sessionId } = await e2e.newSession({ additionalDirectories: [extra] });

    await e2e.prompt(sessionId, "Read the secret.");

    expect(e2e.permissions.records).toHaveLength(0);
    expect(lastRead()?.is_error).toBe(false);
    expect(lastRead()?.text).toContain("s3cret");
    const environment = systemText(e2e.api.mainRequests()[0]!);
    expect(environment).toContain(`Additional working directories:\n  - ${extra}`);
  });

  it("on session/load and session/resume reach Claude Code: a Read asked before is no longer asked", async () => {
    const { e2e, extra, lastRead } = await readingOutsideTheCwd();
    const { sessionId } = await e2e.newSession();
    // Without the directory, the Read is outside the working directories: asked (refused).
    await e2e.prompt(sessionId, "Read the secret.");
    expect(e2e.permissions.records).toHaveLength(1);
    expect(lastRead()?.is_error).toBe(true);

    for (const method of [methods.agent.session.load, methods.agent.session.resume]) {
      await e2e.client.request(methods.agent.session.close, { sessionId });
      await e2e.client.request(method, {
        sessionId,
        cwd: e2e.cwd,
        mcpServers: [],
        additionalDirectories: [extra],
      });
      expect((await claudeProcessOf(e2e, sessionId))?.command).toContain(`--add-dir=${extra}`);
      await e2e.prompt(sessionId, "Read the secret.");
      expect(e2e.permissions.records, method).toHaveLength(1);
      expect(lastRead()?.is_error, method).toBe(false);
      expect(lastRead()?.text, method).toContain("s3cret");
      // Claude Code tells the model: "# Environment update - Additional working directories added".
      expect(systemText(e2e.api.lastMainRequest()!), method).toContain(`  - ${extra}`);
    }
  });
});

describe("session titles", () => {
  it("publishes the title Claude Code generated as session_info_update after the turn, cleaned", async () => {
    const e2e = await startE2E({
      scenario: {
        turns: [{ content: [{ type: "text", text: "On it." }] }],
        sideReply: (request) =>
          isTitleRequest(request)
            ? {
                content: [
                  { type: "text", text: JSON.stringify({ title: "Login\u0007 bug\tfix" }) },
                ],
              }
            : undefined,
      },
      env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: undefined },
    });
    const { sessionId } = await e2e.newSession();

    expect((await e2e.prompt(sessionId, "Fix the login bug.")).stopReason).toBe("end_turn");
    const info = await e2e.updates.waitFor(sessionId, "session_info_update", (u) => !!u.title);

    expect(e2e.api.sideRequests().some(isTitleRequest)).toBe(true);
    expect(info.title).toBe("Login bug fix");
    expect(info.updatedAt).toMatch(ISO_DATE);
    const turnEnd = answered(e2e, "session/prompt", sessionId).response.seq;
    const published = e2e.transcript
      .sessionUpdates()
      .find((n) => n.sessionId === sessionId && n.update.sessionUpdate === "session_info_update");
    expect(published!.entry.seq).toBeGreaterThan(turnEnd);
    const listed = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
    expect(listed.sessions).toEqual([
      expect.objectContaining({ sessionId, title: "Login bug fix" }),
    ]);
  });

  it("publishes a title that Claude Code produces after the turn has ended", async () => {
    const e2e = await startE2E({
      scenario: {
        turns: [{ content: [{ type: "text", text: "On it." }] }],
        sideReply: (request) =>
          isTitleRequest(request)
            ? {
                content: [{ type: "text", text: JSON.stringify({ title: "Slow title" }) }],
                firstByteDelayMs: 2_000,
              }
            : undefined,
      },
      env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: undefined },
    });
    const { sessionId } = await e2e.newSession();
    expect((await e2e.prompt(sessionId, "Fix the login bug.")).stopReason).toBe("end_turn");
    expect(e2e.updates.of(sessionId, "session_info_update")).toEqual([]);

    // Claude Code saves the title after the turn (session/list shows it)...
    const saved = await poll(async () => {
      const listed = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
      return listed.sessions[0]?.title === "Slow title" ? true : undefined;
    }, 10_000);
    expect(saved).toBe(true);
    // ...and the client should hear of it without having to send another prompt.
    const info = await e2e.updates.waitFor(sessionId, "session_info_update", () => true, 3_000);
    expect(info.title).toBe("Slow title");
  });
});

describe("bad input", () => {
  it("unknown session ids get -32002 from load, resume, fork, prompt, set_mode, set_config_option and close, and start no Claude Code", async () => {
    // An agent of its own: it must list no session and run no Claude Code at the end.
    const e2e = await startE2E({ ownAgent: true });
    const unknown = randomUUID();
    const at = { sessionId: unknown, cwd: e2e.cwd, mcpServers: [] };
    const requests: Array<[string, unknown]> = [
      ["session/load", at],
      ["session/resume", at],
      ["session/fork", at],
      ["session/prompt", { sessionId: unknown, prompt: [{ type: "text", text: "hi" }] }],
      ["session/set_mode", { sessionId: unknown, modeId: "plan" }],
      ["session/set_config_option", { sessionId: unknown, configId: "mode", value: "plan" }],
      ["session/close", { sessionId: unknown }],
    ];

    const codes: Record<string, number | undefined> = {};
    for (const [method, params] of requests)
      codes[method] = (await rawError(e2e, method, params))?.code;

    expect(codes).toEqual(Object.fromEntries(requests.map(([m]) => [m, RESOURCE_NOT_FOUND])));
    expect(await claudeProcesses(e2e)).toEqual([]);
    const listed = await e2e.client.request(methods.agent.session.list, {});
    expect(listed.sessions).toEqual([]);
  });

  it("a relative or missing cwd gets -32602 from load, resume and fork, another project's cwd gets -32002, and nothing half-created is left", async () => {
    // An agent of its own: what it lists and runs at the end must be this test's alone.
    const e2e = await startE2E({ ownAgent: true });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Saved.");
    const claude = await claudeProcessOf(e2e, sessionId);
    await e2e.client.request(methods.agent.session.close, { sessionId });
    expect(await processEnds(e2e, claude!.pid)).toBe(true);
    const otherProject = join(dirname(e2e.cwd), "other-project");
    await mkdir(otherProject);

    const codes: string[] = [];
    for (const method of ["session/load", "session/resume", "session/fork"]) {
      for (const cwd of ["relative/dir", join(e2e.cwd, "missing"), otherProject]) {
        const error = await rawError(e2e, method, { sessionId, cwd, mcpServers: [] });
        codes.push(
          `${method} ${cwd === otherProject ? "other project" : cwd.startsWith("/") ? "missing" : "relative"}: ${error?.code}`,
        );
      }
    }

    expect(codes).toEqual(
      ["session/load", "session/resume", "session/fork"].flatMap((m) => [
        `${m} relative: ${INVALID_PARAMS}`,
        `${m} missing: ${INVALID_PARAMS}`,
        `${m} other project: ${RESOURCE_NOT_FOUND}`,
      ]),
    );
    expect(await claudeProcesses(e2e)).toEqual([]);
    expect((await rawError(e2e, "session/prompt", { sessionId, prompt: [] }))?.code).toBe(
      RESOURCE_NOT_FOUND,
    );
    // No fork was made: the one saved conversation is still the only one.
    const listed = await e2e.client.request(methods.agent.session.list, {});
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
  });
});
