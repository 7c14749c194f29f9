import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { LOGIN_ARGUMENT, LOGIN_METHOD_ID } from "../acp/auth.js";
import { AGENT_ENTRY, startE2E, stopAllE2E } from "./support/e2e/index.js";

afterEach(stopAllE2E);

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
  it("a client with terminal auth is offered the login method; authenticate asks Claude Code and logout runs its logout", async () => {
    const stand = standIn(true);
    const e2e = await startE2E({
      env: { CLAUDE_CODE_EXECUTABLE: stand.executable, ANTHROPIC_API_KEY: undefined },
      initialize: false,
    });
    const init = await e2e.initialize({ auth: { terminal: true } });
    expect(init.authMethods).toEqual([
      expect.objectContaining({ type: "terminal", id: LOGIN_METHOD_ID, args: [LOGIN_ARGUMENT] }),
    ]);
    await expect(
      e2e.client.request(methods.agent.authenticate, { methodId: LOGIN_METHOD_ID }),
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
      .request(methods.agent.authenticate, { methodId: LOGIN_METHOD_ID })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32000);
  });

  it("--login runs Claude Code's own login in the terminal and exits with its code", async () => {
    const stand = standIn(false);
    const child = spawn(process.execPath, [AGENT_ENTRY, LOGIN_ARGUMENT], {
      env: { PATH: process.env.PATH, CLAUDE_CODE_EXECUTABLE: stand.executable },
      stdio: "ignore",
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(7);
    expect(stand.calls()).toContain("auth login");
  });
});
