// The model option and usage_update tell the truth as Claude Code reports it: the model it
// runs after a turn, and the context size after every API call.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError, type SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it, onTestFinished } from "vitest";
import { controlStrings, HOSTILE_TEXT } from "../support/control-characters.js";
import { fakeClaude, result, streamEvent } from "../support/fake-claude.js";
import { fakeSession } from "../support/fake-session.js";
import { connectInProcess } from "../support/in-process.js";

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

describe("model ids", () => {
  const { CSI, OSC_TITLE, RLO } = HOSTILE_TEXT;
  const modelOption = (updates: SessionNotification[]) =>
    of(updates, "config_option_update")
      .flatMap((u) => (u.sessionUpdate === "config_option_update" ? u.configOptions : []))
      .filter((option) => option.id === "model");

  it.each([
    ["an escape sequence", `haiku${CSI}`],
    ["an OSC title", `haiku${OSC_TITLE}`],
    ["U+202E", `hai${RLO}ku`],
    ["5,000 characters", "h".repeat(5_000)],
    ["201 characters", "h".repeat(201)],
    ["a space", "two words"],
    ["a quote", 'haiku"'],
  ])(
    "/model with an id holding %s, not offered, is refused with invalid params and never reaches Claude Code",
    async (_what, value) => {
      const { agent, query, sessionId, updates } = await setup();
      const sent = query.sent.length;
      const before = updates.length;

      const error = await agent
        .request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: `/model ${value}` }],
        })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(RequestError);
      expect(error).toMatchObject({ code: -32602 });
      expect(controlStrings(error)).toEqual([]);
      expect(JSON.stringify(error)).not.toContain("h".repeat(201));
      expect(query.sent.length).toBe(sent);
      expect(updates.slice(before)).toEqual([]);
    },
  );

  it.each([
    "haiku",
    "HAIKU",
    "Haiku",
    "default",
    "opus[1m]",
    "opusplan",
    "claude-opus-4-1-20250805",
    "claude-sonnet-4-5[1m]",
    "us.anthropic.claude-sonnet-4-20250514-v1:0",
    "arn:aws:bedrock:ap-southeast-2:123456789012:application-inference-profile/a1b2c3d4e5f6",
    "claude-sonnet-4@20250514",
  ])("/model %s (offered, or of a model id's form) goes to Claude Code", async (value) => {
    const { query, prompt } = await setup();
    const sent = query.sent.length;
    await prompt(`/model ${value}`, result());
    expect(query.sent.length).toBe(sent + 1);
  });

  it("/model with an id of 200 characters, the most a model id has, goes to Claude Code", async () => {
    const { query, prompt } = await setup();
    const sent = query.sent.length;
    await prompt(`/model ${"h".repeat(200)}`, result());
    expect(query.sent.length).toBe(sent + 1);
  });

  it.each([
    ["an escape sequence", `haiku${OSC_TITLE}`],
    ["U+202E", `claude-${RLO}haiku-9`],
    ["5,000 characters", "h".repeat(5_000)],
  ])(
    "a model holding %s that Claude Code reports is never echoed: the option keeps what it showed",
    async (_what, reported) => {
      const { query, updates, prompt } = await setup();
      const before = updates.length;
      query.model = reported;
      await prompt("/model opus", result());
      expect(modelOption(updates.slice(before))).toEqual([]);
      expect(controlStrings(updates)).toEqual([]);
    },
  );

  it("a model of a model id's form that Claude Code reports is followed", async () => {
    const { query, updates, prompt } = await setup();
    const before = updates.length;
    query.model = "claude-opus-4-1-20250805";
    await prompt("/model claude-opus-4-1-20250805", result());
    expect(modelOption(updates.slice(before))).toEqual([
      expect.objectContaining({ currentValue: "claude-opus-4-1-20250805" }),
    ]);
  });

  it("a settings file's model holding control characters is not shown: the option stays at the default", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "model-ids-"));
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ model: `opus${CSI}` }));
    const claude = fakeClaude({ models: MODELS });
    const harness = await connectInProcess({ startQuery: claude.startQuery });
    onTestFinished(() => harness.close());

    const started = await harness.newStartedSession(cwd);

    expect(controlStrings(harness.updates)).toEqual([]);
    expect(controlStrings(started)).toEqual([]);
    expect(started.configOptions?.find((o) => o.id === "model")).toMatchObject({
      currentValue: "default",
    });
  });
});
