import Anthropic from "@anthropic-ai/sdk";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  lastUserText,
  loadScenarioFile,
  parseScenario,
  startScriptedApi,
  systemText,
  toolResults,
} from "../../scripted-api/index.js";
import type {
  Scenario,
  ScriptedApi,
  ScriptedApiOptions,
  TurnSpec,
} from "../../scripted-api/index.js";

const MODEL = "claude-test-model";
// The default rule counts a request as main-loop only when it offers tools.
const TOOLS = [{ name: "Bash", input_schema: { type: "object" as const, properties: {} } }];

let api: ScriptedApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(scenario: Scenario | TurnSpec[], options?: ScriptedApiOptions) {
  api = await startScriptedApi(scenario, options);
  return api;
}

function client(a: ScriptedApi, headers?: Record<string, string>): Anthropic {
  return new Anthropic({ baseURL: a.url, apiKey: "x", maxRetries: 0, defaultHeaders: headers });
}

function params(text = "hi", extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
  return {
    model: MODEL,
    max_tokens: 1024,
    tools: TOOLS,
    messages: [{ role: "user" as const, content: text }],
    ...extra,
  };
}

async function textOf(c: Anthropic, text = "hi"): Promise<string> {
  const m = await c.messages.create(params(text));
  return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

async function post(a: ScriptedApi, path: string, body: string) {
  const res = await fetch(a.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return {
    status: res.status,
    requestId: res.headers.get("request-id"),
    json: await res.json(),
  };
}

describe("server", () => {
  it("listens on an ephemeral 127.0.0.1 port by default and reports its url", async () => {
    const a = await start([]);
    expect(a.port).toBeGreaterThan(0);
    expect(a.url).toBe(`http://127.0.0.1:${a.port}`);
  });

  it("answers unknown routes with a 404 not_found_error body and a request-id", async () => {
    const a = await start([]);
    const res = await post(a, "/v1/complete", "{}");
    expect(res.status).toBe(404);
    expect(res.requestId).toMatch(/^req_/);
    expect(res.json).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    expect(a.requests[0]?.kind).toBe("other");
  });

  it("answers a body that is not JSON with 400 invalid_request_error", async () => {
    const a = await start([]);
    const res = await post(a, "/v1/messages", "{not json");
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  it("ignores the query string (?beta=true) when routing", async () => {
    const a = await start([{ content: [{ type: "text", text: "beta ok" }] }]);
    const body = JSON.stringify(params());
    const res = await post(a, "/v1/messages?beta=true", body);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ content: [{ type: "text", text: "beta ok" }] });
    expect(a.requests[0]?.path).toBe("/v1/messages");
  });

  it("estimates count_tokens without consuming the script", async () => {
    const a = await start([{ content: [{ type: "text", text: "first" }] }]);
    const c = client(a);
    const count = await c.messages.countTokens({
      model: MODEL,
      messages: [{ role: "user", content: "hello world" }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(a.requests[0]?.kind).toBe("count_tokens");
    expect(await textOf(c)).toBe("first");
  });

  it("close() destroys in-flight streams so nothing hangs", async () => {
    const a = await start([
      { content: [{ type: "text", text: "slow", chunks: ["s", "l", "o", "w"] }], delayMs: 10_000 },
    ]);
    const stream = client(a).messages.stream(params());
    const failed = stream.finalMessage().then(
      () => "resolved",
      () => "rejected",
    );
    await a.waitForMainRequests(1);
    const t0 = Date.now();
    await a.close();
    expect(await failed).toBe("rejected");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});

describe("streaming", () => {
  it("cache writes are billed at the lifetime the request asked: one hour for a ttl 1h breakpoint, else five minutes", async () => {
    const written = {
      content: [{ type: "text" as const, text: "ok" }],
      usage: { cache_creation_input_tokens: 900 },
    };
    const a = await start([written, written]);
    const hour = await client(a).messages.create(
      params("hi", {
        system: [{ type: "text", text: "sys", cache_control: { type: "ephemeral", ttl: "1h" } }],
      }),
    );
    expect(hour.usage.cache_creation).toEqual({
      ephemeral_5m_input_tokens: 0,
      ephemeral_1h_input_tokens: 900,
    });
    const minutes = await client(a).messages.create(params());
    expect(minutes.usage.cache_creation).toEqual({
      ephemeral_5m_input_tokens: 900,
      ephemeral_1h_input_tokens: 0,
    });
  });

  it("streams thinking, text and tool_use blocks that the Anthropic SDK assembles into the scripted message", async () => {
    const a = await start([
      {
        content: [
          { type: "thinking", thinking: "Let me think about the request first." },
          { type: "text", text: "Hello from the script, in several deltas." },
          {
            type: "tool_use",
            name: "Bash",
            input: { command: "echo hi > out.txt", description: "write" },
          },
        ],
        usage: { input_tokens: 42, output_tokens: 7 },
      },
    ]);
    const stream = client(a).messages.stream(params());
    const events: string[] = [];
    for await (const e of stream) {
      events.push(e.type === "content_block_delta" ? `delta:${e.delta.type}` : e.type);
    }
    const msg = await stream.finalMessage();

    expect(events[0]).toBe("message_start");
    expect(events.slice(-2)).toEqual(["message_delta", "message_stop"]);
    const thinking = events.slice(1, events.indexOf("content_block_stop") + 1);
    expect(thinking[0]).toBe("content_block_start");
    expect(thinking.filter((e) => e === "delta:thinking_delta").length).toBeGreaterThanOrEqual(1);
    expect(thinking.at(-2)).toBe("delta:signature_delta");
    expect(events.filter((e) => e === "delta:text_delta").length).toBeGreaterThan(1);
    expect(events.filter((e) => e === "delta:input_json_delta").length).toBeGreaterThan(1);

    expect(msg.model).toBe(MODEL);
    expect(msg.stop_reason).toBe("tool_use");
    expect(msg.usage).toMatchObject({ input_tokens: 42, output_tokens: 7 });
    const [t, x, u] = msg.content;
    expect(t).toMatchObject({
      type: "thinking",
      thinking: "Let me think about the request first.",
    });
    expect(t?.type === "thinking" && t.signature).toMatch(/^[A-Za-z0-9+/]{40,}={0,2}$/);
    expect(x).toMatchObject({ type: "text", text: "Hello from the script, in several deltas." });
    expect(u).toMatchObject({
      type: "tool_use",
      id: "toolu_s0_2",
      name: "Bash",
      input: { command: "echo hi > out.txt", description: "write" },
    });
  });

  it("sends explicit text chunks as the deltas, in order", async () => {
    const a = await start([{ content: [{ type: "text", chunks: ["Hel", "lo ", "world"] }] }]);
    const stream = client(a).messages.stream(params());
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    const msg = await stream.finalMessage();
    expect(deltas).toEqual(["Hel", "lo ", "world"]);
    expect(msg.content[0]).toMatchObject({ type: "text", text: "Hello world" });
    expect(msg.stop_reason).toBe("end_turn");
  });

  it("uses the scripted stop reason and keeps a given signature", async () => {
    const a = await start([
      {
        content: [
          { type: "thinking", thinking: "t", signature: "c2ln" },
          { type: "text", text: "cut" },
        ],
        stopReason: "max_tokens",
      },
    ]);
    const msg = await client(a).messages.stream(params()).finalMessage();
    expect(msg.stop_reason).toBe("max_tokens");
    expect(msg.content[0]).toMatchObject({ type: "thinking", signature: "c2ln" });
  });

  it("answers non-streaming requests with the same turn as one Message", async () => {
    const a = await start([
      {
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "whole" },
          { type: "tool_use", id: "toolu_fixed", name: "Bash", input: { command: "ls" } },
        ],
      },
    ]);
    const msg = await client(a).messages.create(params());
    expect(msg).toMatchObject({
      type: "message",
      role: "assistant",
      model: MODEL,
      stop_reason: "tool_use",
      content: [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "whole" },
        { type: "tool_use", id: "toolu_fixed", name: "Bash", input: { command: "ls" } },
      ],
    });
    expect(msg.content[0]?.type === "thinking" && msg.content[0].signature.length).toBeGreaterThan(
      20,
    );
  });
});

describe("script", () => {
  it("gives main requests the turns in order, then the fallback end_turn text", async () => {
    const a = await start({
      turns: [
        { content: [{ type: "text", text: "one" }] },
        { content: [{ type: "text", text: "two" }] },
      ],
      fallbackText: "All done.",
    });
    const c = client(a);
    expect([await textOf(c), await textOf(c), await textOf(c), await textOf(c)]).toEqual([
      "one",
      "two",
      "All done.",
      "All done.",
    ]);
    expect(a.mainRequests().map((r) => r.step)).toEqual([0, 1, undefined, undefined]);
    expect(a.mainRequests().map((r) => r.fallback ?? false)).toEqual([false, false, true, true]);
  });

  it("falls back to 'Done.' by default", async () => {
    const a = await start([]);
    expect(await textOf(client(a))).toBe("Done.");
  });

  it("computes function turns from the recorded request", async () => {
    const a = await start([
      (req) => ({
        content: [{ type: "text", text: `echo: ${lastUserText(req)} (step ${req.step})` }],
      }),
      async (req) => {
        await new Promise((r) => setTimeout(r, 5));
        const dir = /workdir=(\S+)/.exec(systemText(req))?.[1] ?? "?";
        return { content: [{ type: "tool_use", name: "Bash", input: { command: `ls ${dir}` } }] };
      },
    ]);
    const c = client(a);
    expect(await textOf(c, "ping")).toBe("echo: ping (step 0)");
    const msg = await c.messages.create(
      params("go", { system: "You work in workdir=/tmp/abc today." }),
    );
    expect(msg.content[0]).toMatchObject({ type: "tool_use", input: { command: "ls /tmp/abc" } });
  });

  it("a function turn that throws answers 500 api_error with its message", async () => {
    const a = await start([
      () => {
        throw new Error("bad script");
      },
    ]);
    await expect(client(a).messages.create(params())).rejects.toMatchObject({
      status: 500,
      error: {
        error: { type: "api_error", message: expect.stringContaining("bad script") as unknown },
      },
    });
  });

  it("enqueue() appends turns, reachable even after the script ran out", async () => {
    const a = await start([{ content: [{ type: "text", text: "one" }] }]);
    const c = client(a);
    expect(await textOf(c)).toBe("one");
    expect(await textOf(c)).toBe("Done.");
    a.enqueue({ content: [{ type: "text", text: "late" }] });
    expect(await textOf(c)).toBe("late");
  });

  it("setScenario() replaces the script and rewinds, with fresh default tool ids", async () => {
    const a = await start([{ content: [{ type: "tool_use", name: "Bash", input: {} }] }]);
    const c = client(a);
    const first = await c.messages.create(params());
    a.setScenario([{ content: [{ type: "tool_use", name: "Bash", input: {} }] }]);
    const second = await c.messages.create(params());
    expect(a.mainRequests().map((r) => r.step)).toEqual([0, 0]);
    const ids = [first, second].map((m) =>
      m.content[0]?.type === "tool_use" ? m.content[0].id : "",
    );
    expect(new Set(ids).size).toBe(2);
  });

  it("rejects an invalid TypeScript turn at start", async () => {
    await expect(startScriptedApi([{ content: [{ type: "text" }] }])).rejects.toThrow(
      /invalid turn 0/,
    );
  });

  it("session cursor: each x-claude-code-session-id walks the script independently", async () => {
    const turns: TurnSpec[] = [
      { content: [{ type: "text", text: "one" }] },
      { content: [{ type: "text", text: "two" }] },
    ];
    const a = await start(turns, { cursor: "session" });
    const s1 = client(a, { "x-claude-code-session-id": "s1" });
    const s2 = client(a, { "x-claude-code-session-id": "s2" });
    const replies = await Promise.all([textOf(s1), textOf(s2)]);
    expect(replies).toEqual(["one", "one"]);
    expect(await textOf(s2)).toBe("two");
    expect(await textOf(s1)).toBe("two");
    expect(
      a
        .mainRequests()
        .map((r) => r.sessionId)
        .sort(),
    ).toEqual(["s1", "s1", "s2", "s2"]);
  });

  it("server cursor (default): all sessions share one position", async () => {
    const a = await start([
      { content: [{ type: "text", text: "one" }] },
      { content: [{ type: "text", text: "two" }] },
    ]);
    expect(await textOf(client(a, { "x-claude-code-session-id": "s1" }))).toBe("one");
    expect(await textOf(client(a, { "x-claude-code-session-id": "s2" }))).toBe("two");
  });
});

describe("side requests", () => {
  it("a request without tools gets 'OK' and does not consume the script", async () => {
    const a = await start([{ content: [{ type: "text", text: "main" }] }]);
    const c = client(a);
    const side = await c.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: "user", content: "title?" }],
    });
    expect(side.content).toMatchObject([{ type: "text", text: "OK" }]);
    expect(await textOf(c)).toBe("main");
    expect(a.requests.map((r) => r.kind)).toEqual(["side", "main"]);
    expect(a.sideRequests()[0]?.step).toBeUndefined();
  });

  it("a forced tool_choice gets a tool_use of that tool with minimal input", async () => {
    const a = await start([{ content: [{ type: "text", text: "main" }] }]);
    const msg = await client(a).messages.create(
      params("classify", {
        tools: [
          ...TOOLS,
          {
            name: "verdict",
            input_schema: {
              type: "object",
              properties: { ok: { type: "boolean" }, note: { type: "string" } },
              required: ["ok"],
            },
          },
        ],
        tool_choice: { type: "tool", name: "verdict" },
      }),
    );
    expect(msg.content[0]).toMatchObject({
      type: "tool_use",
      name: "verdict",
      input: { ok: false },
    });
    expect(msg.stop_reason).toBe("tool_use");
    expect(a.requests[0]?.kind).toBe("side");
  });

  it("a json_schema output_config (session title) gets the smallest matching JSON", async () => {
    const a = await start([]);
    const body = {
      model: MODEL,
      max_tokens: 100,
      tools: [],
      stream: false,
      messages: [{ role: "user", content: "name this session" }],
      output_config: {
        format: {
          type: "json_schema",
          schema: {
            type: "object",
            properties: { title: { type: "string" } },
            required: ["title"],
          },
        },
      },
    };
    const res = await post(a, "/v1/messages", JSON.stringify(body));
    expect(res.json).toMatchObject({ content: [{ type: "text", text: '{"title":"OK"}' }] });
  });

  it("a compaction request is side even though it carries the main-loop tools", async () => {
    const a = await start([{ content: [{ type: "text", text: "main" }] }]);
    const prompt =
      "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary of the conversation so far.";
    const msg = await client(a).messages.create(params(prompt));
    expect(msg.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("<summary>") as unknown,
    });
    expect(a.requests[0]?.kind).toBe("side");
    expect(await textOf(client(a))).toBe("main");
  });

  it("a subagent request (tools, cc_is_subagent billing block) is main and consumes the script", async () => {
    const a = await start([{ content: [{ type: "text", text: "sub" }] }]);
    const system = [
      {
        type: "text" as const,
        text: "x-anthropic-billing-header: cc_version=2.1; cc_is_subagent=true;",
      },
    ];
    const msg = await client(a).messages.create(params("do sub thing", { system }));
    expect(msg.content[0]).toMatchObject({ text: "sub" });
    expect(a.requests[0]).toMatchObject({ kind: "main", step: 0, subagent: true });
  });

  it("the auto-mode permission classifier gets an allow verdict, cut at its stop sequence", async () => {
    const a = await start([{ content: [{ type: "text", text: "main" }] }]);
    const msg = await client(a).messages.create({
      model: MODEL,
      max_tokens: 64,
      system: "You are a security monitor for autonomous AI coding agents.",
      stop_sequences: ["</block>"],
      messages: [{ role: "user", content: "<transcript>...</transcript>" }],
    });
    expect(msg.content).toMatchObject([{ type: "text", text: "<block>no" }]);
    expect(msg).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "</block>" });
    expect(a.requests[0]?.kind).toBe("side");
  });

  it("a scenario classifier overrides the rule, and sideReply the answer", async () => {
    const a = await start({
      turns: [{ content: [{ type: "text", text: "main" }] }],
      classify: ({ body }) =>
        JSON.stringify(body).includes("security monitor")
          ? "side"
          : JSON.stringify(body).includes("no tools here")
            ? "main"
            : undefined,
      sideReply: () => ({ content: [{ type: "text", text: "<block>no</block>" }] }),
    });
    const c = client(a);
    const plain = {
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: "user" as const, content: "no tools here" }],
    };
    const main = await c.messages.create(plain);
    expect(main.content[0]).toMatchObject({ text: "main" });
    const side = await c.messages.create(params("You are a security monitor"));
    expect(side.content[0]).toMatchObject({ text: "<block>no</block>" });
    expect(a.requests.map((r) => r.kind)).toEqual(["main", "side"]);
  });
});

describe("recording", () => {
  it("records every request with kind, step, session and parsed body", async () => {
    const a = await start([{ content: [{ type: "text", text: "one" }] }]);
    const c = client(a, { "x-claude-code-session-id": "sess-1" });
    await textOf(c, "hello");
    await c.messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "x" }] });
    expect(a.requests).toHaveLength(2);
    const [main, count] = a.requests;
    expect(main).toMatchObject({
      index: 0,
      method: "POST",
      path: "/v1/messages",
      kind: "main",
      step: 0,
      sessionId: "sess-1",
    });
    expect(main?.headers["x-claude-code-session-id"]).toBe("sess-1");
    expect(main?.body).toMatchObject({
      model: MODEL,
      messages: [{ role: "user", content: "hello" }],
    });
    expect(typeof main?.receivedAt).toBe("number");
    expect(count).toMatchObject({
      index: 1,
      path: "/v1/messages/count_tokens",
      kind: "count_tokens",
    });
    expect(a.lastMainRequest()).toBe(main);
  });

  it("toolResults() and lastUserText() show what the model was sent", async () => {
    const a = await start([]);
    await client(a).messages.create(
      params("", {
        messages: [
          { role: "user", content: "run it" },
          {
            role: "assistant",
            content: [
              { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "false" } },
            ],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: [{ type: "text", text: "exit 1" }],
                is_error: true,
              },
              { type: "text", text: "<system-reminder>\nignore me\n</system-reminder>" },
              { type: "text", text: "and now?" },
            ],
          },
        ],
      }),
    );
    const req = a.lastMainRequest();
    if (!req) throw new Error("no main request");
    expect(toolResults(req)).toEqual([
      {
        tool_use_id: "toolu_1",
        content: [{ type: "text", text: "exit 1" }],
        is_error: true,
        text: "exit 1",
      },
    ]);
    expect(lastUserText(req)).toBe("and now?");
  });

  it("waitForMainRequests() resolves once n main requests arrived, and times out otherwise", async () => {
    const a = await start([]);
    const waiting = a.waitForMainRequests(2, { timeoutMs: 5_000 });
    const c = client(a);
    await textOf(c);
    await textOf(c);
    expect(await waiting).toHaveLength(2);
    await expect(a.waitForMainRequests(3, { timeoutMs: 50 })).rejects.toThrow(/timed out/);
  });
});

describe("faults", () => {
  it.each([
    [529, "overloaded_error", Anthropic.InternalServerError],
    [500, "api_error", Anthropic.InternalServerError],
    [429, "rate_limit_error", Anthropic.RateLimitError],
    [401, "authentication_error", Anthropic.AuthenticationError],
    [403, "permission_error", Anthropic.PermissionDeniedError],
    [400, "invalid_request_error", Anthropic.BadRequestError],
  ])(
    "http fault %i answers with %s and the SDK sees the status",
    async (status, type, ErrorClass) => {
      const a = await start([
        { fault: { type: "http", status, message: "scripted failure" } },
        { content: [{ type: "text", text: "after" }] },
      ]);
      const c = client(a);
      const err: unknown = await c.messages.create(params()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ErrorClass);
      const apiErr = err as InstanceType<typeof Anthropic.APIError>;
      expect(apiErr.status).toBe(status);
      expect(apiErr.error).toEqual({ type: "error", error: { type, message: "scripted failure" } });
      expect(apiErr.requestID).toMatch(/^req_/);
      if (status === 429 || status === 529) expect(apiErr.headers?.get("retry-after")).toBe("1");
      expect(await textOf(c)).toBe("after");
    },
  );

  it("http fault repeat answers that many consecutive main requests, then the script moves on", async () => {
    const a = await start([
      { fault: { type: "http", status: 529, repeat: 2 } },
      { content: [{ type: "text", text: "recovered" }] },
    ]);
    const c = client(a);
    await expect(c.messages.create(params())).rejects.toMatchObject({ status: 529 });
    await expect(c.messages.create(params())).rejects.toMatchObject({ status: 529 });
    expect(await textOf(c)).toBe("recovered");
    expect(a.mainRequests().map((r) => r.step)).toEqual([0, 0, 1]);
  });

  it("the SDK's own retries are served by the next steps", async () => {
    const a = await start([
      { fault: { type: "http", status: 500 } },
      { content: [{ type: "text", text: "retried" }] },
    ]);
    const c = new Anthropic({ baseURL: a.url, apiKey: "x", maxRetries: 1 });
    expect((await c.messages.create(params())).content[0]).toMatchObject({ text: "retried" });
    expect(a.mainRequests()[1]?.headers["x-stainless-retry-count"]).toBe("1");
  });

  it("cut fault destroys the socket right after the first content delta", async () => {
    const a = await start([
      {
        content: [{ type: "text", text: "never finished", chunks: ["never ", "finished"] }],
        fault: { type: "cut" },
      },
    ]);
    const stream = client(a).messages.stream(params());
    const seen: string[] = [];
    stream.on("streamEvent", (e) => seen.push(e.type));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"]);
  });

  it("cut fault honours afterEvents", async () => {
    const a = await start([
      { content: [{ type: "text", text: "x" }], fault: { type: "cut", afterEvents: 1 } },
    ]);
    const stream = client(a).messages.stream(params());
    const seen: string[] = [];
    stream.on("streamEvent", (e) => seen.push(e.type));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(seen).toEqual(["message_start"]);
  });

  it("stream-error fault sends an SSE error event mid-message", async () => {
    const a = await start([
      { content: [{ type: "text", text: "partial" }], fault: { type: "stream-error" } },
    ]);
    await expect(client(a).messages.stream(params()).finalMessage()).rejects.toThrow(
      /overloaded_error|Overloaded/,
    );
  });

  it("slow stream: delayMs spaces the deltas and firstByteDelayMs delays the headers", async () => {
    const a = await start([
      {
        content: [{ type: "text", chunks: ["a", "b", "c", "d"] }],
        delayMs: 100,
        firstByteDelayMs: 150,
      },
    ]);
    const t0 = Date.now();
    const stream = client(a).messages.stream(params());
    const times: number[] = [];
    stream.on("text", () => times.push(Date.now() - t0));
    await stream.finalMessage();
    expect(times).toHaveLength(4);
    expect(times[0]).toBeGreaterThanOrEqual(200); // 150 first byte + 100 before the first delta, minus timer slack
    expect((times[3] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(250); // 3 more gaps of 100 ms
    expect(times[3]).toBeLessThan(5_000);
  });
});

describe("JSON scenarios", () => {
  it("loadScenarioFile() reads a JSON scenario that the server then plays", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scripted-api-"));
    try {
      const file = join(dir, "scenario.json");
      await writeFile(
        file,
        JSON.stringify({
          name: "demo",
          fallbackText: "bye",
          turns: [
            {
              content: [
                { type: "thinking", thinking: "plan" },
                { type: "tool_use", name: "Bash", input: { command: "ls" } },
              ],
            },
            { fault: { type: "http", status: 529 } },
            { content: [{ type: "text", text: "done", chunks: 2 }], stopReason: "end_turn" },
          ],
        }),
      );
      const scenario = await loadScenarioFile(file);
      expect(scenario.name).toBe("demo");
      const a = await start(scenario);
      const c = client(a);
      expect((await c.messages.create(params())).stop_reason).toBe("tool_use");
      await expect(c.messages.create(params())).rejects.toMatchObject({ status: 529 });
      expect(await textOf(c)).toBe("done");
      expect(await textOf(c)).toBe("bye");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("parseScenario() accepts a bare array of turns", () => {
    expect(parseScenario([{ content: [{ type: "text", text: "x" }] }]).turns).toHaveLength(1);
  });

  it("zod rejects a bad scenario file with the offending path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scripted-api-"));
    try {
      const file = join(dir, "bad.json");
      await writeFile(
        file,
        JSON.stringify({
          turns: [{ content: [{ type: "tool_use", input: {} }], stop_reason: "end_turn" }],
        }),
      );
      await expect(loadScenarioFile(file)).rejects.toThrow(/bad\.json[\s\S]*invalid scenario/);
      await writeFile(file, "{ nope");
      await expect(loadScenarioFile(file)).rejects.toThrow(/not valid JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("zod rejects unknown keys, bad stop reasons and text chunks that do not join to the text", () => {
    expect(() =>
      parseScenario({ turns: [{ content: [{ type: "text", text: "x" }], stopReason: "done" }] }),
    ).toThrow(/invalid scenario/);
    expect(() =>
      parseScenario({ turns: [{ content: [{ type: "text", text: "x" }], extra: 1 }] }),
    ).toThrow(/invalid scenario/);
    expect(() =>
      parseScenario([{ content: [{ type: "text", text: "ab", chunks: ["a", "c"] }] }]),
    ).toThrow(/join/);
    expect(() => parseScenario([{ fault: { type: "http", status: 200 } }])).toThrow(
      /invalid scenario/,
    );
  });
});
