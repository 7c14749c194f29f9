// auth/status against the installed Claude Code: the agent reads credentials as the CLI does
// (claude/credentials.ts), so for each setup the credential it calls in effect is the one
// `claude auth status` reports; and through the real agent, a login written as Claude Code
// writes it and Claude Code's own logout are each told by one auth/status_update.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { credentialsOf, readCredentialSources } from "../../../claude/credentials.js";
import { claudeBinary } from "../../support/real-claude.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);

const run = promisify(execFile);

/** Claude Code's login files, as `claude auth login` leaves them. */
function writeLogin(configDir: string): void {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, ".credentials.json"),
    JSON.stringify({
      claudeAiOauth: {
        accessToken: "sk-ant-oat01-e2e",
        refreshToken: "sk-ant-ort01-e2e",
        expiresAt: Date.now() + 3_600_000,
        scopes: ["user:inference", "user:profile"],
        subscriptionType: "max",
      },
    }),
  );
  writeFileSync(
    join(configDir, ".claude.json"),
    JSON.stringify({ oauthAccount: { emailAddress: "e2e@example.com" } }),
  );
}

interface Setup {
  env?: Record<string, string>;
  login?: boolean;
  settings?: Record<string, unknown>;
  consoleKey?: boolean;
}

/** What `claude auth status --json` says is in effect, in claude/credentials.ts's kinds. */
function cliKind(status: {
  loggedIn: boolean;
  authMethod: string;
  apiProvider: string;
  apiKeySource?: string;
}) {
  if (!status.loggedIn) return undefined;
  switch (status.authMethod) {
    case "third_party":
      return status.apiProvider;
    case "oauth_token":
      return "token";
    case "api_key_helper":
      return "api-key-helper";
    case "api_key":
      return status.apiKeySource === "ANTHROPIC_API_KEY" ? "api-key" : "console-key";
    case "claude.ai":
      return "claude-login";
    default:
      return status.authMethod;
  }
}

const SETUPS: Record<string, Setup> = {
  nothing: {},
  "an API key": { env: { ANTHROPIC_API_KEY: "k" } },
  "an auth token over an API key": { env: { ANTHROPIC_AUTH_TOKEN: "t", ANTHROPIC_API_KEY: "k" } },
  "an API key over an OAuth token": {
    env: { ANTHROPIC_API_KEY: "k", CLAUDE_CODE_OAUTH_TOKEN: "t" },
  },
  "an OAuth token over a login": { env: { CLAUDE_CODE_OAUTH_TOKEN: "t" }, login: true },
  "Bedrock over Vertex": { env: { CLAUDE_CODE_USE_BEDROCK: "1", CLAUDE_CODE_USE_VERTEX: "1" } },
  "Foundry over Vertex": { env: { CLAUDE_CODE_USE_FOUNDRY: "yes", CLAUDE_CODE_USE_VERTEX: "1" } },
  "Bedrock turned off": { env: { CLAUDE_CODE_USE_BEDROCK: "0" } },
  "an API key helper over an API key": {
    env: { ANTHROPIC_API_KEY: "k" },
    settings: { apiKeyHelper: "echo key" },
  },
  "a login over a Console key": { login: true, consoleKey: true },
  "a Console key": { consoleKey: true },
  "an API key in the settings' env": { settings: { env: { ANTHROPIC_API_KEY: "k" } } },
};

describe("the credential in effect is the one Claude Code reports", () => {
  const binary = claudeBinary();
  it.skipIf(!binary).each(Object.entries(SETUPS))("%s", async (_name, setup) => {
    const home = mkdtempSync(join(tmpdir(), "acp-auth-cli-"));
    const configDir = join(home, ".claude");
    mkdirSync(configDir);
    if (setup.login) writeLogin(configDir);
    if (setup.consoleKey) {
      writeFileSync(
        join(configDir, ".claude.json"),
        JSON.stringify({ primaryApiKey: "sk-ant-api03-x" }),
      );
    }
    if (setup.settings)
      writeFileSync(join(configDir, "settings.json"), JSON.stringify(setup.settings));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      CLAUDE_CONFIG_DIR: configDir,
      ...setup.env,
    };
    try {
      const ours = credentialsOf(await readCredentialSources(env)).find((c) => c.usable);
      const { stdout } = await run(binary!, ["auth", "status", "--json"], { env }).catch(
        (error: { stdout: string }) => error, // exit 1 when not logged in, JSON still printed
      );
      const theirs = cliKind(JSON.parse(stdout) as Parameters<typeof cliKind>[0]);
      const kind =
        ours?.kind === "auth-token" || ours?.kind === "oauth-token" ? "token" : ours?.kind;
      expect(kind).toBe(theirs);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("auth/status_update through the agent, with Claude Code's own logout", () => {
  it("a login written while the agent runs is told once as authenticated; logout (Claude Code's) is told once as unauthenticated", async () => {
    const e2e = await startE2E({ env: { ANTHROPIC_API_KEY: undefined } });
    const status = await e2e.rawRequest("auth/status", {});
    expect(status.result).toEqual({ state: "unauthenticated", accounts: [] });
    const updates = () => e2e.transcript.calls("auth/status_update", "from-agent");
    writeLogin(e2e.configDir);
    await e2e.transcript.waitFor((entry) => entry.message?.method === "auth/status_update", {
      what: "the update for the login",
    });
    expect(updates().map((entry) => entry.message?.params)).toEqual([
      {
        state: "authenticated",
        accounts: [{ label: "Claude Max", active: true, email: "e2e@example.com" }],
      },
    ]);
    await e2e.client.request(methods.agent.logout, {});
    // Told before logout's answer.
    expect(updates().map((entry) => entry.message?.params)).toEqual([
      expect.objectContaining({ state: "authenticated" }),
      { state: "unauthenticated", accounts: [] },
    ]);
    const logout = e2e.transcript.calls("logout", "to-agent")[0]!;
    expect(updates()[1]!.seq).toBeLessThan(e2e.transcript.responseTo(logout)!.seq);
  });
});
