import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { authRequiredMessage, LOGINS } from "../../acp/auth.js";
import { authenticationFailure, fakeClaude } from "../support/fake-claude.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";
import { REGISTRY_VALIDATOR, ZED } from "../support/client-handshakes.js";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

/** A stand-in for the claude binary: logs its arguments, answers `auth status`. */
function standIn(loggedIn: boolean): { executable: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "acp-claude-standin-"));
  const log = join(dir, "calls.log");
  const executable = join(dir, "claude");
  writeFileSync(
    executable,
    `#!/bin/sh\necho "$@" >> "${log}"\nif [ "$1 $2" = "auth status" ]; then echo '{"loggedIn": ${loggedIn}, "authMethod": "none"}'; fi\nexit 0\n`,
  );
  chmodSync(executable, 0o755);
  return { executable, log };
}

async function connect(options: { terminal?: boolean; loggedIn?: boolean } = {}) {
  const claude = fakeClaude();
  const stand = standIn(options.loggedIn ?? false);
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    executable: stand.executable,
    env: isolatedEnv(),
    clientCapabilities: options.terminal ? { auth: { terminal: true } } : {},
  });
  cleanup.push(() => harness.close());
  return { ...harness, claude, stand };
}

function rpcCode(error: unknown): number {
  expect(error).toBeInstanceOf(RequestError);
  return (error as RequestError).code;
}

/** An auth_required message names what works with this agent, and never Claude Code's /login. */
function expectActionable(message: string): void {
  expect(message).toContain("ANTHROPIC_API_KEY");
  expect(message).toContain("claude-agent-acp --login");
  expect(message).not.toMatch(/(^|[^-])\/login/);
}

describe("accounts", () => {
  it("credentials from the environment need no method: no auth methods for a plain client", async () => {
    const { agent } = await connect();
    const response = await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(response.authMethods).toEqual([]);
    expect(response.agentCapabilities?.auth).toEqual({ logout: {}, status: {} });
  });

  it("a client with auth.terminal is offered Claude Code's two logins, Claude account and Anthropic Console, as terminal methods relaunching this agent with --login", async () => {
    const { agent } = await connect({ terminal: true });
    const response = await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { auth: { terminal: true } },
    });
    expect(response.authMethods).toEqual([
      {
        type: "terminal",
        id: "claude-login",
        name: "Claude account",
        description: expect.stringContaining("claude.ai") as string,
        args: ["--login", "--claudeai"],
      },
      {
        type: "terminal",
        id: "console-login",
        name: "Anthropic Console",
        description: expect.stringContaining("Console") as string,
        args: ["--login", "--console"],
      },
    ]);
  });

  it('a client that declares only _meta["terminal-auth"] (the registry validator, older Zed) gets the same logins, each naming the command that runs it, and no terminal type', async () => {
    const { agent } = await connect();
    const response = await agent.request(methods.agent.initialize, REGISTRY_VALIDATOR);
    const self = [process.argv[1]!];
    expect(response.authMethods).toEqual([
      expect.objectContaining({
        id: "claude-login",
        _meta: {
          "terminal-auth": {
            command: process.execPath,
            args: [...self, "--login", "--claudeai"],
            label: "Claude login",
          },
        },
      }),
      expect.objectContaining({
        id: "console-login",
        _meta: {
          "terminal-auth": {
            command: process.execPath,
            args: [...self, "--login", "--console"],
            label: "Anthropic Console login",
          },
        },
      }),
    ]);
    expect(response.authMethods?.every((m) => !("type" in m) && !("args" in m))).toBe(true);
  });

  it("Zed's current handshake (auth.terminal and _meta terminal-auth) gets terminal methods that also carry their command", async () => {
    const { agent } = await connect({ terminal: true });
    const response = await agent.request(methods.agent.initialize, ZED);
    expect(response.authMethods).toMatchObject(
      LOGINS.map((login) => ({
        type: "terminal",
        id: login.id,
        args: ["--login", `--${login.account}`],
        _meta: { "terminal-auth": { command: process.execPath } },
      })),
    );
  });

  it.each(LOGINS.map((login) => login.id))(
    "authenticate with %s succeeds once Claude Code reports it is logged in",
    async (methodId) => {
      const { agent, stand } = await connect({ terminal: true, loggedIn: true });
      await expect(agent.request(methods.agent.authenticate, { methodId })).resolves.toEqual({});
      expect(readFileSync(stand.log, "utf8")).toContain("auth status --json");
    },
  );

  it("authenticate before logging in gets auth required, saying what to do", async () => {
    const { agent } = await connect({ terminal: true, loggedIn: false });
    const error = await agent
      .request(methods.agent.authenticate, { methodId: "console-login" })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32000);
    expectActionable((error as RequestError).message);
  });

  it("an unknown auth method gets invalid params", async () => {
    const { agent } = await connect({ terminal: true });
    const error = await agent
      .request(methods.agent.authenticate, { methodId: "nope" })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32602);
  });

  it("logout runs Claude Code's own logout", async () => {
    const { agent, stand } = await connect();
    await expect(agent.request(methods.agent.logout, {})).resolves.toEqual({});
    expect(readFileSync(stand.log, "utf8")).toContain("auth logout");
  });

  it("a prompt without credentials ends with auth required saying what to do here (not /login), and Claude's synthetic error text is not shown as its words", async () => {
    const { agent, claude, updates } = await connect();
    const cwd = mkdtempSync(join(tmpdir(), "acp-auth-"));
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const query = claude.started[0]!;
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    await query.waitForSent(1);
    query.emit(...authenticationFailure("Not logged in · Please run /login"));
    const error = await prompt;
    expect(rpcCode(error)).toBe(-32000);
    expect((error as RequestError).message).toContain("Not logged in");
    expectActionable((error as RequestError).message);
    expect(updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk")).toEqual([]);
  });

  it.each([
    ["Not logged in · Please run /login", "Not logged in."],
    ["Invalid API key · Please run /login", "Invalid API key."],
    ["Your session has expired. Please run /login to sign in again.", "Your session has expired."],
    [
      "OAuth refresh token is no longer valid; run /login to re-authenticate",
      "OAuth refresh token is no longer valid.",
    ],
    ["login required — run /login", "login required."],
    ["", "Claude Code has no usable credentials."],
  ])("auth required keeps Claude Code's reason %j without its /login advice", (reason, start) => {
    const message = authRequiredMessage(reason);
    expect(message.startsWith(`${start} `)).toBe(true);
    expectActionable(message);
  });
});
