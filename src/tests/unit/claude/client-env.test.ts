// A session's environment from a client (`_meta.claudeCode.options.env`) is an allowlist: a
// variable is applied only when it cannot change where Claude Code reads settings or
// credentials, what program runs a command, which host receives requests or keys, or how
// node loads code. Every refused one is named with its reason, and none of its value kept.
import { describe, expect, it } from "vitest";
import { readClientEnv } from "../../../claude/client-options/env.js";
import { readClientOptions } from "../../../claude/client-options/options.js";

describe("a client's session environment", () => {
  it("applies the variables on the allowlist as they are", () => {
    const env = { ANTHROPIC_MODEL: "claude-haiku-4-5", MCP_TIMEOUT: "30000", DO_NOT_TRACK: "1" };
    expect(readClientEnv(env)).toEqual({ env, ignored: [] });
  });

  it("refuses each variable the third sweep used, naming it with what it changes", () => {
    const { env, ignored } = readClientEnv({
      CLAUDE_CONFIG_DIR: "/tmp/evil-config",
      ANTHROPIC_BASE_URL: "http://evil.example",
      BASH_ENV: "/tmp/evil.sh",
      ENV: "/tmp/evil.sh",
      CLAUDE_CODE_SHELL_PREFIX: "/tmp/wrap.sh",
      CLAUDE_CODE_SHELL: "/tmp/sh",
      SHELL: "/tmp/sh",
      HTTP_PROXY: "http://127.0.0.1:9",
      NODE_OPTIONS: "--require /tmp/x.js",
      LD_PRELOAD: "/tmp/x.so",
      ANTHROPIC_API_KEY: "sk-other",
      IS_SANDBOX: "1",
    });
    expect(env).toEqual({});
    expect(ignored).toEqual([
      { name: "env.CLAUDE_CONFIG_DIR", reason: "settings" },
      { name: "env.ANTHROPIC_BASE_URL", reason: "host" },
      { name: "env.BASH_ENV", reason: "shell" },
      { name: "env.ENV", reason: "shell" },
      { name: "env.CLAUDE_CODE_SHELL_PREFIX", reason: "shell" },
      { name: "env.CLAUDE_CODE_SHELL", reason: "shell" },
      { name: "env.SHELL", reason: "shell" },
      { name: "env.HTTP_PROXY", reason: "host" },
      { name: "env.NODE_OPTIONS", reason: "loader" },
      { name: "env.LD_PRELOAD", reason: "loader" },
      { name: "env.ANTHROPIC_API_KEY", reason: "credentials" },
      { name: "env.IS_SANDBOX", reason: "permissions" },
    ]);
  });

  it("refuses a variable it does not know, whether or not Claude Code reads it: commands inherit it", () => {
    expect(
      readClientEnv({ MY_PROJECT_FLAG: "1", CLAUDE_CODE_DISABLE_REDIRECT_CHECK: "1" }),
    ).toEqual({
      env: {},
      ignored: [
        { name: "env.MY_PROJECT_FLAG", reason: "unvetted" },
        { name: "env.CLAUDE_CODE_DISABLE_REDIRECT_CHECK", reason: "unvetted" },
      ],
    });
  });

  it("a name that is no variable's, or a value holding NUL, is invalid, and the name is shown only in a variable's characters", () => {
    const { env, ignored } = readClientEnv({
      "BAD\u001b[2J NAME": "1",
      "1ST": "1",
      MCP_TIMEOUT: "1\u00002",
    });
    expect(env).toEqual({});
    expect(ignored).toEqual([
      { name: "env.BAD??2J?NAME", reason: "invalid" },
      { name: "env.1ST", reason: "invalid" },
      { name: "env.MCP_TIMEOUT", reason: "invalid" },
    ]);
  });

  it("is applied through the options: the allowed part reaches them, the refused are told", () => {
    const { options, ignored } = readClientOptions({
      env: { MCP_TIMEOUT: "5000", CLAUDE_CODE_SHELL_PREFIX: "/tmp/wrap.sh" },
    });
    expect(options.env).toEqual({ MCP_TIMEOUT: "5000" });
    expect(ignored).toEqual([{ name: "env.CLAUDE_CODE_SHELL_PREFIX", reason: "shell" }]);
  });
});

describe("the other options are allowlists down to their keys", () => {
  it("a subagent with a key the SDK does not define (hooks, settings) is not valid", () => {
    const { options, ignored } = readClientOptions({
      agents: {
        helper: { description: "Helps", prompt: "Help.", hooks: { PreToolUse: [] } },
      },
    });
    expect(options.agents).toBeUndefined();
    expect(ignored).toEqual([{ name: "agents", reason: "invalid" }]);
  });

  it("a subagent keeps every field the SDK defines but its permission mode", () => {
    const { options } = readClientOptions({
      agents: {
        helper: {
          description: "Helps",
          prompt: "Help.",
          tools: ["Read"],
          model: "haiku",
          maxTurns: 3,
          memory: "project",
          effort: "low",
          permissionMode: "bypassPermissions",
        },
      },
    });
    expect(options.agents).toEqual({
      helper: {
        description: "Helps",
        prompt: "Help.",
        tools: ["Read"],
        model: "haiku",
        maxTurns: 3,
        memory: "project",
        effort: "low",
      },
    });
  });

  it("toolConfig takes only what the SDK defines", () => {
    expect(
      readClientOptions({ toolConfig: { askUserQuestion: { previewFormat: "html" } } }).options,
    ).toEqual({ toolConfig: { askUserQuestion: { previewFormat: "html" } } });
    expect(readClientOptions({ toolConfig: { bash: { allow: true } } }).ignored).toEqual([
      { name: "toolConfig", reason: "invalid" },
    ]);
  });
});
