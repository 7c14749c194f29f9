// The model option's current value is the model Claude Code runs: the client's pick, else
// the model Claude Code picks itself (ANTHROPIC_MODEL, a settings file's env winning over the
// agent's, then the settings' model), else its default. Whatever it shows can be picked again.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionConfigOption } from "@agentclientprotocol/sdk";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { ModelInfo } from "../../claude/types.js";
import { log } from "../../logger.js";
import { claudeOwnModel } from "../../session/configuration/own-model.js";
import { fakeClaude, result } from "../support/fake-claude.js";
import { trustFolder } from "../support/trusted-folder.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

const MODELS: ModelInfo[] = [
  { value: "default", resolvedModel: "claude-opus-5-5", displayName: "Default", description: "" },
  { value: "sonnet", resolvedModel: "claude-sonnet-5-5", displayName: "Sonnet", description: "" },
  { value: "haiku", resolvedModel: "claude-haiku-5-5", displayName: "Haiku", description: "" },
];

describe("the model Claude Code picks itself", () => {
  it.each([
    ["nothing names one: its default (undefined)", {}, {}, undefined],
    ["the settings' model", { model: "sonnet" }, {}, "sonnet"],
    [
      "ANTHROPIC_MODEL over the settings' model",
      { model: "sonnet" },
      { ANTHROPIC_MODEL: "haiku" },
      "haiku",
    ],
    [
      "a settings file's env.ANTHROPIC_MODEL over the agent's",
      { envModel: "opus" },
      { ANTHROPIC_MODEL: "haiku" },
      "opus",
    ],
    [
      "an empty env.ANTHROPIC_MODEL in a settings file hides the agent's: the settings' model",
      { envModel: "", model: "sonnet" },
      { ANTHROPIC_MODEL: "haiku" },
      "sonnet",
    ],
    ["an empty ANTHROPIC_MODEL names none", { model: "sonnet" }, { ANTHROPIC_MODEL: "" }, "sonnet"],
  ])("%s", (_rule, settings, env, expected) => {
    expect(claudeOwnModel(settings, env)).toBe(expected);
  });
});

const modelOption = (options: readonly SessionConfigOption[] | null | undefined) =>
  options?.find((option) => option.id === "model");

const offered = (options: readonly SessionConfigOption[] | null | undefined) => {
  const option = modelOption(options);
  return option?.type === "select" ? option.options.map((o) => ("value" in o ? o.value : "")) : [];
};

/** The in-process agent with `env` added to an isolated one, and a project with `settings`. */
async function setup(env: NodeJS.ProcessEnv, settings?: unknown) {
  const claude = fakeClaude({ models: MODELS });
  const agentEnv = isolatedEnv({ CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS: "50", ...env });
  const harness = await connectInProcess({ startQuery: claude.startQuery, env: agentEnv });
  onTestFinished(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "model-in-effect-"));
  trustFolder(agentEnv, cwd); // a project's settings apply in a folder the user trusts
  if (settings) {
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify(settings));
  }
  const setModel = (sessionId: string, value: string) =>
    harness.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value,
    });
  const start = () => harness.newStartedSession(cwd);
  return { agent: harness.agent, claude, cwd, setModel, start };
}

describe("the model option", () => {
  it("shows ANTHROPIC_MODEL from session/new on, and Claude Code starts without a model option: it picks that model itself", async () => {
    const { agent, claude, cwd } = await setup({ ANTHROPIC_MODEL: "claude-custom-1" });
    const answer = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    expect(modelOption(answer.configOptions)).toMatchObject({ currentValue: "claude-custom-1" });
    expect(offered(answer.configOptions)).toContain("claude-custom-1");
    expect(claude.started[0]?.options.model).toBeUndefined();
  });

  it("shows a settings file's env.ANTHROPIC_MODEL over the agent's, once Claude Code has reported its models too", async () => {
    const { start } = await setup(
      { ANTHROPIC_MODEL: "haiku" },
      { model: "haiku", env: { ANTHROPIC_MODEL: "sonnet" } },
    );
    const session = await start();
    expect(modelOption(session.configOptions)).toMatchObject({ currentValue: "sonnet" });
  });

  it("shows a full id Claude Code lists under an alias as that alias", async () => {
    const { start } = await setup({ ANTHROPIC_MODEL: "claude-haiku-5-5" });
    const session = await start();
    expect(modelOption(session.configOptions)).toMatchObject({ currentValue: "haiku" });
  });

  it("does not show an ANTHROPIC_MODEL that is not a model id: it shows default, and a warning is logged", async () => {
    const warn = vi.spyOn(log, "warn");
    onTestFinished(() => warn.mockRestore());
    const { start } = await setup({ ANTHROPIC_MODEL: "two words\u001b[31m" });
    const session = await start();
    expect(modelOption(session.configOptions)).toMatchObject({ currentValue: "default" });
    expect(JSON.stringify(session)).not.toContain("two words");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("not a model id"));
  });

  it("keeps offering a model Claude Code does not list after the client picks another, and picking it again sends it to Claude Code", async () => {
    const { start, claude, setModel } = await setup({
      ANTHROPIC_MODEL: "sonnet[1m]",
    });
    const { sessionId } = await start();
    const away = await setModel(sessionId, "haiku");
    expect(offered(away.configOptions)).toEqual(["default", "sonnet", "haiku", "sonnet[1m]"]);
    const back = await setModel(sessionId, "sonnet[1m]");
    expect(modelOption(back.configOptions)).toMatchObject({ currentValue: "sonnet[1m]" });
    expect(claude.started[0]?.models).toEqual(["haiku", "sonnet[1m]"]);
  });

  it("refuses a model neither Claude Code lists nor the session offers", async () => {
    const { start, setModel } = await setup({ ANTHROPIC_MODEL: "sonnet[1m]" });
    const { sessionId } = await start();
    await expect(setModel(sessionId, "opus[1m]")).rejects.toMatchObject({ code: -32602 });
  });

  it.each([
    ["the model Claude Code picks itself goes as no model option", undefined, undefined],
    ["a model the client picked goes as the model option", "sonnet", "sonnet"],
    ["default picked over ANTHROPIC_MODEL goes as `default`", "default", "default"],
  ])("when Claude Code restarts, %s", async (_rule, picked, expected) => {
    const { agent, start, claude, setModel } = await setup({
      ANTHROPIC_MODEL: "haiku",
    });
    const { sessionId } = await start();
    if (picked) await setModel(sessionId, picked);
    // The idle session's process closes; the next prompt starts another.
    await vi.waitFor(() => expect(claude.started[0]?.closed).toBe(true));
    const restarted = claude.nextStart();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    const query = await restarted;
    expect(query.options.model).toBe(expected);
    await query.waitForSent(1);
    query.emit(result());
    await prompt;
  });
});
