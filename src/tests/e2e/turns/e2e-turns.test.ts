// End-to-end: the fidelity of a turn as an ACP client sees it, against the real Claude Code:
// thoughts, message ids, usage, queued prompts, stop reasons, prompt content, slash commands
// and client MCP servers over http and sse.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, toolResults } from "../../../scripted-api/index.js";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  bodyOf,
  chunkText,
  contentTexts,
  lastUserBlocks,
  messagesOf,
  PIXEL_PNG_BASE64,
  promptAnswers,
  promptError,
  startHttpMcpServer,
  textOf,
  toolCallState,
} from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

describe("what a turn streams", () => {
  it("streams thinking as agent_thought_chunk and text as agent_message_chunk, each chunk carrying its API message's id", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [
            { type: "thinking", thinking: "Weighing the two options carefully.", chunks: 3 },
            { type: "text", text: "Option two it is. Checking the date.", chunks: 3 },
            { type: "tool_use", name: "Bash", input: { command: "date", description: "Date" } },
          ],
          // Deltas apart in time reach the agent in separate reads: separate chunks (those
          // that arrive in one read go as one).
          delayMs: 50,
        },
        { content: [{ type: "text", text: "Done checking.", chunks: 2 }] },
      ],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Pick one.");

    const thoughts = e2e.updates.of(sessionId, "agent_thought_chunk");
    const messages = e2e.updates.of(sessionId, "agent_message_chunk");
    expect(thoughts.length).toBeGreaterThan(1);
    expect(chunkText(e2e, sessionId, "agent_thought_chunk")).toBe(
      "Weighing the two options carefully.",
    );
    expect(chunkText(e2e, sessionId, "agent_message_chunk")).toBe(
      "Option two it is. Checking the date.Done checking.",
    );
    // One id per API message: the thought and the text of the first share it, the second has its own.
    const first = thoughts[0]?.messageId;
    expect(first).toEqual(expect.stringMatching(/^msg_/));
    expect(thoughts.every((t) => t.messageId === first)).toBe(true);
    const ids = [...new Set(messages.map((m) => m.messageId))];
    expect(ids).toEqual([first, expect.stringMatching(/^msg_/)]);
    const firstText = messages.filter((m) => m.messageId === first).map((m) => textOf(m.content));
    expect(firstText.join("")).toBe("Option two it is. Checking the date.");
  });

  it("never sends a thought with nothing to read: a signature-only thinking block sends none, whitespace streamed alone goes with the next words", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [
            // What the API sends when the thinking's display is omitted: a signature only.
            { type: "thinking", thinking: "" },
            {
              type: "thinking",
              thinking: " Plan:\n\nstep one.",
              chunks: [" ", "Plan:", "\n\n", "step one."],
            },
            { type: "text", text: "Done." },
          ],
          // Each delta in a read of its own, as a slow stream sends them.
          delayMs: 30,
        },
      ],
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Think it over.");

    const thoughts = e2e.updates.of(sessionId, "agent_thought_chunk").map((t) => textOf(t.content));
    expect(thoughts.filter((text) => text.trim() === "")).toEqual([]);
    expect(thoughts.join("")).toBe(" Plan:\n\nstep one.");
    expect(chunkText(e2e, sessionId, "agent_message_chunk")).toBe("Done.");
  });

  it("asks for Claude's thinking summarized by default, so that there is thinking to show", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Think.");
    expect(bodyOf(e2e.api.lastMainRequest()).thinking).toMatchObject({ display: "summarized" });
  });

  it("ignores thinking switches that are not valid, saying so in the log: the display stays summarized and thinking stays on", async () => {
    const e2e = await startE2E({
      env: { CLAUDE_CODE_THINKING_DISPLAY: "loud", MAX_THINKING_TOKENS: "lots" },
    });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Think.");
    // Claude Code would read a budget that is no number as 0; it never sees it.
    expect(bodyOf(e2e.api.lastMainRequest()).thinking).toEqual({
      type: "adaptive",
      display: "summarized",
    });
    expect(e2e.log()).toContain(
      "Ignoring CLAUDE_CODE_THINKING_DISPLAY: expected 'summarized' or 'omitted', got 'loud'.",
    );
    expect(e2e.log()).toContain(
      "Ignoring MAX_THINKING_TOKENS: expected a non-negative integer, got 'lots'.",
    );
  });

  it("reports usage_update (used, size, cost) before answering, and the turn's tokens in the prompt response", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [{ type: "text", text: "Counted." }],
          usage: { input_tokens: 1000, output_tokens: 50, cache_read_input_tokens: 200 },
        },
      ],
    });
    const { sessionId } = await e2e.newSession();

    const response = await e2e.prompt(sessionId, "Count.");

    const [usage] = e2e.updates.of(sessionId, "usage_update");
    expect(usage).toMatchObject({ used: 1250, cost: { currency: "USD" } });
    expect(usage?.size).toBeGreaterThanOrEqual(200_000); // the model's context window
    expect(usage?.cost?.amount).toBeGreaterThan(0);
    expect(response).toEqual({
      stopReason: "end_turn",
      usage: {
        inputTokens: 1000,
        outputTokens: 50,
        cachedReadTokens: 200,
        cachedWriteTokens: 0,
        thoughtTokens: 0,
        totalTokens: 1250,
      },
      userMessageId: expect.any(String) as unknown,
    });
    const onWire = e2e.transcript
      .sessionUpdates()
      .find((n) => n.update.sessionUpdate === "usage_update");
    expect(onWire!.entry.seq).toBeLessThan(promptAnswers(e2e)[0]!.seq);
  });
});

describe("a prompt sent while a turn runs", () => {
  it("is queued: both texts reach the model in order, the answers come in order, and the turns' updates never interleave", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "text", text: "first answer, slowly", chunks: 8 }], delayMs: 80 },
        { content: [{ type: "text", text: "second answer", chunks: 2 }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    const first = e2e.prompt(sessionId, "first prompt");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk");
    const second = e2e.prompt(sessionId, "second prompt");
    const responses = await Promise.all([first, second]);

    expect(responses.map((r) => r.stopReason)).toEqual(["end_turn", "end_turn"]);
    const [one, two] = e2e.api.mainRequests();
    expect([one, two].map((r) => lastUserText(r!))).toEqual(["first prompt", "second prompt"]);
    // The second request carries the first exchange before it.
    expect(JSON.stringify(messagesOf(two))).toContain("first answer, slowly");
    const [sent1, sent2] = e2e.transcript.calls("session/prompt", "to-agent");
    const [answer1, answer2] = promptAnswers(e2e);
    expect(sent2!.seq).toBeLessThan(answer1!.seq); // really sent while the first ran
    expect(sent1!.seq).toBeLessThan(sent2!.seq);
    expect(answer1!.seq).toBeLessThan(answer2!.seq);
    // What belongs to the session and not to a turn: its commands, and the title generated
    // from the first prompt, which comes when Claude Code has made it (after either turn).
    const sessionNews = new Set(["available_commands_update", "session_info_update"]);
    const updates = e2e.transcript
      .sessionUpdates()
      .filter((n) => !sessionNews.has(n.update.sessionUpdate));
    const turn1 = updates.filter((n) => n.entry.seq < answer1!.seq);
    const turn2 = updates.filter((n) => n.entry.seq > answer1!.seq);
    const text = (ns: typeof updates) =>
      ns
        .map((n) =>
          n.update.sessionUpdate === "agent_message_chunk" ? textOf(n.update.content) : "",
        )
        .join("");
    expect(text(turn1)).toBe("first answer, slowly");
    expect(text(turn2)).toBe("second answer");
    expect(turn2.every((n) => n.entry.seq < answer2!.seq)).toBe(true);
  });
});

describe("stop reasons", () => {
  it("resumes an answer cut at the output limit (Claude Code asks the model to go on) and ends end_turn", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "text", text: "The first half" }], stopReason: "max_tokens" },
        { content: [{ type: "text", text: " and the rest." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Write a lot.")).toMatchObject({ stopReason: "end_turn" });

    const resumed = e2e.api.mainRequests()[1];
    expect(JSON.stringify(lastUserBlocks(resumed))).toContain("Output token limit hit");
    expect(chunkText(e2e, sessionId, "agent_message_chunk")).toBe("The first half and the rest.");
  });

  it("ends the prompt with stopReason max_tokens when every answer stops at the output limit", async () => {
    const cut = {
      content: [{ type: "text" as const, text: "cut" }],
      stopReason: "max_tokens" as const,
    };
    const e2e = await startE2E({ scenario: [cut, cut, cut, cut, cut] });
    const { sessionId } = await e2e.newSession();

    const response = await e2e.prompt(sessionId, "Write a lot.");

    expect(response.stopReason).toBe("max_tokens");
  });

  it("ends the prompt with stopReason refusal when the model refuses", async () => {
    const refuse = {
      content: [{ type: "text" as const, text: "I can't help with that." }],
      stopReason: "refusal" as const,
    };
    const e2e = await startE2E({ scenario: [refuse, refuse, refuse] });
    const { sessionId } = await e2e.newSession();

    const response = await e2e.prompt(sessionId, "Something refused.");

    expect(response.stopReason).toBe("refusal");
  });

  it("ends the prompt with max_turn_requests when Claude Code's turn limit is reached (CLAUDE_CODE_MAX_TURNS)", async () => {
    const bash = (n: number) => ({
      content: [
        {
          type: "tool_use" as const,
          id: `toolu_turn${n}`,
          name: "Bash",
          input: { command: `echo turn-${n}` },
        },
      ],
    });
    const e2e = await startE2E({
      scenario: [bash(1), bash(2), bash(3)],
      env: { CLAUDE_CODE_MAX_TURNS: "2" },
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Loop.")).toMatchObject({
      stopReason: "max_turn_requests",
    });

    expect(e2e.api.mainRequests()).toHaveLength(2);
    expect(toolCallState(e2e, sessionId, "toolu_turn2").status).toBe("completed");
  });
});

describe("prompt content", () => {
  it("passes an image, an embedded text resource and a file resource_link (resolved by Claude Code) to the model", async () => {
    const e2e = await startE2E();
    const linked = join(e2e.cwd, "linked.txt");
    await writeFile(linked, "contents of the linked file\n");
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, [
      { type: "text", text: "Look at these." },
      { type: "image", data: PIXEL_PNG_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "file:///notes/todo.md",
          mimeType: "text/markdown",
          text: "embedded notes",
        },
      },
      { type: "resource_link", uri: pathToFileURL(linked).href, name: "linked.txt" },
    ]);

    const request = e2e.api.mainRequests()[0];
    const blocks = lastUserBlocks(request);
    expect(blocks).toContainEqual(
      expect.objectContaining({
        type: "image",
        source: { type: "base64", media_type: "image/png", data: PIXEL_PNG_BASE64 },
      }),
    );
    // The embedded resource is a block of its own; the typed text and the link's mention are
    // the last block: Claude Code reads @-mentions only there.
    const texts = blocks.flatMap((b) => (typeof b.text === "string" ? [b.text] : []));
    expect(texts).toContain(`<context ref="file:///notes/todo.md">\nembedded notes\n</context>`);
    // (Claude Code appends a line break, then a block naming where it saved the image.)
    expect(texts.map((t) => t.trimEnd())).toContain(`Look at these. @${linked}`);
    // The link became an @-mention Claude Code resolved: the file's text reached the model.
    expect(JSON.stringify(messagesOf(request))).toContain("contents of the linked file");
  });

  it("resolves a file resource_link that is followed by more text", async () => {
    const e2e = await startE2E();
    const linked = join(e2e.cwd, "linked.txt");
    await writeFile(linked, "contents of the linked file\n");
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, [
      { type: "text", text: "Compare" },
      { type: "resource_link", uri: pathToFileURL(linked).href, name: "linked.txt" },
      { type: "text", text: "with what you know." },
    ]);

    const request = e2e.api.mainRequests()[0];
    expect(JSON.stringify(messagesOf(request))).toContain("contents of the linked file");
  });

  it("refuses audio with -32602 and sends nothing to the model", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();

    const error = await promptError(
      e2e,
      e2e.prompt(sessionId, [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }]),
    );

    expect(error).toMatchObject({ code: -32602 });
    expect(error.message).toMatch(/audio/);
    expect(e2e.api.mainRequests()).toEqual([]);
  });
});

describe("slash commands", () => {
  it("lists built-in and custom commands after session/new, and runs a custom command expanded", async () => {
    const e2e = await startE2E();
    await mkdir(join(e2e.cwd, ".claude", "commands"), { recursive: true });
    await writeFile(
      join(e2e.cwd, ".claude", "commands", "hello.md"),
      "---\ndescription: Greet someone\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS warmly.\n",
    );
    const { sessionId } = await e2e.newSession();

    const listed = await e2e.updates.waitFor(sessionId, "available_commands_update");
    const names = listed.availableCommands.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["hello", "compact", "init"]));
    expect(names).not.toContain("clear"); // terminal-only
    const hello = listed.availableCommands.find((c) => c.name === "hello");
    expect(hello).toMatchObject({ name: "hello", input: { hint: "<name>" } });
    expect(hello?.description).toContain("Greet someone");
    const created = e2e.transcript.responseTo(e2e.transcript.calls("session/new", "to-agent")[0]!);
    const notified = e2e.transcript
      .sessionUpdates()
      .find((n) => n.update.sessionUpdate === "available_commands_update");
    expect(notified!.entry.seq).toBeGreaterThan(created!.seq);

    expect(await e2e.prompt(sessionId, "/hello world")).toMatchObject({ stopReason: "end_turn" });

    const sent = JSON.stringify(lastUserBlocks(e2e.api.mainRequests()[0]));
    expect(sent).toContain("<command-name>/hello</command-name>");
    expect(sent).toContain("Say hello to world warmly.");
  });
});

describe("client MCP servers over http and sse", () => {
  it("accepts them in session/new, with their headers, and runs their tools", async () => {
    const mcp = await startHttpMcpServer();
    try {
      const e2e = await startE2E({
        permission: { answer: "select", optionId: "allow-once" },
        scenario: [
          {
            content: [
              {
                type: "tool_use",
                id: "toolu_http",
                name: "mcp__remote__echo",
                input: { text: "a" },
              },
            ],
          },
          {
            content: [
              {
                type: "tool_use",
                id: "toolu_sse",
                name: "mcp__events__echo",
                input: { text: "b" },
              },
            ],
          },
          { content: [{ type: "text", text: "Both answered." }] },
        ],
      });
      const { sessionId } = await e2e.newSession({
        mcpServers: [
          {
            type: "http",
            name: "remote",
            url: mcp.httpUrl,
            headers: [{ name: "X-Test", value: "http-secret" }],
          },
          {
            type: "sse",
            name: "events",
            url: mcp.sseUrl,
            headers: [{ name: "X-Test", value: "sse-secret" }],
          },
        ],
      });

      expect(await e2e.prompt(sessionId, "Use both servers.")).toMatchObject({
        stopReason: "end_turn",
      });

      expect(toolCallState(e2e, sessionId, "toolu_http")).toMatchObject({ status: "completed" });
      expect(contentTexts(toolCallState(e2e, sessionId, "toolu_http").content)).toEqual([
        "remote-http echo: a",
      ]);
      expect(contentTexts(toolCallState(e2e, sessionId, "toolu_sse").content)).toEqual([
        "remote-sse echo: b",
      ]);
      const toolCalls = mcp.calls.filter((c) => c.method === "tools/call");
      expect(toolCalls.map((c) => [c.transport, c.params?.arguments])).toEqual([
        ["http", { text: "a" }],
        ["sse", { text: "b" }],
      ]);
      expect(mcp.calls.every((c) => c.headers["x-test"] === `${c.transport}-secret`)).toBe(true);
      expect(toolResults(e2e.api.mainRequests()[2]!).map((r) => r.text)).toEqual([
        "remote-http echo: a",
        "remote-sse echo: b",
      ]);
    } finally {
      await stopAllE2E();
      await mcp.close();
    }
  });
});
