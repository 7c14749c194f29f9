// The Claude SDK options a client may set (`_meta.claudeCode.options`): a written allowlist,
// every SDK option classified, and nothing of a refused value kept.
import { describe, expect, it } from "vitest";
import {
  APPLIED_OPTIONS,
  NOT_APPLIED_OPTIONS,
  readClientOptions,
} from "../../../claude/client-options/options.js";
import { configurationKey } from "../../../claude/early-start.js";
import { hostOptions } from "../../../claude/sdk-query.js";
import { hostKey } from "../../../claude/spare-pool.js";
import type { ClaudeQueryOptions } from "../../../claude/query.js";

const deny = () => Promise.resolve({ behavior: "deny" as const, message: "no" });
const base: ClaudeQueryOptions = {
  cwd: "/work",
  executable: "/bin/claude",
  env: {},
  canUseTool: deny,
};

describe("the allowlist", () => {
  it("names the options the issue lists as a client's to set", () => {
    for (const name of [
      "model",
      "fallbackModel",
      "maxTurns",
      "maxBudgetUsd",
      "allowedTools",
      "disallowedTools",
      "tools",
      "settingSources",
      "additionalDirectories",
      "env",
      "mcpServers",
      "agents",
      "plugins",
      "effort",
      "thinking",
      "systemPrompt",
    ]) {
      expect(APPLIED_OPTIONS).toContain(name);
    }
  });

  it("keeps from clients what would take the permission decision from the user, choose the executable or spawn it", () => {
    for (const name of [
      "canUseTool",
      "permissionPromptToolName",
      "permissionPrompts",
      "allowDangerouslySkipPermissions",
      "hooks",
      "settings",
      "extraArgs",
      "pathToClaudeCodeExecutable",
      "executable",
      "executableArgs",
      "spawnClaudeCodeProcess",
    ]) {
      expect(APPLIED_OPTIONS).not.toContain(name);
      expect(NOT_APPLIED_OPTIONS[name]).toBeDefined();
    }
  });

  it("no option is both applied and not applied", () => {
    expect(APPLIED_OPTIONS.filter((name) => name in NOT_APPLIED_OPTIONS)).toEqual([]);
  });
});

describe("readClientOptions", () => {
  it("applies valid values as they are", () => {
    const { options, ignored } = readClientOptions({
      maxTurns: 3,
      allowedTools: ["Read"],
      settingSources: ["project", "local"],
      env: { MCP_TIMEOUT: "30000" },
      mcpServers: { docs: { type: "http", url: "https://example.com/mcp" } },
      thinking: { type: "disabled" },
    });
    expect(ignored).toEqual([]);
    expect(options).toEqual({
      maxTurns: 3,
      allowedTools: ["Read"],
      settingSources: ["project", "local"],
      env: { MCP_TIMEOUT: "30000" },
      mcpServers: { docs: { type: "http", url: "https://example.com/mcp" } },
      thinking: { type: "disabled" },
    });
  });

  it("ignores an unknown option, a refused one and an invalid value, each with its reason, and keeps none of their values", () => {
    const { options, ignored } = readClientOptions({
      canUseTool: "x",
      pathToClaudeCodeExecutable: "/tmp/evil",
      bogus: true,
      maxTurns: -1,
      settingSources: ["user", "policy"],
      mcpServers: { inproc: { type: "sdk", name: "x" } },
    });
    expect(options).toEqual({});
    expect(ignored).toEqual([
      { name: "canUseTool", reason: "permissions" },
      { name: "pathToClaudeCodeExecutable", reason: "executable" },
      { name: "bogus", reason: "unknown" },
      { name: "maxTurns", reason: "invalid" },
      { name: "settingSources", reason: "invalid" },
      { name: "mcpServers", reason: "invalid" },
    ]);
  });

  it("a client's subagent keeps its definition but not its permission mode, and the client is told", () => {
    const { options, ignored } = readClientOptions({
      agents: {
        reviewer: {
          description: "Reviews",
          prompt: "Review.",
          permissionMode: "bypassPermissions",
        },
      },
    });
    expect(options.agents).toEqual({ reviewer: { description: "Reviews", prompt: "Review." } });
    expect(ignored).toEqual([{ name: "agents.reviewer.permissionMode", reason: "permissions" }]);
  });

  it("anything but an object is one invalid entry; none is nothing", () => {
    expect(readClientOptions("maxTurns=1").ignored).toEqual([
      { name: "options", reason: "invalid" },
    ]);
    expect(readClientOptions(undefined)).toEqual({ options: {}, ignored: [] });
  });
});

describe("the options Claude Code is started with", () => {
  it("the client's go under the agent's own: the agent's permission callback, directory and stream options stay", () => {
    const options = hostOptions({
      ...base,
      clientOptions: { maxTurns: 2, allowedTools: ["Read"] },
      systemPrompt: "You are Zeta.",
      settingSources: ["project"],
    });
    expect(options).toMatchObject({
      maxTurns: 2,
      allowedTools: ["Read"],
      systemPrompt: "You are Zeta.",
      settingSources: ["project"],
      includePartialMessages: true,
      canUseTool: deny,
    });
  });

  it("without a client's setup: Claude Code's own prompt and its three setting sources", () => {
    expect(hostOptions(base)).toMatchObject({
      systemPrompt: { type: "preset", preset: "claude_code" },
      settingSources: ["user", "project", "local"],
    });
  });

  it("a prewarmed spare (started without any) never serves a session with a system prompt, setting sources or options", () => {
    const spare = hostKey(base);
    expect(hostKey({ ...base, systemPrompt: "x" })).not.toBe(spare);
    // AIR's custom instructions are part of the system prompt (client-setup.ts).
    const instructions = { type: "preset", preset: "claude_code", append: "Be brief." } as const;
    expect(hostKey({ ...base, systemPrompt: instructions })).not.toBe(spare);
    expect(hostKey({ ...base, settingSources: ["project"] })).not.toBe(spare);
    expect(hostKey({ ...base, clientOptions: { maxTurns: 1 } })).not.toBe(spare);
    expect(hostKey({ ...base })).toBe(spare);
  });

  it("prompt suggestions (a client that asks for them) are part of what a spare and a remembered start key on", () => {
    const asked = { ...base, promptSuggestions: true };
    expect(hostKey(asked)).not.toBe(hostKey(base));
    expect(configurationKey(hostOptions(asked))).not.toBe(configurationKey(hostOptions(base)));
    expect(hostOptions(asked).promptSuggestions).toBe(true);
    expect(hostOptions(base).promptSuggestions).toBeUndefined();
  });

  it("the session's thinking (shown, hidden, off) is part of what a spare and a remembered start key on", () => {
    const summarized = { ...base, thinking: "summarized" as const };
    const omitted = { ...base, thinking: "omitted" as const };
    const off = { ...base, thinking: "off" as const };
    const keys = [summarized, omitted, off].map(hostKey);
    expect(new Set(keys).size).toBe(3);
    const starts = [summarized, omitted, off].map((o) => configurationKey(hostOptions(o)));
    expect(new Set(starts).size).toBe(3);
    expect(hostOptions(summarized).extraArgs).toEqual({ "thinking-display": "summarized" });
    // Off is applied once the process exists, never as an off start (see sdk-query.ts).
    expect(hostOptions(off).extraArgs).toBeUndefined();
    expect(hostOptions(off).thinking).toBeUndefined();
    // A client's own thinking option says the display itself.
    const own = { ...summarized, clientOptions: { thinking: { type: "disabled" as const } } };
    expect(hostOptions(own).extraArgs).toBeUndefined();
  });

  it("every process keeps file checkpoints (a rewind's files): a spare and a remembered start the same as a session's", () => {
    expect(hostOptions(base).enableFileCheckpointing).toBe(true);
    // A client cannot set it (the allowlist); the agent's value would win anyway.
    expect(NOT_APPLIED_OPTIONS.enableFileCheckpointing).toBe("agent");
  });
});

/** One valid value of each option a client may set. */
const SAMPLES: Record<string, unknown> = {
  model: "claude-haiku-4-5",
  fallbackModel: "claude-sonnet-4-5",
  effort: "high",
  permissionMode: "plan",
  maxTurns: 3,
  maxBudgetUsd: 0.5,
  taskBudget: { total: 1000 },
  allowedTools: ["Read"],
  disallowedTools: ["WebFetch"],
  tools: ["Bash", "Read"],
  settingSources: ["project"],
  additionalDirectories: ["/tmp"],
  env: { MCP_TIMEOUT: "1" },
  mcpServers: { docs: { command: "docs-server", args: [] } },
  agents: { reviewer: { description: "Reviews", prompt: "Review." } },
  agent: "reviewer",
  plugins: [{ type: "local", path: "/plugins/x" }],
  thinking: { type: "adaptive" },
  maxThinkingTokens: 2048,
  betas: ["context-1m-2025-08-07"],
  strictMcpConfig: true,
  skills: "all",
  toolConfig: { askUserQuestion: { previewFormat: "markdown" } },
  planModeInstructions: "Plan briefly.",
  systemPrompt: "You are Zeta.",
};

describe("every option a client may set", () => {
  it("has a sample here, and each sample is applied as it is", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...APPLIED_OPTIONS].sort());
    expect(readClientOptions(SAMPLES)).toEqual({ options: SAMPLES, ignored: [] });
  });

  it("changes what the cold start keys on: no spare and no remembered start of other options serves it", () => {
    const plain = hostOptions(base);
    for (const [name, value] of Object.entries(SAMPLES)) {
      // The session applies these itself (configuration, directories) or as their own fields.
      if (["model", "effort", "permissionMode", "additionalDirectories"].includes(name)) continue;
      // As session/configuration/claude-env.ts passes them: some as fields of their own, merged
      // with the agent's.
      const query: ClaudeQueryOptions = ["mcpServers", "disallowedTools"].includes(name)
        ? { ...base, [name]: value }
        : name === "systemPrompt"
          ? { ...base, systemPrompt: value as string }
          : name === "settingSources"
            ? { ...base, settingSources: value as ["project"] }
            : name === "env"
              ? { ...base, env: value as Record<string, string> }
              : { ...base, clientOptions: { [name]: value } };
      expect(hostKey(query), name).not.toBe(hostKey(base));
      // The environment is left out of the configuration's name, and a start whose
      // environment differs is never handed over (start-plan.ts spawnDifference).
      if (name !== "env") {
        expect(configurationKey(hostOptions(query)), name).not.toBe(configurationKey(plain));
      }
    }
  });
});
