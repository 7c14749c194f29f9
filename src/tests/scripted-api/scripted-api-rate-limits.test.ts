// Real Claude Code against the scripted API's unified rate-limit headers: what it reports to an SDK
// client. HOME, CLAUDE_CONFIG_DIR and cwd are fresh temp dirs.
import { query } from "@anthropic-ai/claude-agent-sdk";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario, rateLimitHeaders, startScriptedApi } from "../../scripted-api/index.js";
import type { ScriptTurn, ScriptedApi } from "../../scripted-api/index.js";
import { claudeBinary, claudeSandbox } from "../support/real-claude.js";

const CLAUDE = claudeBinary();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sandbox = () => claudeSandbox("scripted-api-rate-limits", cleanups);

type Auth = "oauth" | "api-key";

/** Runs one prompt (retries off unless asked) through Claude Code against `turns` and returns every SDK message. */
async function runClaude(
  script: ScriptTurn[] | ScriptedApi,
  auth: Auth,
  opts: { retries?: boolean } = {},
): Promise<SDKMessage[]> {
  if (!CLAUDE) throw new Error("no Claude Code binary");
  const api = Array.isArray(script) ? await startScriptedApi(script) : script;
  cleanups.push(() => api.close());
  const { home, config, cwd } = await sandbox();
  const q = query({
    prompt: "hi",
    options: {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        CLAUDE_CONFIG_DIR: config,
        ANTHROPIC_BASE_URL: api.url,
        // A subscriber signs in with OAuth; the unified limits are about subscriptions.
        ...(auth === "oauth"
          ? { CLAUDE_CODE_OAUTH_TOKEN: "test-oauth-token" }
          : { ANTHROPIC_API_KEY: "sk-test" }),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        ...(opts.retries ? {} : { CLAUDE_CODE_MAX_RETRIES: "0" }),
      },
      pathToClaudeCodeExecutable: CLAUDE,
      canUseTool: (_name, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    },
  });
  cleanups.push(() => Promise.resolve(q.close()));
  const messages: SDKMessage[] = [];
  for await (const m of q) {
    messages.push(m);
    if (m.type === "result") break;
  }
  q.close();
  return messages;
}

function rateLimitEvents(messages: SDKMessage[]) {
  return messages.flatMap((m) => (m.type === "rate_limit_event" ? [m.rate_limit_info] : []));
}

const text = (t: string): ScriptTurn => ({ content: [{ type: "text", text: t }] });
// Early in the window (two hours left of five), as a real warning would be.
const resetsAt = () => Math.floor(Date.now() / 1000) + 3 * 3600;

describe("rateLimitHeaders", () => {
  it("names the window in the representative claim and its per-window headers", () => {
    expect(
      rateLimitHeaders({
        status: "allowed_warning",
        window: "five_hour",
        utilization: 0.92,
        resetsAt: 1_800_000_000,
        surpassedThreshold: 0.9,
      }),
    ).toEqual({
      "anthropic-ratelimit-unified-status": "allowed_warning",
      "anthropic-ratelimit-unified-reset": "1800000000",
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
      "anthropic-ratelimit-unified-5h-status": "allowed_warning",
      "anthropic-ratelimit-unified-5h-reset": "1800000000",
      "anthropic-ratelimit-unified-5h-utilization": "0.92",
      "anthropic-ratelimit-unified-5h-surpassed-threshold": "0.9",
    });
  });

  it("abbreviates the seven-day window as 7d", () => {
    expect(Object.keys(rateLimitHeaders({ status: "allowed", window: "seven_day" }))).toContain(
      "anthropic-ratelimit-unified-7d-status",
    );
  });
});

/** POSTs a main-loop request (it offers a tool) and returns the reply's status and headers. */
async function reply(turns: ScriptTurn[], stream: boolean): Promise<Response> {
  const api = await startScriptedApi(turns);
  cleanups.push(() => api.close());
  const res = await fetch(`${api.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "m",
      max_tokens: 10,
      stream,
      tools: [{ name: "Bash", input_schema: { type: "object" } }],
      messages: [{ role: "user", content: "hi" }],
    }),
  });
  await res.text();
  return res;
}

describe("scripted API reply headers", () => {
  const rateLimit = { status: "allowed", window: "seven_day", utilization: 0.5 } as const;

  it("a streamed or plain turn sends its rateLimit headers, and explicit headers override them", async () => {
    for (const stream of [true, false]) {
      const res = await reply(
        [
          {
            ...text("x"),
            rateLimit,
            headers: { "anthropic-ratelimit-unified-status": "allowed_warning", "x-extra": "1" },
          },
        ],
        stream,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("anthropic-ratelimit-unified-7d-utilization")).toBe("0.5");
      expect(res.headers.get("anthropic-ratelimit-unified-status")).toBe("allowed_warning");
      expect(res.headers.get("x-extra")).toBe("1");
    }
  });

  it("an HTTP fault sends its rateLimit headers beside retry-after", async () => {
    const res = await reply(
      [{ fault: { type: "http", status: 429, rateLimit: { ...rateLimit, status: "rejected" } } }],
      true,
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("anthropic-ratelimit-unified-status")).toBe("rejected");
    expect(res.headers.get("anthropic-ratelimit-unified-representative-claim")).toBe("seven_day");
    expect(res.headers.get("retry-after")).toBe("1");
  });

  it("a JSON scenario takes rateLimit and headers on turns and faults, and rejects an unknown window", () => {
    expect(
      parseScenario([
        { ...text("x"), rateLimit, headers: { "x-a": "b" } },
        { fault: { type: "http", status: 429, rateLimit: { ...rateLimit, status: "rejected" } } },
      ]).turns,
    ).toHaveLength(2);
    expect(() =>
      parseScenario([{ ...text("x"), rateLimit: { status: "allowed", window: "daily" } }]),
    ).toThrow(/invalid scenario/);
  });
});

const warning = (resetsAt: number) =>
  ({
    status: "allowed_warning",
    window: "five_hour",
    utilization: 0.92,
    resetsAt,
    surpassedThreshold: 0.9,
  }) as const;

describe.skipIf(!CLAUDE)("real Claude Code and unified rate limits", { timeout: 90_000 }, () => {
  it("a subscriber's reply at 92% of the 5-hour window yields an allowed_warning rate_limit_event", async () => {
    const at = resetsAt();
    const messages = await runClaude([{ ...text("One."), rateLimit: warning(at) }], "oauth");

    expect(rateLimitEvents(messages)).toEqual([
      {
        status: "allowed_warning",
        resetsAt: at,
        rateLimitType: "five_hour",
        utilization: 0.92,
        isUsingOverage: false,
        surpassedThreshold: 0.9,
        unifiedWindows: {
          five_hour: {
            utilization: 0.92,
            resetsAt: at,
            status: "allowed_warning",
            surpassedThreshold: 0.9,
          },
        },
      },
    ]);
  });

  it("allowed replies yield a rate_limit_event too, once per change of reading (utilization only per window)", async () => {
    const at = resetsAt();
    const reading = (utilization: number) =>
      ({ status: "allowed", window: "five_hour", utilization, resetsAt: at }) as const;
    const bash = {
      type: "tool_use",
      name: "Bash",
      input: { command: "true", description: "No-op" },
    } as const;
    const api = await startScriptedApi([
      { content: [bash], rateLimit: reading(0.3) },
      { content: [bash], rateLimit: reading(0.3) },
      { ...text("Three."), rateLimit: reading(0.4) },
    ]);
    const messages = await runClaude(api, "oauth");

    expect(api.mainRequests()).toHaveLength(3);
    expect(rateLimitEvents(messages)).toEqual(
      [0.3, 0.4].map((utilization) => ({
        status: "allowed",
        resetsAt: at,
        rateLimitType: "five_hour",
        isUsingOverage: false,
        unifiedWindows: { five_hour: { utilization, resetsAt: at, status: "allowed" } },
      })),
    );
  });

  it("a subscriber's 429 at the 5-hour limit ends the turn at once with a rate_limit error and 'You've hit your 5-hour limit'", async () => {
    const at = resetsAt();
    const rejected = {
      status: "rejected",
      window: "five_hour",
      utilization: 1,
      resetsAt: at,
    } as const;
    const api = await startScriptedApi([
      { fault: { type: "http", status: 429, message: "Error", rateLimit: rejected } },
    ]);
    const messages = await runClaude(api, "oauth");

    expect(rateLimitEvents(messages)).toEqual([
      {
        status: "rejected",
        resetsAt: at,
        rateLimitType: "five_hour",
        isUsingOverage: false,
        unifiedWindows: { five_hour: { utilization: 1, resetsAt: at, status: "rejected" } },
      },
    ]);
    const limitText: unknown = expect.stringMatching(/^You've hit your 5-hour limit · resets /);
    const assistant = messages.find((m) => m.type === "assistant");
    expect(assistant).toMatchObject({
      error: "rate_limit",
      message: {
        model: "<synthetic>",
        content: [{ type: "text", text: limitText }],
      },
    });
    expect(messages.at(-1)).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: true,
      api_error_status: 429,
      result: limitText,
    });
    // Not retried: a usage limit does not lift in seconds.
    expect(api.mainRequests()).toHaveLength(1);
  });

  it("a 429 at the weekly limit is not retried even with retries on, and names the weekly limit", async () => {
    const api = await startScriptedApi([
      {
        fault: {
          type: "http",
          status: 429,
          message: "Error",
          retryAfterSeconds: 0,
          rateLimit: {
            status: "rejected",
            window: "seven_day",
            utilization: 1,
            resetsAt: resetsAt(),
          },
        },
      },
      text("Never played."),
    ]);
    const messages = await runClaude(api, "oauth", { retries: true });

    expect(api.mainRequests()).toHaveLength(1);
    expect(rateLimitEvents(messages)).toMatchObject([
      { status: "rejected", rateLimitType: "seven_day" },
    ]);
    const weeklyText: unknown = expect.stringMatching(/^You've hit your weekly limit · resets /);
    expect(messages.at(-1)).toMatchObject({ type: "result", is_error: true, result: weeklyText });
  });

  it("a top-level allowed_warning alone is reported as allowed late in the window, as a warning early in it (Claude Code's own threshold table)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const bare = (at: number) =>
      ({
        status: "allowed_warning",
        window: "five_hour",
        utilization: 0.92,
        resetsAt: at,
      }) as const;
    // 90% used with half an hour left is on pace; with three hours left it is not.
    const late = await runClaude([{ ...text("One."), rateLimit: bare(now + 1800) }], "oauth");
    const early = await runClaude([{ ...text("One."), rateLimit: bare(now + 3 * 3600) }], "oauth");

    expect(rateLimitEvents(late)).toMatchObject([
      { status: "allowed", rateLimitType: "five_hour" },
    ]);
    expect(rateLimitEvents(late)[0]).not.toHaveProperty("utilization");
    expect(rateLimitEvents(early)).toMatchObject([
      { status: "allowed_warning", rateLimitType: "five_hour", utilization: 0.92 },
    ]);
  });

  it("with an API key instead of OAuth, no rate_limit_event is emitted", async () => {
    const messages = await runClaude(
      [{ ...text("One."), rateLimit: warning(resetsAt()) }],
      "api-key",
    );

    expect(messages.at(-1)).toMatchObject({ type: "result", result: "One." });
    expect(rateLimitEvents(messages)).toEqual([]);
  });
});
