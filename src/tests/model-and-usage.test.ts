// The model option and usage_update tell the truth as Claude Code reports it: the model it
// runs after a turn, and the context size after every API call.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result, streamEvent } from "./support/fake-claude.js";
import { connectInProcess } from "./support/in-process.js";

const cwd = mkdtempSync(join(tmpdir(), "model-and-usage-test-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const MODELS = [
  { value: "default", displayName: "Default", description: "" },
  { value: "haiku", displayName: "Haiku", description: "", resolvedModel: "claude-haiku-9" },
];

async function setup() {
  const claude = fakeClaude({ models: MODELS });
  const harness = await connectInProcess({ startQuery: claude.startQuery });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  const prompt = async (text: string, ...messages: Parameters<typeof query.emit>) => {
    const sent = query.sent.length;
    const response = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    await query.waitForSent(sent + 1);
    query.emit(...messages);
    return response;
  };
  return { ...harness, query, sessionId, prompt };
}

const of = (updates: SessionNotification[], kind: string) =>
  updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind);

/** One API call's stream events with its usage. */
const apiCall = (id: string, input: number, output: number) => [
  streamEvent({
    type: "message_start",
    message: { id, content: [], usage: { input_tokens: input } },
  }),
  streamEvent({ type: "message_delta", delta: {}, usage: { output_tokens: output } }),
];
const windowed = (cost: number) =>
  result({ costUsd: cost, modelUsage: { m: { contextWindow: 100_000 } } });

describe("model and usage truth", () => {
  it("a model change Claude Code reports after a turn moves the model option", async () => {
    const { query, updates, prompt } = await setup();
    query.model = "claude-haiku-9";
    await prompt("/model haiku", result());
    const [update] = of(updates, "config_option_update");
    expect(update).toMatchObject({
      configOptions: expect.arrayContaining([
        expect.objectContaining({ id: "model", currentValue: "haiku" }),
      ]) as unknown,
    });
  });

  it("usage_update follows every API call once the context window is known", async () => {
    const { updates, prompt } = await setup();
    await prompt("first", ...apiCall("a", 1000, 10), windowed(0.01));
    const before = of(updates, "usage_update").length;

    await prompt("second", ...apiCall("b", 2000, 20), ...apiCall("c", 3000, 30), windowed(0.02));

    const usages = of(updates, "usage_update").slice(before);
    expect(usages.map((u) => (u.sessionUpdate === "usage_update" ? u.used : 0))).toEqual([
      2020, 3030, 3030,
    ]);
  });
});
