// Every environment variable the installed Claude Code reads is decided for a client's
// session environment (claude/client-options/env.ts), and every one that routes its API
// requests is pinned for a provider (claude/provider-env.ts). The variables are read from the
// binary; the decision for each is kept in a fixture, so an upgrade that brings a variable
// fails here until someone decides it. After deciding, rewrite the fixture with
// `UPDATE_CLAUDE_VARIABLES=1 npx vitest run src/tests/unit/claude/client-env-cli.test.ts`.
import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_VARIABLES, refusalOf } from "../../../claude/client-options/env.js";
import { ENDPOINTS, PROVIDER_SWITCHES, PROXIES } from "../../../claude/provider-env.js";
import {
  claudeCodeVariables,
  type ClaudeCodeVariables,
} from "../../support/claude-cli-variables.js";

const FIXTURE = new URL("../../fixtures/claude-code-variables.txt", import.meta.url);

/** What the agent decides for a variable: allowed, or the reason it is refused. */
const decision = (name: string) => (ALLOWED_VARIABLES.has(name) ? "allowed" : refusalOf(name));

let cli: ClaudeCodeVariables;
beforeAll(async () => {
  cli = await claudeCodeVariables();
}, 120_000);

describe("the environment variables the installed Claude Code reads", () => {
  it("are found: its registry, its direct reads and its own lists of what applies before trust", () => {
    for (const name of [
      "ANTHROPIC_BASE_URL",
      "ANTHROPIC_API_KEY",
      "CLAUDE_CONFIG_DIR",
      "CLAUDE_CODE_SHELL_PREFIX",
      "CLAUDE_CODE_SHELL",
      "HTTP_PROXY",
      "https_proxy",
      "NODE_OPTIONS",
      "IS_SANDBOX",
    ]) {
      expect(cli.read, name).toContain(name);
    }
    expect(cli.appliedBeforeTrust).toContain("ANTHROPIC_MODEL");
    expect(cli.appliedBeforeTrust).toContain("DO_NOT_TRACK");
    expect(cli.read.size).toBeGreaterThan(1000);
  });

  it("each is decided, as the fixture records: an upgrade that brings or drops one fails until it is decided", () => {
    const current = [...cli.read].sort().map((name) => `${name} ${decision(name)}`);
    if (process.env.UPDATE_CLAUDE_VARIABLES) writeFileSync(FIXTURE, `${current.join("\n")}\n`);
    const kept = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean);
    const added = current.filter((line) => !kept.includes(line));
    const dropped = kept.filter((line) => !current.includes(line));
    expect({ added, dropped }).toEqual({ added: [], dropped: [] });
  });

  it("a variable a client may set is one Claude Code reads, and applies from a project's settings before the user trusts the folder", () => {
    for (const name of ALLOWED_VARIABLES) {
      expect(cli.read, name).toContain(name);
      expect(cli.appliedBeforeTrust, name).toContain(name);
    }
  });

  it("the variables the issue names are refused, each for what it changes", () => {
    expect(decision("CLAUDE_CONFIG_DIR")).toBe("settings");
    expect(decision("ANTHROPIC_BASE_URL")).toBe("host");
    expect(decision("ANTHROPIC_BEDROCK_BASE_URL")).toBe("host");
    expect(decision("ANTHROPIC_VERTEX_BASE_URL")).toBe("host");
    expect(decision("HTTP_PROXY")).toBe("host");
    expect(decision("BASH_ENV")).toBe("shell");
    expect(decision("ENV")).toBe("shell");
    expect(decision("CLAUDE_CODE_SHELL_PREFIX")).toBe("shell");
    expect(decision("CLAUDE_CODE_SHELL")).toBe("shell");
    expect(decision("SHELL")).toBe("shell");
    expect(decision("NODE_OPTIONS")).toBe("loader");
    expect(decision("ANTHROPIC_API_KEY")).toBe("credentials");
    expect(decision("IS_SANDBOX")).toBe("permissions");
  });

  it("every one that routes API requests elsewhere (an endpoint, a socket, a provider switch, a proxy) is pinned for a provider", () => {
    const pinned = new Set<string>([...ENDPOINTS, ...PROVIDER_SWITCHES, ...PROXIES]);
    const routing = [...cli.read].filter(
      (name) =>
        /(_BASE_URL|_API_BASE|_UNIX_SOCKET)$|^AWS_ENDPOINT_URL|^(CLAUDE_CODE_)?(https?|all|no)_proxy$/i.test(
          name,
        ) ||
        (/^CLAUDE_CODE_USE_/.test(name) && !NOT_PROVIDERS.has(name)),
    );
    expect(routing.filter((name) => !pinned.has(name))).toEqual([]);
  });
});

/** `CLAUDE_CODE_USE_` switches that choose a tool, not where requests go. */
const NOT_PROVIDERS = new Set([
  "CLAUDE_CODE_USE_POWERSHELL_TOOL",
  "CLAUDE_CODE_USE_NATIVE_FILE_SEARCH",
  "CLAUDE_CODE_USE_COWORK_PLUGINS",
]);
