import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { LOGIN_ARGUMENT, LOGIN_METHOD_ID } from "../acp/auth.js";
import { fakeClaude, result, sdkMessage } from "./support/fake-claude.js";
import { connectInProcess, isolatedEnv } from "./support/in-process.js";

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

describe("accounts", () => {
  it("credentials from the environment need no method: no auth methods for a plain client", async () => {
    const { agent } = await connect();
    const response = await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(response.authMethods).toEqual([]);
    expect(response.agentCapabilities?.auth).toEqual({ logout: {} });
  });

  it("a client with auth.terminal is offered a terminal login that relaunches this agent with --login", async () => {
    const { agent } = await connect({ terminal: true });
    const response = await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { auth: { terminal: true } },
    });
    expect(response.authMethods).toEqual([
      expect.objectContaining({ type: "terminal", id: LOGIN_METHOD_ID, args: [LOGIN_ARGUMENT] }),
    ]);
  });

  it("authenticate succeeds once Claude Code reports it is logged in", async () => {
    const { agent, stand } = await connect({ terminal: true, loggedIn: true });
    await expect(
      agent.request(methods.agent.authenticate, { methodId: LOGIN_METHOD_ID }),
    ).resolves.toEqual({});
    expect(readFileSync(stand.log, "utf8")).toContain("auth status --json");
  });

  it("authenticate before logging in gets auth required", async () => {
    const { agent } = await connect({ terminal: true, loggedIn: false });
    const error = await agent
      .request(methods.agent.authenticate, { methodId: LOGIN_METHOD_ID })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32000);
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

  it("a prompt without credentials ends with auth required, and Claude's synthetic error text is not shown as its words", async () => {
    const { agent, claude, updates } = await connect();
    const cwd = mkdtempSync(join(tmpdir(), "acp-auth-"));
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const query = claude.started[0]!;
    const prompt = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })
      .catch((e: unknown) => e);
    await query.waitForSent(1);
    query.emit(
      sdkMessage({
        type: "assistant",
        message: {
          id: "x",
          model: "<synthetic>",
          content: [{ type: "text", text: "Not logged in · Please run /login" }],
        },
        parent_tool_use_id: null,
        error: "authentication_failed",
      }),
      result({
        isError: true,
        text: "Not logged in · Please run /login",
        stopReason: "stop_sequence",
      }),
    );
    const error = await prompt;
    expect(rpcCode(error)).toBe(-32000);
    expect((error as RequestError).message).toContain("Not logged in");
    expect(updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk")).toEqual([]);
  });
});
