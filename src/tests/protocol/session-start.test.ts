// The cold path: session/new answers before Claude Code has started. A prompt sent meanwhile
// waits for the process; what Claude Code reports at its start (its models) follows as
// config_option_update, and the next session offers it at once; a start that fails is said
// at once (a notice) and carried by the first prompt.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  RequestError,
  type SessionConfigOption,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelInfo } from "../../claude/types.js";
import { modelCachePath } from "../../session/configuration/model-cache.js";
import {
  fakeClaude,
  fakeClaudeStartedByTest,
  result,
  streamedText,
  type FakeClaudeQuery,
} from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

const MODELS: ModelInfo[] = [
  {
    value: "default",
    displayName: "Default (recommended)",
    description: "Opus",
    supportsAutoMode: true,
  },
  { value: "haiku", displayName: "Haiku", description: "Haiku", supportsAutoMode: false },
];

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

/** An agent whose fake Claude Code starts only when the test says so. */
async function setup(options: { env?: NodeJS.ProcessEnv; notices?: boolean } = {}) {
  const claude = fakeClaudeStartedByTest({ models: MODELS });
  const { startQuery, starts } = claude;
  const harness = await connectInProcess({
    startQuery,
    env: options.env ?? isolatedEnv(),
    clientCapabilities: options.notices ? { session: { notices: {} } } : {},
  });
  cleanup.push(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "acp-start-"));
  return { ...harness, claude, starts, cwd };
}

function modelValues(options: readonly SessionConfigOption[] | null | undefined): string[] {
  const model = options?.find((o) => o.id === "model");
  return model?.type === "select" ? model.options.map((o) => ("value" in o ? o.value : "")) : [];
}

function updatesOf(updates: SessionNotification[], sessionId: string) {
  return updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("session/new answers before Claude Code is ready", () => {
  it("answers while Claude Code is still starting, with the modes and the default model", async () => {
    const { agent, starts, cwd } = await setup();
    const session = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    expect(starts).toHaveLength(1);
    expect(session.modes?.currentModeId).toBe("default");
    expect(modelValues(session.configOptions)).toEqual(["default"]);
  });

  it("a prompt sent before Claude Code is ready reaches it and is answered", async () => {
    const { agent, claude, starts, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    const query = claude.started[0]!;
    await query.waitForSent(1);
    starts[0]!.resolve({ commands: [], models: MODELS });
    query.emit(...streamedText("m", "hi"), result());
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
  });

  it("the models Claude Code reports arrive by config_option_update, and the next session offers them at once", async () => {
    const env = isolatedEnv();
    const first = await setup({ env });
    const { sessionId } = await first.agent.request(methods.agent.session.new, {
      cwd: first.cwd,
      mcpServers: [],
    });
    first.starts[0]!.resolve({ commands: [], models: MODELS });
    await until(() =>
      updatesOf(first.updates, sessionId).some((u) => u.sessionUpdate === "config_option_update"),
    );
    const update = updatesOf(first.updates, sessionId).find(
      (u) => u.sessionUpdate === "config_option_update",
    );
    expect(update && "configOptions" in update && modelValues(update.configOptions)).toEqual([
      "default",
      "haiku",
    ]);

    // Another agent process, same Claude Code and config dir: the models of the last start.
    await until(() => existsSync(modelCachePath(env)));
    const second = await setup({ env });
    const next = await second.agent.request(methods.agent.session.new, {
      cwd: second.cwd,
      mcpServers: [],
    });
    expect(modelValues(next.configOptions)).toEqual(["default", "haiku"]);
  });

  it("a mode the client sets while Claude Code starts is kept when its start-up report arrives", async () => {
    const { agent, claude, starts, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
    starts[0]!.resolve({ commands: [], models: MODELS });
    const query = claude.started[0]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(query.modes).toEqual(["acceptEdits"]);
  });
});

describe("a Claude Code start that fails after session/new answered", () => {
  it("is said at once as an error notice, and the first prompt fails with the reason; the next prompt starts Claude Code again", async () => {
    const { agent, claude, starts, updates, cwd } = await setup({ notices: true });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    starts[0]!.reject(new Error("Claude Code process exited with code 1: settings are invalid"));
    await until(() => updatesOf(updates, sessionId).some((u) => u.sessionUpdate === "notice"));
    expect(updatesOf(updates, sessionId)).toContainEqual(
      expect.objectContaining({
        sessionUpdate: "notice",
        severity: "error",
        title: expect.stringContaining("settings are invalid") as unknown,
      }),
    );
    expect(claude.started[0]!.closed).toBe(true);

    const error = await agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32603);
    expect((error as RequestError).message).toContain(
      "Claude Code did not start: Claude Code process exited with code 1: settings are invalid",
    );

    const retry = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    await until(() => claude.started.length === 2);
    const second = claude.started[1]!;
    await second.waitForSent(1);
    starts[1]!.resolve({ commands: [], models: MODELS });
    second.emit(result());
    expect(await retry).toMatchObject({ stopReason: "end_turn" });
  });

  it("fails the prompt that was waiting for it with the reason", async () => {
    const { agent, claude, starts, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    await claude.started[0]!.waitForSent(1);
    starts[0]!.reject(new Error("Claude Code start-up timed out after 60000 ms"));
    const error = await prompt;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toContain(
      "Claude Code did not start: Claude Code start-up timed out",
    );
  });

  it("a process that ends before it reported its start is a failed start, not a crash to resume", async () => {
    const { agent, claude, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    await claude.started[0]!.waitForSent(1);
    claude.started[0]!.end(new Error("Claude Code process exited with code 2"));
    const error = await prompt;
    expect((error as RequestError).message).toContain(
      "Claude Code did not start: Claude Code process exited with code 2",
    );
    expect(claude.started).toHaveLength(1);
  });
});

describe("a start that fails before session/new can answer", () => {
  it("a prewarmed process whose claim fails is closed and the session is not registered", async () => {
    const claude = fakeClaude();
    const harness = await connectInProcess({
      startQuery: (options) => {
        const query = claude.startQuery(options);
        const refused = Promise.reject(new Error("the spare refused the claim"));
        refused.catch(() => undefined);
        Object.defineProperty(query, "sessionId", { value: refused });
        return query;
      },
    });
    cleanup.push(() => harness.close());
    const cwd = mkdtempSync(join(tmpdir(), "acp-start-"));
    const error = await harness.agent
      .request(methods.agent.session.new, { cwd, mcpServers: [] })
      .catch((e: unknown) => e);
    expect((error as RequestError).code).toBe(-32603);
    expect(claude.started[0]!.closed).toBe(true);
    expect(harness.updates).toEqual([]);
  });
});

describe("a start-up failure whose cause Claude Code names (startup_failure_reason)", () => {
  /** Claude Code's zeroed result for a failed start, then its exit. */
  const failStart = (query: FakeClaudeQuery, reason: string, errors: string[]) => {
    query.emit(
      result({
        subtype: "error_during_execution",
        isError: true,
        errors,
        extra: { startup_failure_reason: reason },
      }),
    );
    query.end(new Error("Claude Code process exited with code 1"));
  };

  async function promptFailedBy(reason: string, errors: string[]) {
    const { agent, claude, cwd } = await setup();
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    await claude.started[0]!.waitForSent(1);
    failStart(claude.started[0]!, reason, errors);
    const error = await prompt;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).not.toMatch(/exited/);
    return { error: error as RequestError, sessionId };
  }

  it("an organization's sign-in that ended is auth_required, with how to sign in again", async () => {
    const { error } = await promptFailedBy("org_signin_ended", [
      "Your organization signed you out.",
    ]);
    expect(error.code).toBe(-32000);
    expect(error.message).toContain("Your organization signed you out");
    expect(error.message).toMatch(/log in with your client's login action/);
    expect(error.data).toEqual({ startupFailureReason: "org_signin_ended" });
  });

  it.each([
    ["consumer_terms_review_in_terminal", /run `claude` in a terminal and accept them/],
    ["consumer_terms_accept_on_web", /accept them at claude\.ai|at claude\.ai/],
  ])(
    "updated terms to accept (%s) are auth_required, saying where, and nothing about keys",
    async (reason, where) => {
      const { error } = await promptFailedBy(reason, ["The Consumer Terms have changed."]);
      expect(error.code).toBe(-32000);
      expect(error.message).toContain("The Consumer Terms have changed.");
      expect(error.message).toMatch(where);
      expect(error.message).not.toMatch(/ANTHROPIC_API_KEY/);
      expect(error.data).toEqual({ startupFailureReason: reason });
    },
  );

  it("a conversation to resume that is gone is a session not found", async () => {
    const { error, sessionId } = await promptFailedBy("resume_target_not_found", [
      "No conversation found with session ID: x",
    ]);
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ sessionId });
  });

  it("any other cause is a start error whose data names it", async () => {
    const { error } = await promptFailedBy("temp_dir_unusable", [
      "The temp directory is not usable.",
    ]);
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("Claude Code did not start: The temp directory is not usable.");
    expect(error.data).toEqual({ startupFailureReason: "temp_dir_unusable" });
  });

  it("said before any prompt: a notice at once, the first prompt fails with it, and the next one begins the conversation again (nothing to resume)", async () => {
    const { agent, claude, starts, updates, cwd } = await setup({ notices: true });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    failStart(claude.started[0]!, "cwd_unavailable", ["The working directory is gone."]);
    await until(() => updatesOf(updates, sessionId).some((u) => u.sessionUpdate === "notice"));

    const error = await agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    expect((error as RequestError).data).toEqual({ startupFailureReason: "cwd_unavailable" });

    const retry = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    await until(() => claude.started.length === 2);
    const second = claude.started[1]!;
    expect(second.options.resume).toBeUndefined();
    await second.waitForSent(1);
    starts[1]!.resolve({ commands: [], models: MODELS });
    second.emit(result());
    expect(await retry).toMatchObject({ stopReason: "end_turn" });
  });
});
