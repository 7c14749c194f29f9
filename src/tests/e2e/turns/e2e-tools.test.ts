// End-to-end: how Claude Code's real tool uses look to an ACP client (kind, title, locations,
// content, status, rawOutput), from the first streamed sight of a tool use to its result.
// The built agent, the real Claude Code binary, the scripted Anthropic API.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults, toolResults } from "../../../scripted-api/index.js";
import { controlStrings, HOSTILE_TEXT } from "../../support/control-characters.js";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  chunkText,
  contentTexts,
  diffsOf,
  PIXEL_PNG_BASE64,
  STDIO_MCP_SERVER,
  statusesOf,
  toolCallEvents,
  toolCallState,
} from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const ALLOW = { answer: "select", optionId: "allow-once" } as const;

describe("Read", () => {
  it("shows a read tool call titled with the cwd-relative path, located at the file, completed with its numbered lines", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    const file = join(e2e.cwd, "notes", "hello.txt");
    await mkdir(join(e2e.cwd, "notes"));
    await writeFile(file, "line one\nline two\n");
    e2e.api.setScenario([
      {
        content: [{ type: "tool_use", id: "toolu_read", name: "Read", input: { file_path: file } }],
      },
      { content: [{ type: "text", text: "Read it." }] },
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Read notes/hello.txt.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [announced] = toolCallEvents(e2e, sessionId, "toolu_read");
    expect(announced).toMatchObject({
      sessionUpdate: "tool_call",
      kind: "read",
      status: "pending",
    });
    const read = toolCallState(e2e, sessionId, "toolu_read");
    expect(read).toMatchObject({
      kind: "read",
      title: "Read notes/hello.txt",
      locations: [{ path: file, line: 1 }],
      status: "completed",
      rawOutput: { type: "text", file: { filePath: file, content: "line one\nline two\n" } },
    });
    expect(contentTexts(read.content)).toEqual(["```\n1  line one\n2  line two\n```"]);
    // Reads inside the cwd are not asked about.
    expect(e2e.permissions.records).toEqual([]);
  });

  it("passes an image file's content through as an image block", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    const file = join(e2e.cwd, "pixel.png");
    await writeFile(file, Buffer.from(PIXEL_PNG_BASE64, "base64"));
    e2e.api.setScenario([
      {
        content: [{ type: "tool_use", id: "toolu_img", name: "Read", input: { file_path: file } }],
      },
    ]);
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Look at pixel.png.");

    const read = toolCallState(e2e, sessionId, "toolu_img");
    expect(read.status).toBe("completed");
    expect(read.content).toEqual([
      {
        type: "content",
        content: { type: "image", data: PIXEL_PNG_BASE64, mimeType: "image/png" },
      },
    ]);
    // The model got the same image.
    expect(lastToolResults(e2e.api.mainRequests()[1]!)[0]?.content).toEqual([
      expect.objectContaining({
        type: "image",
        source: { type: "base64", data: PIXEL_PNG_BASE64, media_type: "image/png" },
      }),
    ]);
  });
});

describe("Write and Edit", () => {
  it("asks before writing a new file; once allowed the file exists and the call shows a diff from nothing to the new text", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    const file = join(e2e.cwd, "new.txt");
    e2e.api.setScenario([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_write",
            name: "Write",
            input: { file_path: file, content: "fresh text\n" },
          },
        ],
      },
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Create new.txt.")).toMatchObject({
      stopReason: "end_turn",
    });

    const expectedDiff = { type: "diff", path: file, oldText: null, newText: "fresh text\n" };
    const [asked] = e2e.permissions.records;
    expect(asked?.request.toolCall).toMatchObject({
      toolCallId: "toolu_write",
      kind: "edit",
      title: "Write new.txt",
      content: [expectedDiff],
      locations: [{ path: file }],
    });
    expect(await readFile(file, "utf8")).toBe("fresh text\n");
    const write = toolCallState(e2e, sessionId, "toolu_write");
    expect(write).toMatchObject({
      kind: "edit",
      title: "Write new.txt",
      status: "completed",
      content: [expectedDiff],
      locations: [{ path: file }],
      rawOutput: { type: "create", filePath: file },
    });
    expect(statusesOf(e2e, sessionId, "toolu_write")).toEqual([
      "pending",
      "in_progress",
      "completed",
    ]);
  });

  it("ends an Edit with the diff of the patch Claude Code applied: the hunk's context, old and new lines, at its line", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    const file = join(e2e.cwd, "list.txt");
    await writeFile(file, "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\n");
    e2e.api.setScenario([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_edit",
            name: "Edit",
            input: { file_path: file, old_string: "epsilon", new_string: "EPSILON" },
          },
        ],
      },
    ]);
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Shout epsilon.");

    expect(await readFile(file, "utf8")).toContain("delta\nEPSILON\nzeta");
    // Before it ran: Claude's strings. After: the real structuredPatch, with context lines.
    expect(e2e.permissions.records[0]?.request.toolCall.content).toEqual([
      { type: "diff", path: file, oldText: "epsilon", newText: "EPSILON" },
    ]);
    const edit = toolCallState(e2e, sessionId, "toolu_edit");
    expect(edit.status).toBe("completed");
    const rawOutput = edit.rawOutput as {
      structuredPatch: Array<{ newStart: number; lines: string[] }>;
    };
    const [hunk] = rawOutput.structuredPatch;
    expect(hunk?.lines).toEqual([
      " beta",
      " gamma",
      " delta",
      "-epsilon",
      "+EPSILON",
      " zeta",
      " eta",
      " theta",
    ]);
    expect(diffsOf(edit.content)).toEqual([
      {
        type: "diff",
        path: file,
        oldText: "beta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta",
        newText: "beta\ngamma\ndelta\nEPSILON\nzeta\neta\ntheta",
      },
    ]);
    expect(edit.locations).toEqual([{ path: file, line: hunk?.newStart }]);
  });
});

describe("Bash", () => {
  it("shows a command's output as a console block and ends completed; a failing command ends failed with its exit code", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    e2e.api.setScenario([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_ok",
            name: "Bash",
            input: { command: "echo hello-from-bash", description: "Say hello" },
          },
        ],
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_fail",
            name: "Bash",
            input: { command: "cat missing-file.txt", description: "Read a missing file" },
          },
        ],
      },
      { content: [{ type: "text", text: "One worked, one did not." }] },
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run two commands.")).toMatchObject({
      stopReason: "end_turn",
    });

    const ok = toolCallState(e2e, sessionId, "toolu_ok");
    expect(ok).toMatchObject({
      kind: "execute",
      title: "echo hello-from-bash",
      status: "completed",
      rawOutput: { stdout: "hello-from-bash", interrupted: false },
    });
    expect(contentTexts(ok.content)).toEqual(["```console\nhello-from-bash\n```"]);
    const failed = toolCallState(e2e, sessionId, "toolu_fail");
    expect(failed).toMatchObject({ kind: "execute", title: "cat missing-file.txt" });
    expect(failed.status).toBe("failed");
    expect(contentTexts(failed.content)).toEqual([
      expect.stringMatching(/^```console\nExit code 1\n.*missing-file\.txt.*No such file/s),
    ]);
    expect(failed.rawOutput).toEqual(expect.stringContaining("Exit code 1"));
    // The model was told it failed.
    expect(toolResults(e2e.api.mainRequests()[2]!)).toContainEqual(
      expect.objectContaining({ tool_use_id: "toolu_fail", is_error: true }),
    );
  });
});

describe("escape sequences and control characters", () => {
  it("nothing the client receives holds them, from Claude's input, a file's name or text, or a command's output; Claude Code runs the input as written", async () => {
    const { CSI, OSC_TITLE, RLO } = HOSTILE_TEXT;
    const e2e = await startE2E({ permission: ALLOW });
    const file = join(e2e.cwd, `notes${RLO}.txt`);
    await writeFile(file, `one ${OSC_TITLE}\ntwo\n`);
    e2e.api.setScenario([
      {
        content: [
          { type: "tool_use", id: "toolu_read_escapes", name: "Read", input: { file_path: file } },
        ],
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_edit",
            name: "Edit",
            input: { file_path: file, old_string: "two", new_string: `2${CSI}` },
          },
        ],
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_bash",
            name: "Bash",
            // Claude Code refuses control characters in a command: the output makes them.
            input: {
              command: "printf 'hi \\033]0;pwned\\007\\342\\200\\256there'",
              description: `Greet${CSI}`,
            },
          },
        ],
      },
      { content: [{ type: "text", text: "Done." }] },
    ]);
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Read, edit, greet.")).toMatchObject({
      stopReason: "end_turn",
    });

    const fromAgent = e2e.transcript.entries.filter((e) => e.direction === "from-agent");
    expect(controlStrings(fromAgent.map((e) => e.message))).toEqual([]);
    // What ran is what Claude wrote: the edit wrote the escape sequence into the file.
    expect(await readFile(file, "utf8")).toBe(`one ${OSC_TITLE}\n2${CSI}\n`);
    expect(toolCallState(e2e, sessionId, "toolu_read_escapes")).toMatchObject({
      status: "completed",
      locations: [],
      rawInput: { file_path: join(e2e.cwd, "notes.txt") },
    });
    expect(toolCallState(e2e, sessionId, "toolu_edit").status).toBe("completed");
    expect(toolCallState(e2e, sessionId, "toolu_bash")).toMatchObject({
      status: "completed",
      rawOutput: { stdout: "hi there" },
    });
  });
});

describe("plans", () => {
  it("turns TodoWrite into a plan update with each entry's status (the active form while in progress), not a tool call", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", CLAUDE_CODE_ENABLE_TASKS: "false" },
      scenario: [
        {
          content: [
            {
              type: "tool_use",
              id: "toolu_todo",
              name: "TodoWrite",
              input: {
                todos: [
                  {
                    content: "Write the code",
                    activeForm: "Writing the code",
                    status: "completed",
                  },
                  { content: "Test it", activeForm: "Testing it", status: "in_progress" },
                  { content: "Ship it", activeForm: "Shipping it", status: "pending" },
                ],
              },
            },
          ],
        },
      ],
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Plan the work.");

    expect(e2e.updates.of(sessionId, "plan").map((p) => p.entries)).toEqual([
      [
        { content: "Write the code", status: "completed", priority: "medium" },
        { content: "Testing it", status: "in_progress", priority: "medium" },
        { content: "Ship it", status: "pending", priority: "medium" },
      ],
    ]);
    expect(toolCallEvents(e2e, sessionId, "toolu_todo")).toEqual([]);
    // Claude Code really ran it.
    expect(lastToolResults(e2e.api.mainRequests()[1]!)[0]).toMatchObject({
      tool_use_id: "toolu_todo",
      is_error: false,
    });
  });

  it("publishes a full plan snapshot after each Task tool: created tasks pending, an updated one in progress under its active form", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      scenario: [
        {
          content: [
            {
              type: "tool_use",
              id: "toolu_task1",
              name: "TaskCreate",
              input: { subject: "Write the code", description: "All of it", activeForm: "Writing" },
            },
          ],
        },
        {
          content: [
            {
              type: "tool_use",
              id: "toolu_task2",
              name: "TaskCreate",
              input: { subject: "Test it", description: "Every path", activeForm: "Testing" },
            },
          ],
        },
        {
          content: [
            {
              type: "tool_use",
              id: "toolu_task3",
              name: "TaskUpdate",
              input: { taskId: "1", status: "in_progress" },
            },
          ],
        },
      ],
    });
    // A session of its own: the task list is the session's.
    const { sessionId } = await e2e.freshSession();

    await e2e.prompt(sessionId, "Track the work.");

    const pending = (content: string) => ({ content, status: "pending", priority: "medium" });
    expect(e2e.updates.of(sessionId, "plan").map((p) => p.entries)).toEqual([
      [pending("Write the code")],
      [pending("Write the code"), pending("Test it")],
      [{ content: "Writing", status: "in_progress", priority: "medium" }, pending("Test it")],
    ]);
    for (const id of ["toolu_task1", "toolu_task2", "toolu_task3"]) {
      expect(toolCallEvents(e2e, sessionId, id)).toEqual([]);
    }
    expect(toolResults(e2e.api.mainRequests()[3]!).map((r) => r.text)).toEqual([
      "Task #1 created successfully: Write the code",
      "Task #2 created successfully: Test it",
      "Updated task #1 status",
    ]);
  });
});

describe("a tool Claude Code does not have", () => {
  it("reports a Glob tool use failed with Claude Code's message, and the turn goes on", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      scenario: [
        {
          content: [
            { type: "tool_use", id: "toolu_glob", name: "Glob", input: { pattern: "**/*.ts" } },
          ],
        },
        { content: [{ type: "text", text: "I'll use find instead." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Find the TypeScript files.")).toMatchObject({
      stopReason: "end_turn",
    });

    const glob = toolCallState(e2e, sessionId, "toolu_glob");
    expect(glob).toMatchObject({ kind: "search", status: "failed" });
    expect(contentTexts(glob.content)).toEqual([
      expect.stringContaining("No such tool available: Glob"),
    ]);
    expect(glob.rawOutput).toEqual(expect.stringContaining("No such tool available: Glob"));
    expect(e2e.permissions.records).toEqual([]);
    expect(lastToolResults(e2e.api.mainRequests()[1]!)[0]).toMatchObject({
      tool_use_id: "toolu_glob",
      is_error: true,
    });
    expect(chunkText(e2e, sessionId, "agent_message_chunk")).toBe("I'll use find instead.");
  });
});

describe("a client's stdio MCP server", () => {
  it("shows its tool as mcp__<server>__<tool>, asks before it runs, and brings its result back", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    const calls = join(e2e.home, "mcp-calls.jsonl");
    e2e.api.setScenario([
      {
        content: [
          { type: "tool_use", id: "toolu_mcp", name: "mcp__echo__echo", input: { text: "ping" } },
        ],
      },
      { content: [{ type: "text", text: "It echoed." }] },
    ]);
    const { sessionId } = await e2e.newSession({
      mcpServers: [
        {
          name: "echo",
          command: process.execPath,
          args: [STDIO_MCP_SERVER],
          env: [{ name: "ECHO_MCP_LOG", value: calls }],
        },
      ],
    });

    expect(await e2e.prompt(sessionId, "Echo ping.")).toMatchObject({ stopReason: "end_turn" });

    const [asked] = e2e.permissions.records;
    expect(asked?.request.toolCall).toMatchObject({
      toolCallId: "toolu_mcp",
      title: "echo: echo",
      rawInput: { text: "ping" },
      _meta: { claudeCode: { toolName: "mcp__echo__echo" } },
    });
    expect(asked?.request.options.map((o) => o.optionId)).toEqual([
      "allow-once",
      "allow-with-updates",
      "reject",
    ]);
    const call = toolCallState(e2e, sessionId, "toolu_mcp");
    expect(call).toMatchObject({
      kind: "other",
      title: "echo: echo",
      status: "completed",
      _meta: { claudeCode: { toolName: "mcp__echo__echo" } },
    });
    expect(contentTexts(call.content)).toEqual(["echo: ping"]);
    // The server really ran it, and the model got its answer.
    expect(await readFile(calls, "utf8")).toBe(
      `${JSON.stringify({ name: "echo", arguments: { text: "ping" } })}\n`,
    );
    expect(lastToolResults(e2e.api.mainRequests()[1]!)[0]).toMatchObject({
      tool_use_id: "toolu_mcp",
      text: "echo: ping",
      is_error: false,
    });
  });
});

describe("streaming tool input", () => {
  it("announces a tool call when the tool use starts, refines it without partial content while the input streams, and ends it with rawOutput", async () => {
    const e2e = await startE2E({ permission: ALLOW });
    const file = join(e2e.cwd, "slow.txt");
    const text = "a line that takes its time\n".repeat(4);
    e2e.api.setScenario([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_slow",
            name: "Write",
            input: { file_path: file, content: text },
            chunks: 8,
          },
        ],
        delayMs: 150, // ~1.2 s of input deltas
      },
    ]);
    const { sessionId } = await e2e.newSession();

    const prompt = e2e.prompt(sessionId, "Write slowly.");
    const announced = await e2e.updates.waitFor(
      sessionId,
      "tool_call",
      (u) => u.toolCallId === "toolu_slow",
    );
    // The input is still streaming: nothing complete has been shown yet.
    expect(announced).toMatchObject({ kind: "edit", status: "pending", rawInput: {} });
    expect(toolCallEvents(e2e, sessionId, "toolu_slow")).toHaveLength(1);
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });

    const received = e2e.updates.received.filter(
      (r) =>
        r.sessionId === sessionId &&
        (r.update.sessionUpdate === "tool_call" || r.update.sessionUpdate === "tool_call_update") &&
        r.update.toolCallId === "toolu_slow",
    );
    const completeAt = received.findIndex(
      (r) => "rawInput" in r.update && (r.update.rawInput as { content?: string }).content === text,
    );
    expect(completeAt).toBeGreaterThan(1);
    const whileStreaming = received
      .slice(0, completeAt)
      .map((r) => r.update as Record<string, unknown>);
    // Refined while streaming (the path arrived before the content), never with content.
    expect(whileStreaming.map((u) => u.title)).toContain("Write slow.txt");
    expect(whileStreaming.filter((u) => Array.isArray(u.content) && u.content.length > 0)).toEqual(
      [],
    );
    expect(received[completeAt]!.atMs - received[0]!.atMs).toBeGreaterThan(600);
    const write = toolCallState(e2e, sessionId, "toolu_slow");
    expect(write).toMatchObject({
      status: "completed",
      content: [{ type: "diff", path: file, oldText: null, newText: text }],
      rawOutput: { type: "create", filePath: file, content: text },
    });
    expect(existsSync(file)).toBe(true);
  });
});
