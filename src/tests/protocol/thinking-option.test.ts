// The thinking config option: shown (summarized), hidden (omitted), or off where the model
// can think without it; each choice reaches Claude Code before the answer, and a later
// Claude Code process of the session starts with it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelInfo } from "../../claude/types.js";
import { fakeClaude, type FakeClaudeQuery, result } from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv, type InProcessOptions } from "../support/in-process.js";

const MODELS: ModelInfo[] = [
  { value: "default", resolvedModel: "claude-opus-5-5", displayName: "Default", description: "" },
  {
    value: "claude-sonnet-4-5",
    resolvedModel: "claude-sonnet-4-5-20250929",
    displayName: "Sonnet 4.5",
    description: "",
  },
];
const SONNET_45 = "claude-sonnet-4-5";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function setup(
  env: NodeJS.ProcessEnv = {},
  options: Partial<InProcessOptions> = {},
  settingsThinkingOff = false,
) {
  const claude = fakeClaude({ models: MODELS });
  const harness = await connectInProcess({
    startQuery: (queryOptions) => {
      const query = claude.startQuery(queryOptions) as FakeClaudeQuery;
      query.settingsThinkingOff = settingsThinkingOff;
      return query;
    },
    env: isolatedEnv(env),
    ...options,
  });
  cleanup.push(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "acp-thinking-"));
  const session = await harness.newStartedSession(cwd);
  const set = async (configId: string, value: string | boolean) =>
    (
      await harness.agent.request(methods.agent.session.setConfigOption, {
        sessionId: session.sessionId,
        configId,
        value,
      } as never)
    ).configOptions;
  return { ...harness, claude, query: claude.started.at(-1)!, session, set };
}

function thinking(options: readonly SessionConfigOption[] | null | undefined) {
  const found = options?.find((o) => o.id === "thinking");
  if (found?.type !== "select") throw new Error("no thinking select");
  return {
    value: found.currentValue,
    values: found.options.map((o) => ("value" in o ? o.value : "")),
  };
}

async function refusal(promise: Promise<unknown>): Promise<number> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestError);
  return (error as RequestError).code;
}

describe("the thinking option", () => {
  it("is Shown by default, a select of Shown and Hidden on a model whose thinking Claude Code cannot turn off, for clients with boolean options too", async () => {
    const booleans = { clientCapabilities: { session: { configOptions: { boolean: {} } } } };
    const { session } = await setup({}, booleans);
    const option = session.configOptions?.find((o) => o.id === "thinking");
    expect(option).toMatchObject({ name: "Thinking", type: "select", currentValue: "summarized" });
    expect(option?.type === "select" && option.options).toEqual([
      { value: "summarized", name: "Shown", description: expect.any(String) as unknown },
      { value: "omitted", name: "Hidden", description: expect.any(String) as unknown },
    ]);
  });

  it("Hidden and Shown reach Claude Code as its display with a budget before the answer, which carries the new value", async () => {
    const { query, set } = await setup();
    expect(thinking(await set("thinking", "omitted")).value).toBe("omitted");
    expect(thinking(await set("thinking", "summarized")).value).toBe("summarized");
    expect(query.thinking).toEqual([
      { budget: 1_000_000, display: "omitted" },
      { budget: 1_000_000, display: "summarized" },
    ]);
  });

  it("Off is offered where the model can think without it and is a budget of 0; on again is a budget, which Claude Code needs after off", async () => {
    const { query, set } = await setup({ ANTHROPIC_MODEL: SONNET_45 });
    const off = thinking(await set("thinking", "off"));
    expect(off).toEqual({ value: "off", values: ["summarized", "omitted", "off"] });
    await set("thinking", "summarized");
    expect(query.thinking).toEqual([{ budget: 0 }, { budget: 1_000_000, display: "summarized" }]);
  });

  it("Off where the model cannot think without it, a value of no choice, or a boolean is refused as invalid params, and nothing reaches Claude Code", async () => {
    const { query, set } = await setup();
    expect(await refusal(set("thinking", "off"))).toBe(-32602);
    expect(await refusal(set("thinking", "loud"))).toBe(-32602);
    expect(await refusal(set("thinking", true))).toBe(-32602);
    // The client's value is not echoed in the message a client may show.
    const hostile = await set("thinking", "\u001b[2Joff").catch((e: unknown) => e);
    expect((hostile as RequestError).message).not.toContain("\u001b");
    expect(query.thinking).toEqual([]);
  });

  it("Off, then a model that cannot think without it: the option says Hidden, which is what Claude Code then sends; back on the first model it is Off again", async () => {
    const { set } = await setup({ ANTHROPIC_MODEL: SONNET_45 });
    await set("thinking", "off");
    expect(thinking(await set("model", "default"))).toEqual({
      value: "omitted",
      values: ["summarized", "omitted"],
    });
    expect(thinking(await set("model", SONNET_45)).value).toBe("off");
  });

  it("the session's next Claude Code process starts with the choice (off is applied once it exists)", async () => {
    const { agent, claude, query, session, set } = await setup({ ANTHROPIC_MODEL: SONNET_45 });
    expect(query.options.thinking).toBe("summarized");
    await set("thinking", "off");
    query.end();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    while (claude.started.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = claude.started[1]!;
    expect(second.options.thinking).toBe("off");
    await second.waitForSent(1);
    second.emit(result());
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
  });

  it("starts as the environment says: CLAUDE_CODE_THINKING_DISPLAY=omitted is Hidden, MAX_THINKING_TOKENS=0 is Off, and a budget of its own is the one that turns thinking on", async () => {
    const hidden = await setup({ CLAUDE_CODE_THINKING_DISPLAY: "omitted" });
    expect(thinking(hidden.session.configOptions).value).toBe("omitted");
    expect(hidden.query.options.thinking).toBe("omitted");
    const off = await setup({ ANTHROPIC_MODEL: SONNET_45, MAX_THINKING_TOKENS: "0" });
    expect(thinking(off.session.configOptions).value).toBe("off");
    const own = await setup({ MAX_THINKING_TOKENS: "8000" });
    await own.set("thinking", "omitted");
    expect(own.query.thinking).toEqual([{ budget: 8000, display: "omitted" }]);
  });

  it("is Off as Claude Code's settings start it (alwaysThinkingEnabled false), Hidden where the model cannot think without it; the client's own SDK thinking option decides instead", async () => {
    const off = await setup({ ANTHROPIC_MODEL: SONNET_45 }, {}, true);
    expect(thinking(off.session.configOptions).value).toBe("off");
    const hidden = await setup({}, {}, true);
    expect(thinking(hidden.session.configOptions).value).toBe("omitted");
    const own = await setup({ ANTHROPIC_MODEL: SONNET_45 }, {}, true);
    const opened = await own.agent.request(methods.agent.session.new, {
      cwd: mkdtempSync(join(tmpdir(), "acp-thinking-")),
      mcpServers: [],
      _meta: { claudeCode: { options: { thinking: { type: "adaptive" } } } },
    });
    const mine = () =>
      own.updates.filter((n) => n.sessionId === opened.sessionId).map((n) => n.update);
    while (!mine().some((u) => u.sessionUpdate === "available_commands_update")) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const last = mine()
      .filter((u) => u.sessionUpdate === "config_option_update")
      .at(-1);
    const shown = last && "configOptions" in last ? last.configOptions : opened.configOptions;
    expect(thinking(shown).value).toBe("summarized");
  });
});
