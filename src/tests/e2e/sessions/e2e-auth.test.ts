import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError, type AuthMethod } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { LOGIN_ARGUMENT } from "../../../acp/auth.js";
import { AGENT_ENTRY, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  REGISTRY_VALIDATOR,
  REGISTRY_VALIDATOR_ENV,
  ZED,
} from "../../support/client-handshakes.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

/** A stand-in for the claude binary: logs its arguments; `auth status` answers as told. */
function standIn(loggedIn: boolean): { executable: string; calls: () => string } {
  const dir = mkdtempSync(join(tmpdir(), "acp-auth-standin-"));
  const log = join(dir, "calls.log");
  const executable = join(dir, "claude");
  writeFileSync(
    executable,
    [
      "#!/bin/sh",
      `echo "$@" >> "${log}"`,
      `if [ "$1 $2" = "auth status" ]; then echo '{"loggedIn": ${loggedIn}}'; fi`,
      `if [ "$1 $2" = "auth login" ]; then exit 7; fi`,
      "exit 0",
      "",
    ].join("\n"),
  );
  chmodSync(executable, 0o755);
  writeFileSync(log, "");
  return { executable, calls: () => readFileSync(log, "utf8") };
}

describe("accounts, end to end with a stand-in Claude Code (CLAUDE_CODE_EXECUTABLE)", () => {
  it("a client with terminal auth is offered the login methods; authenticate asks Claude Code and logout runs its logout", async () => {
    const stand = standIn(true);
    const e2e = await startE2E({
      env: { CLAUDE_CODE_EXECUTABLE: stand.executable, ANTHROPIC_API_KEY: undefined },
      initialize: false,
    });
    const init = await e2e.initialize({ auth: { terminal: true } });
    expect(init.authMethods).toEqual([
      expect.objectContaining({ type: "terminal", id: "claude-login" }),
      expect.objectContaining({ type: "terminal", id: "console-login" }),
    ]);
    await expect(
      e2e.client.request(methods.agent.authenticate, { methodId: "claude-login" }),
    ).resolves.toEqual({});
    await expect(e2e.client.request(methods.agent.logout, {})).resolves.toEqual({});
    expect(stand.calls()).toContain("auth status --json");
    expect(stand.calls()).toContain("auth logout");
  });

  it("authenticate before logging in is answered auth required", async () => {
    const stand = standIn(false);
    const e2e = await startE2E({
      env: { CLAUDE_CODE_EXECUTABLE: stand.executable, ANTHROPIC_API_KEY: undefined },
      clientCapabilities: { auth: { terminal: true } },
    });
    const error = await e2e.client
      .request(methods.agent.authenticate, { methodId: "console-login" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32000);
  });

  it.each([
    [[LOGIN_ARGUMENT], "auth login --claudeai"],
    [[LOGIN_ARGUMENT, "--claudeai"], "auth login --claudeai"],
    [[LOGIN_ARGUMENT, "--console"], "auth login --console"],
  ])(
    "%j runs Claude Code's own login (%s) in the terminal and exits with its code",
    async (args, login) => {
      const stand = standIn(false);
      const code = await runAgent(args, stand.executable);
      expect(code).toBe(7);
      expect(stand.calls()).toBe(`${login}\n`);
    },
  );

  it("--login with anything but --claudeai or --console is a usage error, and runs nothing", async () => {
    const stand = standIn(false);
    expect(await runAgent([LOGIN_ARGUMENT, "--sso"], stand.executable)).toBe(2);
    expect(stand.calls()).toBe("");
  });

  it('the command a _meta["terminal-auth"] client runs is this agent\'s login', async () => {
    const stand = standIn(false);
    const e2e = await startE2E({
      env: { CLAUDE_CODE_EXECUTABLE: stand.executable, ANTHROPIC_API_KEY: undefined },
      initialize: false,
    });
    const init = await e2e.initialize({ _meta: { "terminal-auth": true } });
    const consoleLogin = init.authMethods?.find((m) => m.id === "console-login");
    const run = terminalAuth.parse(consoleLogin?._meta?.["terminal-auth"]);
    // As a client runs it: the command and its args, nothing else.
    const child = spawn(run.command, run.args, {
      env: { PATH: process.env.PATH, CLAUDE_CODE_EXECUTABLE: stand.executable },
      stdio: "ignore",
    });
    expect(await new Promise<number | null>((resolve) => child.on("exit", resolve))).toBe(7);
    expect(stand.calls()).toBe("auth login --console\n");
  });
});

/** How the registry validator reads a method: no type is `agent`; terminal-auth makes it terminal. */
function validatorKind(method: AuthMethod): string {
  if (method._meta?.["terminal-auth"]) return "terminal";
  return "type" in method ? method.type : "agent";
}

describe("accounts, end to end with the real Claude Code and no credentials", () => {
  it("the ACP registry validator's handshake is offered terminal logins, and stdout carries only JSON-RPC", async () => {
    const e2e = await startE2E({ env: REGISTRY_VALIDATOR_ENV, initialize: false });

    const init = await e2e.client.request(methods.agent.initialize, REGISTRY_VALIDATOR);
    await e2e.newSession();

    expect(init.authMethods?.map(validatorKind)).toEqual(["terminal", "terminal"]);
    const fromAgent = e2e.transcript.entries.filter((e) => e.direction === "from-agent");
    expect(fromAgent.length).toBeGreaterThan(0);
    expect(fromAgent.filter((e) => e.message?.jsonrpc !== "2.0").map((e) => e.raw)).toEqual([]);
  });

  it("a prompt without an API key or a login is answered auth required (-32000), saying what to do here", async () => {
    const e2e = await startE2E({
      env: REGISTRY_VALIDATOR_ENV,
      clientCapabilities: REGISTRY_VALIDATOR.clientCapabilities,
    });
    const { sessionId } = await e2e.newSession();

    const error = await e2e.prompt(sessionId, "Hello").catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32000);
    const message = (error as RequestError).message;
    expect(message).toContain("ANTHROPIC_API_KEY");
    expect(message).toContain("claude-agent-acp --login");
    expect(message).not.toMatch(/(^|[^-])\/login/);
    expect(e2e.updates.of(sessionId, "agent_message_chunk")).toEqual([]);
  });

  it("authenticate after a login that did not happen is answered auth required, and logout runs Claude Code's logout", async () => {
    const e2e = await startE2E({
      env: REGISTRY_VALIDATOR_ENV,
      clientCapabilities: ZED.clientCapabilities,
    });

    const error = await e2e.client
      .request(methods.agent.authenticate, { methodId: "claude-login" })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32000);
    expect((error as RequestError).message).toContain("claude-agent-acp --login");
    await expect(e2e.client.request(methods.agent.logout, {})).resolves.toEqual({});
  });

  it("Zed's current handshake is offered both logins as terminal methods that also name their command", async () => {
    const e2e = await startE2E({ env: REGISTRY_VALIDATOR_ENV, initialize: false });

    const init = await e2e.client.request(methods.agent.initialize, ZED);

    expect(init.authMethods).toEqual([
      expect.objectContaining({
        type: "terminal",
        id: "claude-login",
        args: [LOGIN_ARGUMENT, "--claudeai"],
        _meta: {
          "terminal-auth": {
            command: process.execPath,
            args: [AGENT_ENTRY, LOGIN_ARGUMENT, "--claudeai"],
            label: "Claude login",
          },
        },
      }),
      expect.objectContaining({
        type: "terminal",
        id: "console-login",
        args: [LOGIN_ARGUMENT, "--console"],
      }),
    ]);
  });
});

const terminalAuth = z.object({
  command: z.string(),
  args: z.array(z.string()),
  label: z.string(),
});

/** Runs the built agent with `args`, as a user in a terminal would; resolves with its exit code. */
async function runAgent(args: string[], executable: string): Promise<number | null> {
  const child = spawn(process.execPath, [AGENT_ENTRY, ...args], {
    env: { PATH: process.env.PATH, CLAUDE_CODE_EXECUTABLE: executable },
    stdio: "ignore",
  });
  return new Promise((resolve) => child.on("exit", resolve));
}
