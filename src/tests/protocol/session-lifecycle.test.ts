import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  RequestError,
  type ClientContext,
  type PromptResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClaudeTranscriptMessage } from "../../claude/transcripts.js";
import { continuationId } from "../../session/lifecycle/continuations.js";
import { LIST_PAGE_SIZE } from "../../session/lifecycle/history.js";
import { fakeClaude, result, streamedText, type FakeClaudeQuery } from "../support/fake-claude.js";
import { FakeTranscripts, savedMessage } from "../support/fake-transcripts.js";
import { connectInProcess, isolatedEnv, START_UPDATES } from "../support/in-process.js";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const SAVED = "11111111-1111-4111-8111-111111111111";

const transcriptMessage = (type: "user" | "assistant", message: unknown) =>
  savedMessage(SAVED, type, message);

const CONVERSATION: ClaudeTranscriptMessage[] = [
  transcriptMessage("user", { role: "user", content: [{ type: "text", text: "run the tests" }] }),
  transcriptMessage("assistant", {
    id: "msg_a",
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Let me run them." },
      { type: "text", text: "Running npm test." },
      { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "npm test" } },
    ],
  }),
  transcriptMessage("user", {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: "all passed", is_error: false },
    ],
  }),
  transcriptMessage("assistant", {
    id: "msg_b",
    role: "assistant",
    content: [
      {
        type: "tool_use",
        id: "toolu_2",
        name: "TodoWrite",
        input: { todos: [{ content: "ship", status: "pending", activeForm: "shipping" }] },
      },
      {
        type: "tool_use",
        id: "toolu_3",
        name: "Read",
        input: { file_path: "/x/never-answered.txt" },
      },
    ],
  }),
  transcriptMessage("user", {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_2", content: "Todos updated", is_error: false },
    ],
  }),
];

async function setup() {
  const cwd = mkdtempSync(join(tmpdir(), "acp-lifecycle-"));
  const transcripts = new FakeTranscripts();
  transcripts.add(
    { sessionId: SAVED, cwd, summary: "run the tests", lastModified: 1_000 },
    CONVERSATION,
  );
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery, transcripts });
  cleanup.push(() => harness.close());
  return { ...harness, claude, transcripts, cwd };
}

/** A prompt Claude answers with one text message. */
async function answeredPrompt(
  agent: ClientContext,
  query: FakeClaudeQuery,
  sessionId: string,
  text: string,
): Promise<PromptResponse> {
  const prompt = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  await query.waitForSent(1);
  query.emit(...streamedText("m", "ok"), result());
  return prompt;
}

function rpcCode(error: unknown): number {
  expect(error).toBeInstanceOf(RequestError);
  return (error as RequestError).code;
}

function updatesOf(updates: { sessionId: string; update: SessionUpdate }[], sessionId: string) {
  return updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
}

describe("session/load", () => {
  it("replays the whole conversation as session/update before it answers, then continues it", async () => {
    const { agent, claude, cwd, updates } = await setup();
    const response = await agent.request(methods.agent.session.load, {
      sessionId: SAVED,
      cwd,
      mcpServers: [],
    });
    const replayed = updatesOf(updates, SAVED).filter((u) => !START_UPDATES.has(u.sessionUpdate));
    expect(replayed.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "tool_call",
      "plan",
      "tool_call_update",
    ]);
    expect(replayed[0]).toMatchObject({ content: { type: "text", text: "run the tests" } });
    expect(replayed[4]).toMatchObject({ toolCallId: "toolu_1", status: "completed" });
    expect(replayed[6]).toMatchObject({ entries: [{ content: "ship", status: "pending" }] });
    // A tool call the transcript leaves without a result is closed, never left pending.
    expect(replayed[7]).toMatchObject({ toolCallId: "toolu_3", status: "failed" });
    expect(response.modes?.currentModeId).toBe("default");
    // The session continues the saved conversation.
    const query = claude.started.at(-1)!;
    expect(query.options.resume).toBe(SAVED);
    expect(await answeredPrompt(agent, query, SAVED, "again")).toMatchObject({
      stopReason: "end_turn",
    });
  });

  it("replays as the user's words only what the user wrote: a message Claude Code wrote itself (a background task's notification) is not a user message", async () => {
    const { agent, transcripts, cwd, updates } = await setup();
    const notification = {
      ...transcriptMessage("user", {
        role: "user",
        content: "<task-notification>\n<task-id>a1</task-id>\n</task-notification>",
      }),
      origin: { kind: "task-notification" as const },
    };
    const typed = {
      ...transcriptMessage("user", { role: "user", content: "and now?" }),
      origin: { kind: "human" as const },
    };
    const sessionId = "33333333-3333-4333-8333-333333333333";
    transcripts.add({ sessionId, cwd, lastModified: 3_000 }, [
      ...CONVERSATION,
      notification,
      typed,
    ]);
    await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const userTexts = updatesOf(updates, sessionId).flatMap((u) =>
      u.sessionUpdate === "user_message_chunk" && u.content.type === "text" ? [u.content.text] : [],
    );
    expect(userTexts).toEqual(["run the tests", "and now?"]);
  });

  it("an unknown session id gets resource not found and starts nothing", async () => {
    const { agent, claude, cwd } = await setup();
    const error = await agent
      .request(methods.agent.session.load, {
        sessionId: "22222222-2222-4222-8222-222222222222",
        cwd,
        mcpServers: [],
      })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32002);
    expect(claude.started).toHaveLength(0);
  });

  it("a relative or missing cwd gets invalid params", async () => {
    const { agent, cwd } = await setup();
    for (const bad of ["relative", join(cwd, "missing")]) {
      const error = await agent
        .request(methods.agent.session.load, { sessionId: SAVED, cwd: bad, mcpServers: [] })
        .catch((e: unknown) => e);
      expect(rpcCode(error)).toBe(-32602);
    }
  });
});

describe("session/resume", () => {
  it("continues the conversation without replaying it", async () => {
    const { agent, claude, cwd, updates } = await setup();
    await agent.request(methods.agent.session.resume, { sessionId: SAVED, cwd });
    expect(updatesOf(updates, SAVED).filter((u) => !START_UPDATES.has(u.sessionUpdate))).toEqual(
      [],
    );
    expect(claude.started.at(-1)!.options.resume).toBe(SAVED);
  });

  it("additionalDirectories reach Claude", async () => {
    const { agent, claude, cwd } = await setup();
    const extra = mkdtempSync(join(tmpdir(), "acp-extra-"));
    await agent.request(methods.agent.session.resume, {
      sessionId: SAVED,
      cwd,
      additionalDirectories: [extra],
    });
    expect(claude.started.at(-1)!.options.additionalDirectories).toEqual([extra]);
  });
});

describe("session/list", () => {
  it("lists saved sessions of a cwd with cleaned titles and updatedAt", async () => {
    const { agent, transcripts, cwd } = await setup();
    transcripts.add({ sessionId: "other", cwd: "/elsewhere", summary: "x", lastModified: 5 });
    transcripts.add({
      sessionId: "titled",
      cwd,
      customTitle: "Fix \u001b[31mthe\u0007 bug\n now",
      summary: "s",
      lastModified: 2_000,
    });
    const response = await agent.request(methods.agent.session.list, { cwd });
    const idle = { claudeCode: { state: "idle" } };
    expect(response.sessions).toEqual([
      {
        sessionId: "titled",
        cwd,
        title: "Fix the bug now",
        updatedAt: new Date(2_000).toISOString(),
        archived: false,
        _meta: idle,
      },
      {
        sessionId: SAVED,
        cwd,
        title: "run the tests",
        updatedAt: new Date(1_000).toISOString(),
        archived: false,
        _meta: idle,
      },
    ]);
  });

  it("each row says its state: running in this agent, failed on its last turn, or idle", async () => {
    const { agent, claude, transcripts, cwd } = await setup();
    transcripts.add({ sessionId: "failed", cwd, summary: "f", lastModified: 500 });
    (transcripts.sessions.get("failed")!.info as { lastTurnFailed?: boolean }).lastTurnFailed =
      true;
    await agent.request(methods.agent.session.load, { sessionId: SAVED, cwd, mcpServers: [] });
    const query = claude.started.at(-1)!;
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId: SAVED,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    const states = async () =>
      Object.fromEntries(
        (await agent.request(methods.agent.session.list, { cwd })).sessions.map((s) => [
          s.sessionId,
          (s._meta?.claudeCode as { state?: string }).state,
        ]),
      );
    expect(await states()).toEqual({ [SAVED]: "running", failed: "failed" });
    query.emit(...streamedText("m", "ok"), result());
    await prompt;
    expect((await states())[SAVED]).toBe("idle");
  });

  it("paginates with an opaque cursor", async () => {
    const { agent, transcripts, cwd } = await setup();
    for (let i = 0; i < LIST_PAGE_SIZE + 5; i++) {
      transcripts.add({ sessionId: `s-${i}`, cwd, summary: `s${i}`, lastModified: 10_000 + i });
    }
    const first = await agent.request(methods.agent.session.list, { cwd });
    expect(first.sessions).toHaveLength(LIST_PAGE_SIZE);
    expect(first.nextCursor).toBeTruthy();
    const second = await agent.request(methods.agent.session.list, {
      cwd,
      cursor: first.nextCursor!,
    });
    expect(second.sessions).toHaveLength(6);
    expect(second.nextCursor).toBeUndefined();
    const ids = new Set([...first.sessions, ...second.sessions].map((s) => s.sessionId));
    expect(ids.size).toBe(LIST_PAGE_SIZE + 6);
  });

  it("a page after a cursor holds exactly the sessions after the last one shown, though the listing moved in between", async () => {
    const { agent, transcripts, cwd } = await setup();
    transcripts.sessions.clear();
    for (let i = 0; i < LIST_PAGE_SIZE + 10; i++) {
      transcripts.add({ sessionId: `s-${i}`, cwd, summary: `s${i}`, lastModified: 10_000 + i });
    }
    const first = await agent.request(methods.agent.session.list, { cwd });
    const shown = first.sessions.map((s) => s.sessionId);
    // Between the pages: the oldest conversation is written to (it jumps to the front), and two
    // conversations of the first page are deleted (everything after them moves up).
    transcripts.sessions.get("s-0")!.info.lastModified = 99_999;
    await transcripts.delete("s-59");
    await transcripts.delete("s-58");
    const second = await agent.request(methods.agent.session.list, {
      cwd,
      cursor: first.nextCursor!,
    });
    // The rest of the first listing, oldest last, each once; the moved one is newer than the
    // cursor, so the next listing from the top shows it.
    expect(second.sessions.map((s) => s.sessionId)).toEqual(
      Array.from({ length: 9 }, (_, i) => `s-${9 - i}`),
    );
    expect(shown.filter((id) => second.sessions.some((s) => s.sessionId === id))).toEqual([]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("a session written to while its page is listed (a process that ends writes its last lines) is shown as it is now, not left out", async () => {
    const { agent, transcripts, cwd } = await setup();
    transcripts.sessions.clear();
    transcripts.add({ sessionId: "s-ending", cwd, summary: "ending", lastModified: 10_000 });
    transcripts.add({ sessionId: "s-other", cwd, summary: "other", lastModified: 9_000 });
    const saved = transcripts.saved.bind(transcripts);
    vi.spyOn(transcripts, "saved").mockImplementation(async (dirs) => {
      const listed = await saved(dirs);
      transcripts.sessions.get("s-ending")!.info.lastModified = 10_004;
      return listed;
    });
    const page = await agent.request(methods.agent.session.list, { cwd });
    expect(page.sessions.map((s) => [s.sessionId, s.updatedAt])).toEqual([
      ["s-ending", new Date(10_004).toISOString()],
      ["s-other", new Date(9_000).toISOString()],
    ]);
  });

  it("the saved conversations are listed once for all the pages, and each page reads only the rows it shows", async () => {
    const { agent, transcripts, cwd } = await setup();
    for (let i = 0; i < 2 * LIST_PAGE_SIZE + 5; i++) {
      transcripts.add({ sessionId: `s-${i}`, cwd, summary: `s${i}`, lastModified: 10_000 + i });
    }
    const listed = vi.spyOn(transcripts, "saved");
    const read = vi.spyOn(transcripts, "rows");
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await agent.request(methods.agent.session.list, {
        cwd,
        ...(cursor ? { cursor } : {}),
      });
      ids.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(ids).toHaveLength(2 * LIST_PAGE_SIZE + 6);
    expect(new Set(ids).size).toBe(ids.length);
    expect(listed).toHaveBeenCalledTimes(1);
    for (const [rows] of read.mock.calls)
      expect(rows.length).toBeLessThanOrEqual(LIST_PAGE_SIZE + 1);
  });

  it("a cursor whose listing the agent no longer keeps (a restarted agent) still resumes right after the last session shown", async () => {
    const { agent, transcripts, claude, cwd } = await setup();
    for (let i = 0; i < LIST_PAGE_SIZE + 5; i++) {
      transcripts.add({ sessionId: `s-${i}`, cwd, summary: `s${i}`, lastModified: 10_000 + i });
    }
    const first = await agent.request(methods.agent.session.list, { cwd });
    const restarted = await connectInProcess({ startQuery: claude.startQuery, transcripts });
    cleanup.push(() => restarted.close());
    const second = await restarted.agent.request(methods.agent.session.list, {
      cwd,
      cursor: first.nextCursor!,
    });
    expect(second.sessions.map((s) => s.sessionId)).toEqual([
      ...Array.from({ length: 5 }, (_, i) => `s-${4 - i}`),
      SAVED,
    ]);
  });

  it("a malformed cursor gets invalid params", async () => {
    const { agent, cwd } = await setup();
    const error = await agent
      .request(methods.agent.session.list, { cwd, cursor: "%%%" })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32602);
  });
});

describe("session/close", () => {
  it("cancels running work as session/cancel would, ends the Claude process, and closing twice is harmless", async () => {
    const { agent, claude, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const query = claude.started.at(-1)!;
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "x" }],
    });
    await query.waitForSent(1);
    await agent.request(methods.agent.session.close, { sessionId });
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(query.closed).toBe(true);
    await agent.request(methods.agent.session.close, { sessionId });
    const error = await agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "x" }] })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32002);
  });
});

describe("session/delete", () => {
  it("closes the session and deletes its saved conversation", async () => {
    const { agent, transcripts, cwd } = await setup();
    await agent.request(methods.agent.session.resume, { sessionId: SAVED, cwd });
    await agent.request(methods.agent.session.delete, { sessionId: SAVED });
    expect(transcripts.sessions.has(SAVED)).toBe(false);
  });

  it("an unknown session deletes nothing (resource not found, which SDK clients read as done)", async () => {
    const { agent, transcripts } = await setup();
    // The ACP SDK client resolves -32002 for delete as idempotent success; the wire
    // code itself is pinned by the end-to-end tests.
    await expect(
      agent.request(methods.agent.session.delete, { sessionId: "nope" }),
    ).resolves.toEqual({});
    expect(transcripts.sessions.has(SAVED)).toBe(true);
  });
});

describe("session/set_title", () => {
  it("saves the title as Claude Code's /rename does: on one line, cleaned, and the listing shows it", async () => {
    const { agent, transcripts, cwd } = await setup();
    const response = await agent.request<{ title: string }>("session/set_title", {
      sessionId: SAVED,
      title: "  Fix\n the\u0007 parser  ",
    });
    expect(response).toEqual({ title: "Fix the parser" });
    expect(transcripts.sessions.get(SAVED)!.info.customTitle).toBe("Fix the parser");
    const listed = await agent.request(methods.agent.session.list, { cwd });
    expect(listed.sessions.find((s) => s.sessionId === SAVED)?.title).toBe("Fix the parser");
  });

  it("a title longer than 200 characters is cut after a whole word", async () => {
    const { agent } = await setup();
    const { title } = await agent.request<{ title: string }>("session/set_title", {
      sessionId: SAVED,
      title: "word ".repeat(60),
    });
    expect(title.length).toBeLessThanOrEqual(200);
    expect(title.endsWith("word")).toBe(true);
  });

  it("a title with nothing visible (whitespace, controls, format characters) is -32602, an unknown session -32002, and nothing is saved", async () => {
    const { agent, transcripts } = await setup();
    for (const title of [" \n\u0000 ", "\u0000\u0001 \u200b", "\ufeff\u2060\u200e"]) {
      const blank = await agent
        .request("session/set_title", { sessionId: SAVED, title })
        .catch((e: unknown) => e);
      expect(rpcCode(blank)).toBe(-32602);
    }
    expect(transcripts.sessions.get(SAVED)!.info.customTitle).toBeUndefined();
    const unknown = await agent
      .request("session/set_title", { sessionId: "nope", title: "x" })
      .catch((e: unknown) => e);
    expect(rpcCode(unknown)).toBe(-32002);
    const malformed = await agent
      .request("session/set_title", { sessionId: SAVED })
      .catch((e: unknown) => e);
    expect(rpcCode(malformed)).toBe(-32602);
  });

  it("an open session that has saved nothing yet is told to send a prompt first", async () => {
    const { agent, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const error = await agent
      .request("session/set_title", { sessionId, title: "Too early" })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32602);
  });
});

describe("session/archive and session/unarchive", () => {
  type Listed = { sessions: { sessionId: string; archived?: boolean | null }[] };
  const list = (agent: ClientContext, params: Record<string, unknown>) =>
    agent.request<Listed>("session/list", params);

  it("archiving hides the session from the default listing; `only` and `include` show it archived; unarchiving brings it back", async () => {
    const { agent, transcripts, cwd } = await setup();
    transcripts.add({ sessionId: "kept", cwd, summary: "kept", lastModified: 2_000 });
    const before = await list(agent, { cwd });
    expect(before.sessions.map((s) => [s.sessionId, s.archived])).toEqual([
      ["kept", false],
      [SAVED, false],
    ]);
    await expect(agent.request("session/archive", { sessionId: SAVED })).resolves.toEqual({});
    expect(transcripts.sessions.get(SAVED)!.info.archived).toBe(true);
    expect((await list(agent, { cwd })).sessions.map((s) => s.sessionId)).toEqual(["kept"]);
    expect((await list(agent, { cwd, archived: "exclude" })).sessions).toHaveLength(1);
    expect((await list(agent, { cwd, archived: "only" })).sessions).toEqual([
      expect.objectContaining({ sessionId: SAVED, archived: true }),
    ]);
    expect(
      (await list(agent, { cwd, archived: "include" })).sessions.map((s) => s.archived),
    ).toEqual([false, true]);
    // Archiving an archived session succeeds.
    await expect(agent.request("session/archive", { sessionId: SAVED })).resolves.toEqual({});
    await expect(agent.request("session/unarchive", { sessionId: SAVED })).resolves.toEqual({});
    expect((await list(agent, { cwd })).sessions.map((s) => s.archived)).toEqual([false, false]);
    // Unarchiving a session that is not archived succeeds too.
    await expect(agent.request("session/unarchive", { sessionId: SAVED })).resolves.toEqual({});
  });

  it("archiving an open session closes it first, as session/close would; unarchiving opens nothing", async () => {
    const { agent, claude, cwd } = await setup();
    await agent.request(methods.agent.session.resume, { sessionId: SAVED, cwd });
    const query = claude.started.at(-1)!;
    await agent.request("session/archive", { sessionId: SAVED });
    expect(query.closed).toBe(true);
    const error = await agent
      .request(methods.agent.session.prompt, {
        sessionId: SAVED,
        prompt: [{ type: "text", text: "x" }],
      })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32002);
    const started = claude.started.length;
    await agent.request("session/unarchive", { sessionId: SAVED });
    expect(claude.started).toHaveLength(started);
  });

  it("an unknown session is -32002, a filter this agent does not know -32602, and nothing changes", async () => {
    const { agent, transcripts, cwd } = await setup();
    for (const method of ["session/archive", "session/unarchive"]) {
      const error = await agent.request(method, { sessionId: "nope" }).catch((e: unknown) => e);
      expect(rpcCode(error)).toBe(-32002);
    }
    const unknown = await list(agent, { cwd, archived: "hidden" }).catch((e: unknown) => e);
    expect(rpcCode(unknown)).toBe(-32602);
    expect(transcripts.sessions.get(SAVED)!.info.archived).toBeUndefined();
  });

  it("an open session that has saved nothing yet is told to send a prompt first, and stays open", async () => {
    const { agent, claude, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const error = await agent.request("session/archive", { sessionId }).catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32602);
    expect(claude.started.at(-1)!.closed).toBe(false);
  });
});

describe("a session recorded in another directory of its project folder", () => {
  const ALLOW = { claudeAgentAcp: { allowCwdChange: true } };

  /** SAVED recorded in /…/p-a-b, open under /…/p/a/b (one project folder): load's case. */
  async function openElsewhere() {
    const root = mkdtempSync(join(tmpdir(), "acp-cwd-change-"));
    const recorded = join(root, "p-a-b");
    const cwd = join(root, "p", "a", "b");
    for (const dir of [recorded, cwd]) mkdirSync(dir, { recursive: true });
    const transcripts = new FakeTranscripts();
    transcripts.add({ sessionId: SAVED, cwd: recorded, summary: "x" }, CONVERSATION);
    const claude = fakeClaude();
    const harness = await connectInProcess({ startQuery: claude.startQuery, transcripts });
    cleanup.push(() => harness.close());
    const { agent } = harness;
    const load = agent.request(methods.agent.session.load, {
      sessionId: SAVED,
      cwd,
      mcpServers: [],
    });
    expect(rpcCode(await load.catch((e: unknown) => e))).toBe(-32602);
    await agent.request(methods.agent.session.resume, { sessionId: SAVED, cwd, _meta: ALLOW });
    return { agent, claude, transcripts };
  }

  it("set_title, archive and unarchive are refused as load is (-32602), change nothing and leave the session open; with allowCwdChange they are done", async () => {
    const { agent, claude, transcripts } = await openElsewhere();
    const saved = () => transcripts.sessions.get(SAVED)!.info;
    const requests: [string, Record<string, unknown>][] = [
      ["session/set_title", { sessionId: SAVED, title: "Elsewhere" }],
      ["session/unarchive", { sessionId: SAVED }],
      ["session/archive", { sessionId: SAVED }],
    ];
    for (const [method, params] of requests) {
      const error = await agent.request(method, params).catch((e: unknown) => e);
      expect(rpcCode(error)).toBe(-32602);
      expect((error as RequestError).message).toContain("allowCwdChange");
    }
    expect(saved().customTitle).toBeUndefined();
    expect(saved().archived).toBeUndefined();
    expect(claude.started.at(-1)!.closed).toBe(false);

    for (const [method, params] of requests)
      await agent.request(method, { ...params, _meta: ALLOW });
    expect(saved().customTitle).toBe("Elsewhere");
    expect(saved().archived).toBe(true);
    expect(claude.started.at(-1)!.closed).toBe(true);
  });
});

describe("session/fork", () => {
  it("copies the saved conversation into a new session that continues it", async () => {
    const { agent, claude, transcripts, cwd } = await setup();
    const response = await agent.request<{ sessionId: string }>("session/fork", {
      sessionId: SAVED,
      cwd,
    });
    expect(response.sessionId).not.toBe(SAVED);
    expect(transcripts.sessions.has(response.sessionId)).toBe(true);
    expect(claude.started.at(-1)!.options.resume).toBe(response.sessionId);
  });
});

describe("a session whose plan was handed off to a fresh conversation", () => {
  const CONTINUED = continuationId(SAVED);
  const IMPLEMENTATION: ClaudeTranscriptMessage[] = [
    transcriptMessage("user", {
      role: "user",
      content: [{ type: "text", text: "Implement the following plan: ship" }],
    }),
    transcriptMessage("assistant", {
      id: "msg_c",
      role: "assistant",
      content: [{ type: "text", text: "Shipped." }],
    }),
  ];

  async function handedOff() {
    const context = await setup();
    context.transcripts.add(
      { sessionId: CONTINUED, cwd: context.cwd, summary: "Implement", lastModified: 3_000 },
      IMPLEMENTATION,
    );
    return context;
  }

  it("session/load replays both conversations in order and continues the latest", async () => {
    const { agent, claude, cwd, updates } = await handedOff();
    await agent.request(methods.agent.session.load, { sessionId: SAVED, cwd, mcpServers: [] });
    const texts = updatesOf(updates, SAVED).flatMap((u) =>
      (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk") &&
      u.content.type === "text"
        ? [`${u.sessionUpdate}: ${u.content.text}`]
        : [],
    );
    expect(texts).toEqual([
      "user_message_chunk: run the tests",
      "agent_message_chunk: Running npm test.",
      "user_message_chunk: Implement the following plan: ship",
      "agent_message_chunk: Shipped.",
    ]);
    expect(claude.started.at(-1)!.options.resume).toBe(CONTINUED);
  });

  it("session/resume continues the latest conversation under the session's own id", async () => {
    const { agent, claude, cwd } = await handedOff();
    await agent.request(methods.agent.session.resume, { sessionId: SAVED, cwd });
    const query = claude.started.at(-1)!;
    expect(query.options.resume).toBe(CONTINUED);
    expect(await answeredPrompt(agent, query, SAVED, "next")).toMatchObject({
      stopReason: "end_turn",
    });
  });

  it("session/list shows the session once, not its continuation", async () => {
    const { agent, cwd } = await handedOff();
    const response = await agent.request(methods.agent.session.list, { cwd });
    expect(response.sessions.map((s) => s.sessionId)).toEqual([SAVED]);
  });

  it("session/delete deletes every conversation of the session", async () => {
    const { agent, transcripts } = await handedOff();
    await agent.request(methods.agent.session.delete, { sessionId: SAVED });
    expect(transcripts.sessions.has(SAVED)).toBe(false);
    expect(transcripts.sessions.has(CONTINUED)).toBe(false);
  });

  it("session/fork copies the latest conversation: the fork goes on from where the session is", async () => {
    const { agent, transcripts, cwd } = await handedOff();
    const { sessionId } = await agent.request<{ sessionId: string }>("session/fork", {
      sessionId: SAVED,
      cwd,
    });
    const forked = await transcripts.messages(sessionId);
    expect(forked).toEqual(IMPLEMENTATION);
  });
});

describe("a fast start and cheap idle sessions", () => {
  it("a session started on a prewarmed process takes the conversation id Claude Code assigned", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "acp-spare-"));
    const claude = fakeClaude();
    const harness = await connectInProcess({
      startQuery: (options) => {
        const query = claude.startQuery(options);
        // A claimed spare names the conversation itself.
        Object.defineProperty(query, "sessionId", { value: Promise.resolve("claimed-by-claude") });
        return query;
      },
    });
    cleanup.push(() => harness.close());
    const { sessionId } = await harness.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [],
    });
    expect(sessionId).toBe("claimed-by-claude");
    const query = claude.started[0]!;
    const prompt = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    await query.waitForSent(1);
    query.emit(...streamedText("m", "hello"), result());
    await prompt;
    expect(harness.updates.every((n) => n.sessionId === sessionId)).toBe(true);
  });

  it("an idle session's Claude process is closed after the idle time and the next prompt resumes it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "acp-idle-"));
    const claude = fakeClaude();
    const harness = await connectInProcess({
      startQuery: claude.startQuery,
      env: isolatedEnv({ CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS: "50" }),
    });
    cleanup.push(() => harness.close());
    const { sessionId } = await harness.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [],
    });
    const first = claude.started[0]!;
    const prompt = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "one" }],
    });
    await first.waitForSent(1);
    first.emit(result());
    await prompt;
    await new Promise((r) => setTimeout(r, 150));
    expect(first.closed).toBe(true);
    const restarted = claude.nextStart();
    const next = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "two" }],
    });
    const second = await restarted;
    expect(second.options.resume).toBe(sessionId);
    await second.waitForSent(1);
    second.emit(result());
    expect(await next).toMatchObject({ stopReason: "end_turn" });
  });

  it("after initialize the agent prepares a spare with the host options of this client", async () => {
    const claude = fakeClaude();
    const templates: Array<Record<string, unknown>> = [];
    const { createAgent } = await import("../../agent.js");
    const { client } = await import("@agentclientprotocol/sdk");
    const app = createAgent({
      startQuery: claude.startQuery,
      transcripts: new FakeTranscripts(),
      resolveExecutable: () => "/fake/claude",
      env: isolatedEnv(),
      warmUp: (template) => templates.push({ ...template }),
    });
    const connection = client().connect(app);
    cleanup.push(() => connection.close());
    await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { elicitation: { form: {} } },
    });
    expect(templates).toHaveLength(1);
    expect(templates[0]).toMatchObject({
      executable: "/fake/claude",
      disallowedTools: [],
      mcpServers: {},
    });
  });
});
