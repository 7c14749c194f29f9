// End-to-end, the cold path with the real Claude Code: session/new answers before Claude
// Code has started, a prompt sent at once is answered, the models Claude Code reports
// follow as config_option_update (and the next session offers them at once), and a Claude
// Code that fails to start is reported by a notice and by the first prompt; a configuration
// started before has its Claude Code started while the SDK loads, the SDK loads a moment after
// initialize when nothing needs it yet, and the last new session's Claude Code can be started
// at the agent's launch.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { SDK_PRELOAD_DELAY_MS } from "../../../claude/sdk-loader.js";
import { poll, sleep, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { claudeProcesses } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);

function modelValues(options: readonly SessionConfigOption[] | null | undefined): string[] {
  const model = options?.find((o) => o.id === "model");
  return model?.type === "select" ? model.options.map((o) => ("value" in o ? o.value : "")) : [];
}

describe("the cold path", () => {
  it("a prompt sent the moment session/new answers is answered by the Claude Code still starting", async () => {
    const e2e = await startE2E({ scenario: [{ content: [{ type: "text", text: "Hello." }] }] });
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    const chunks = e2e.updates.of(sessionId, "agent_message_chunk");
    expect(chunks.map((u) => (u.content.type === "text" ? u.content.text : "")).join("")).toBe(
      "Hello.",
    );
  });

  it("the models Claude Code reports arrive by config_option_update; the next session/new offers them in its response", async () => {
    const e2e = await startE2E();
    const first = await e2e.newSession();
    // Nothing known yet (a fresh HOME): the default model only.
    expect(modelValues(first.configOptions)).toEqual(["default"]);
    const update = await e2e.updates.waitFor(
      first.sessionId,
      "config_option_update",
      (u) => modelValues(u.configOptions).length > 1,
    );
    const reported = modelValues(update.configOptions);
    expect(reported).toContain("default");

    const second = await e2e.newSession();
    expect(modelValues(second.configOptions)).toEqual(reported);
  });

  it("the agent loads the Claude SDK a moment after initialize when no session needs it yet, and not before initialize", async () => {
    const SDK_LOADED = "mark claude-sdk-loaded";
    const waiting = await startE2E({ initialize: false });
    await sleep(SDK_PRELOAD_DELAY_MS + 1_000);
    expect(waiting.log()).not.toContain(SDK_LOADED);
    await waiting.initialize();
    const loaded = await poll(
      () => Promise.resolve(waiting.log().includes(SDK_LOADED) || undefined),
      10_000,
    );
    expect(loaded).toBe(true);
    // Nothing else was asked for: no Claude Code process started with it.
    expect(await claudeProcesses(waiting)).toEqual([]);
  });
});

describe("a Claude Code that fails to start after session/new answered", () => {
  it("is reported at once by an error notice and by the first prompt, with its reason", async () => {
    // A claude that exists but cannot start.
    const broken = join(mkdtempSync(join(tmpdir(), "acp-broken-claude-")), "claude");
    writeFileSync(broken, "#!/bin/sh\necho 'claude: this install is broken' >&2\nexit 3\n");
    chmodSync(broken, 0o755);
    const agent = await startE2E({
      clientCapabilities: { session: { notices: {} } },
      env: { CLAUDE_CODE_EXECUTABLE: broken },
    });
    const { sessionId } = await agent.newSession();
    const notice = await agent.updates.waitFor(sessionId, "notice");
    expect(notice).toMatchObject({ severity: "error" });
    expect(notice.title).toContain("Claude Code did not start");

    const error = await agent.prompt(sessionId, "Hi.").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const message = error instanceof Error ? error.message : "";
    expect(message).toContain("Claude Code did not start");
    expect(message).toContain("exit");
  });
});

describe("Claude Code started while the SDK loads", () => {
  /** Two runs of the agent that share what they learn between runs (XDG_CACHE_HOME). */
  const sharedCache = () => mkdtempSync(join(tmpdir(), "acp-early-cache-"));
  const startsFile = (cache: string) => join(cache, "claude-agent-acp", "starts.json");
  const hello = [{ content: [{ type: "text" as const, text: "Hello." }] }];

  async function firstRun(cache: string): Promise<void> {
    const first = await startE2E({ env: { XDG_CACHE_HOME: cache } });
    const { sessionId } = await first.newSession();
    await first.prompt(sessionId, "Hi.");
    await expect.poll(() => existsSync(startsFile(cache)), { timeout: 10_000 }).toBe(true);
    await first.stop();
  }

  it("the next run with the same configuration hands the SDK the process it started early, and that process answers", async () => {
    const cache = sharedCache();
    await firstRun(cache);

    const e2e = await startE2E({ scenario: hello, env: { XDG_CACHE_HOME: cache } });
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.log()).toContain("is handed to the SDK");
    expect(await claudeProcesses(e2e)).toHaveLength(1);
  });

  it("with CLAUDE_AGENT_ACP_EARLY_START=0 nothing is started ahead of the SDK, even for a configuration seen before", async () => {
    const cache = sharedCache();
    await firstRun(cache);

    const e2e = await startE2E({
      scenario: hello,
      env: { XDG_CACHE_HOME: cache, CLAUDE_AGENT_ACP_EARLY_START: "0" },
    });
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.log()).not.toContain("claude-early-start");
    expect(e2e.log()).not.toContain("started early");
  });

  it("a remembered start the SDK no longer asks for is ended, and the SDK's own process answers", async () => {
    const cache = sharedCache();
    await firstRun(cache);
    // As after an update of the SDK that changed Claude Code's flags.
    const saved = JSON.parse(readFileSync(startsFile(cache), "utf8")) as {
      plans: { args: string[] }[];
    };
    for (const plan of saved.plans) plan.args.push("--verbose");
    writeFileSync(startsFile(cache), JSON.stringify(saved));

    const e2e = await startE2E({ scenario: hello, env: { XDG_CACHE_HOME: cache } });
    const { sessionId } = await e2e.newSession();
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.log()).toContain("is not used (the SDK asks for other arguments)");
    await expect.poll(async () => (await claudeProcesses(e2e)).length, { timeout: 5_000 }).toBe(1);
  });
});

describe("Claude Code started at the agent's launch (CLAUDE_AGENT_ACP_LAUNCH_START=1)", () => {
  const cache = () => mkdtempSync(join(tmpdir(), "acp-launch-cache-"));
  const folder = () => mkdtempSync(join(tmpdir(), "acp-launch-project-"));
  const hello = [{ content: [{ type: "text" as const, text: "Hello." }] }];
  const launchEnv = (xdg: string) => ({ XDG_CACHE_HOME: xdg, CLAUDE_AGENT_ACP_LAUNCH_START: "1" });

  /** A run whose new session in `project` was started and answered, its start saved. */
  async function earlierRun(xdg: string, project: string): Promise<void> {
    const first = await startE2E({ scenario: hello, env: launchEnv(xdg) });
    const { sessionId } = await first.newSession({ cwd: project });
    await first.prompt(sessionId, "Hi.");
    const starts = join(xdg, "claude-agent-acp", "starts.json");
    await expect
      .poll(() => existsSync(starts) && readFileSync(starts, "utf8"), { timeout: 10_000 })
      .toContain(`"launch"`);
    await first.stop();
  }

  it("the next launch starts the last new session's Claude Code before any session, and the first session/new in that folder is answered by it", async () => {
    const xdg = cache();
    const project = folder();
    await earlierRun(xdg, project);

    const e2e = await startE2E({ scenario: hello, env: launchEnv(xdg) });
    await expect.poll(async () => (await claudeProcesses(e2e)).length, { timeout: 5_000 }).toBe(1);
    const [launched] = await claudeProcesses(e2e);
    const { sessionId } = await e2e.newSession({ cwd: project });
    expect(launched?.command).toContain(`--session-id=${sessionId}`);
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.log()).toContain("is handed to the SDK");
    expect((await claudeProcesses(e2e)).map((p) => p.pid)).toEqual([launched?.pid]);
  });

  it("a first session/new in another folder ends it, and the session's own Claude Code answers", async () => {
    const xdg = cache();
    await earlierRun(xdg, folder());

    const e2e = await startE2E({ scenario: hello, env: launchEnv(xdg) });
    await expect.poll(async () => (await claudeProcesses(e2e)).length, { timeout: 5_000 }).toBe(1);
    const { sessionId } = await e2e.newSession({ cwd: folder() });
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.log()).toContain(
      "started at launch is not used (the session asks for other directory)",
    );
    await expect.poll(async () => (await claudeProcesses(e2e)).length, { timeout: 5_000 }).toBe(1);
  });

  it("a client that goes away before any session/new ends it: the agent exits and no Claude Code is left", async () => {
    const xdg = cache();
    await earlierRun(xdg, folder());

    const e2e = await startE2E({ scenario: hello, env: launchEnv(xdg) });
    await expect.poll(async () => (await claudeProcesses(e2e)).length, { timeout: 5_000 }).toBe(1);
    e2e.closeStdin();
    expect(await e2e.agent.exited).toEqual({ code: 0, signal: null });
    expect(await e2e.survivors(3_000)).toEqual([]);
    expect(e2e.log()).toContain("started at launch is not used (the agent is done)");
  });

  it("without CLAUDE_AGENT_ACP_LAUNCH_START=1 nothing starts before session/new", async () => {
    const xdg = cache();
    await earlierRun(xdg, folder());

    const e2e = await startE2E({ scenario: hello, env: { XDG_CACHE_HOME: xdg } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await claudeProcesses(e2e)).toHaveLength(0);
    expect(e2e.log()).not.toContain("claude-launch-start");
  });
});
