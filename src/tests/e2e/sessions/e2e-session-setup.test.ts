// End-to-end: what a client configures when it opens a session reaches the real Claude Code
// (the system prompt RFD, `_meta.systemPrompt`, `_meta.claudeCode.options`, setting
// sources, extra roots), what it may not set is not applied and it is told, and the limits
// it sets end a prompt with a stop reason. Each effect is asserted in what the model was
// sent, in what Claude Code did, or on the wire.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { systemText, type RecordedRequest } from "../../../scripted-api/index.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents();

/** A phrase of Claude Code's own system prompt, which an override replaces. */
const CLAUDE_CODE_PROMPT = "You are Claude Code";

const NOTICES: ClientCapabilities = { session: { notices: {} } };
const hello = [{ content: [{ type: "text" as const, text: "Hello." }] }];

/** session/new with the unstable fields the stable request type does not name. */
function newSession(e2e: E2E, extra: Record<string, unknown>) {
  return e2e.newSession(extra);
}

const rfd = (mode: string, text: string) => ({
  systemPrompt: { mode, content: [{ type: "text", text }] },
});

const withOptions = (options: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  _meta: { ...meta, claudeCode: { options } },
});

/** The last request of the session's main loop: what the model was sent for its turn. */
function lastMain(e2e: E2E, sessionId: string): RecordedRequest {
  const main = e2e.api.requests.filter((r) => r.kind === "main" && r.sessionId === sessionId);
  const last = main.at(-1);
  if (!last) throw new Error(`no main-loop request for ${sessionId}`);
  return last;
}

const systemOf = (e2e: E2E, sessionId: string) => systemText(lastMain(e2e, sessionId));

describe("the system prompt RFD", () => {
  it("append keeps Claude Code's prompt and adds the text, override replaces it; the RFD's field wins over _meta.systemPrompt, where a string replaces and an object appends", async () => {
    const e2e = await startE2E({ scenario: hello, cursor: "session" });
    const init = await e2e.initialize();
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({
      systemPrompt: { mode: { override: {} } },
    });
    // One agent, the sessions' Claude Codes started side by side.
    const [appended, replaced, metaString, metaObject] = await Promise.all([
      newSession(e2e, {
        ...rfd("append", "From the RFD."),
        _meta: { systemPrompt: "From the meta." },
      }),
      newSession(e2e, rfd("override", "You are Omega, a release bot.")),
      newSession(e2e, { _meta: { systemPrompt: "You are Kappa." } }),
      newSession(e2e, { _meta: { systemPrompt: { append: "Be Lambda." } } }),
    ]);
    await Promise.all(
      [appended, replaced, metaString, metaObject].map(({ sessionId }) =>
        e2e.prompt(sessionId, "Hi."),
      ),
    );

    expect(systemOf(e2e, appended.sessionId)).toContain(CLAUDE_CODE_PROMPT);
    expect(systemOf(e2e, appended.sessionId)).toContain("From the RFD.");
    expect(systemOf(e2e, appended.sessionId)).not.toContain("From the meta.");
    expect(systemOf(e2e, replaced.sessionId)).not.toContain(CLAUDE_CODE_PROMPT);
    expect(systemOf(e2e, replaced.sessionId)).toContain("You are Omega, a release bot.");
    expect(systemOf(e2e, metaString.sessionId)).toContain("You are Kappa.");
    expect(systemOf(e2e, metaString.sessionId)).not.toContain(CLAUDE_CODE_PROMPT);
    expect(systemOf(e2e, metaObject.sessionId)).toContain("Be Lambda.");
    expect(systemOf(e2e, metaObject.sessionId)).toContain(CLAUDE_CODE_PROMPT);
  });

  it("an unknown mode, a block that is not text or no block is -32602, and no session opens", async () => {
    // An agent of its own (not shared): it must have no session and no Claude Code at the end.
    const e2e = await startE2E({ scenario: hello, ownAgent: true });
    const bad = [
      { mode: "prepend", content: [{ type: "text", text: "x" }] },
      { mode: "append", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] },
      { mode: "override", content: [] },
    ];
    for (const systemPrompt of bad) {
      const answer = await e2e.rawRequest("session/new", {
        cwd: e2e.cwd,
        mcpServers: [],
        systemPrompt,
      });
      expect(answer).toMatchObject({ error: { code: -32602 } });
    }
    const list = (await e2e.rawRequest("session/list", {})) as { result: { sessions: unknown[] } };
    expect(list.result.sessions).toEqual([]);
    expect(await e2e.processes()).toHaveLength(1); // the agent alone: no Claude Code started
  });

  it("is kept with the session: a load that gives none keeps it (a resume opens the same way), a fork inherits it", async () => {
    const e2e = await startE2E({ scenario: hello, cursor: "session" });
    const { sessionId } = await newSession(e2e, rfd("override", "You are Sigma."));
    await e2e.prompt(sessionId, "Hi.");
    await e2e.rawRequest("session/close", { sessionId });

    await e2e.rawRequest("session/load", { sessionId, cwd: e2e.cwd, mcpServers: [] });
    await e2e.prompt(sessionId, "Again.");
    expect(systemOf(e2e, sessionId)).toContain("You are Sigma.");
    expect(systemOf(e2e, sessionId)).not.toContain(CLAUDE_CODE_PROMPT);

    const forked = (await e2e.rawRequest("session/fork", {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    })) as { result: { sessionId: string } };
    await e2e.prompt(forked.result.sessionId, "Forked.");
    expect(systemOf(e2e, forked.result.sessionId)).toContain("You are Sigma.");
  });
});

describe("_meta.claudeCode.options", () => {
  const toolThenText = [
    { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "echo hi" } }] },
    { content: [{ type: "text" as const, text: "Ran it." }] },
  ];

  it("maxTurns reached or maxBudgetUsd spent ends the prompt with max_turn_requests, not an error, and a notice says which", async () => {
    const e2e = await startE2E({
      scenario: toolThenText,
      cursor: "session",
      clientCapabilities: NOTICES,
      permission: { answer: "select", optionId: "allow-once" },
    });
    const [turns, budget] = await Promise.all([
      newSession(e2e, withOptions({ maxTurns: 1 })),
      newSession(e2e, withOptions({ maxBudgetUsd: 0.000001 })),
    ]);
    const answers = await Promise.all([
      e2e.prompt(turns.sessionId, "Run echo."),
      e2e.prompt(budget.sessionId, "Run echo."),
    ]);
    expect(answers).toMatchObject([
      { stopReason: "max_turn_requests" },
      { stopReason: "max_turn_requests" },
    ]);
    const turnsNotice = e2e.updates.of(turns.sessionId, "notice").at(-1);
    expect(turnsNotice).toMatchObject({ _meta: { claudeCode: { kind: "max_turns" } } });
    expect(turnsNotice?.title).toContain("maxTurns");
    const budgetNotice = e2e.updates.of(budget.sessionId, "notice").at(-1);
    expect(budgetNotice).toMatchObject({ _meta: { claudeCode: { kind: "max_budget" } } });
    expect(budgetNotice?.title).toContain("maxBudgetUsd");
    // The session goes on.
    expect(await e2e.prompt(turns.sessionId, "Hi.")).toBeDefined();
  });

  it("options a client may not set are not applied; one notice names each with its reason", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "echo x > ran.txt" } }] },
        { content: [{ type: "text", text: "Done." }] },
      ],
      clientCapabilities: NOTICES,
      permission: { answer: "select", optionId: "reject-once" },
    });
    const { sessionId } = await newSession(
      e2e,
      withOptions({
        pathToClaudeCodeExecutable: "/nonexistent/claude",
        permissionPromptToolName: "mcp__x__approve",
        allowDangerouslySkipPermissions: true,
        extraArgs: { "dangerously-skip-permissions": null },
        settings: { permissions: { allow: ["Bash"] } },
        cwd: "/",
        noSuchOption: 1,
        maxTurns: "many",
      }),
    );
    expect(await e2e.prompt(sessionId, "Write.")).toMatchObject({ stopReason: "end_turn" });
    // The user was asked, and the rejected command did not run.
    expect(e2e.permissions.records).toHaveLength(1);
    expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);

    const notices = e2e.updates
      .of(sessionId, "notice")
      .filter((n) => (n._meta?.claudeCode as { kind?: string }).kind === "options_ignored");
    expect(notices).toHaveLength(1);
    const lines = notices[0]?.description?.split("\n") ?? [];
    expect(lines).toEqual([
      "pathToClaudeCodeExecutable: it chooses the program that runs as Claude Code",
      "permissionPromptToolName: it would decide permissions in place of the user",
      "allowDangerouslySkipPermissions: it would decide permissions in place of the user",
      "extraArgs: it would decide permissions in place of the user",
      "settings: it would decide permissions in place of the user",
      "cwd: the agent sets it itself for every session",
      "noSuchOption: Claude Code has no such option",
      "maxTurns: its value is not valid",
    ]);
  });

  it("allowedTools, disallowedTools and model reach Claude Code", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "echo y > ok.txt" } }] },
        { content: [{ type: "text", text: "Done." }] },
      ],
      permission: { answer: "select", optionId: "reject-once" },
    });
    const { sessionId } = await newSession(
      e2e,
      withOptions({
        allowedTools: ["Bash"],
        disallowedTools: ["WebFetch"],
        model: "claude-haiku-4-5",
      }),
    );
    expect(await e2e.prompt(sessionId, "Write.")).toMatchObject({ stopReason: "end_turn" });
    // Allowed by the client's rule: it ran without asking.
    expect(e2e.permissions.records).toHaveLength(0);
    expect(existsSync(join(e2e.cwd, "ok.txt"))).toBe(true);
    const body = lastMain(e2e, sessionId).body as { model: string; tools: { name: string }[] };
    expect(body.model).toBe("claude-haiku-4-5");
    expect(body.tools.map((t) => t.name)).not.toContain("WebFetch");
    expect(body.tools.map((t) => t.name)).toContain("Bash");
  });

  it("settingSources [project, local] leaves out the user's settings: their deny rule no longer applies", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "echo z > z.txt" } }] },
        { content: [{ type: "text", text: "Done." }] },
      ],
      cursor: "session",
      permission: { answer: "select", optionId: "allow-once" },
    });
    const configDir = join(e2e.home, ".claude");
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      join(configDir, "settings.json"),
      JSON.stringify({ permissions: { deny: ["Bash(echo z > z.txt)"] } }),
    );

    const withUser = await e2e.newSession();
    await e2e.prompt(withUser.sessionId, "Write.");
    expect(existsSync(join(e2e.cwd, "z.txt"))).toBe(false);

    const isolated = await newSession(e2e, withOptions({ settingSources: ["project", "local"] }));
    await e2e.prompt(isolated.sessionId, "Write.");
    expect(existsSync(join(e2e.cwd, "z.txt"))).toBe(true);
  });

  it("_meta.additionalRoots of legacy clients become additional directories", async () => {
    const e2e = await startE2E({ scenario: hello });
    const extra = join(e2e.home, "extra-root");
    mkdirSync(extra);
    const { sessionId } = await newSession(e2e, { _meta: { additionalRoots: [extra] } });
    await e2e.prompt(sessionId, "Hi.");
    expect(systemOf(e2e, sessionId)).toContain(extra);
  });
});
