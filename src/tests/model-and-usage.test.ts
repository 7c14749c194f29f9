// The model option and usage_update tell the truth as Claude Code reports it: the model it
// runs after a turn, and the context size after every API call.
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { result, streamEvent } from "./support/fake-claude.js";
import { fakeSession } from "./support/fake-session.js";

const MODELS = [
  { value: "default", displayName: "Default", description: "" },
  { value: "haiku", displayName: "Haiku", description: "", resolvedModel: "claude-haiku-9" },
];

const setup = () => fakeSession({}, { models: MODELS });

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
    const before = updates.length;
    await prompt("/model haiku", result());
    const [update] = of(updates.slice(before), "config_option_update");
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
