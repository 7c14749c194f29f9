// The terminal client shows a command's terminal (`_meta.terminal_output`, `terminal_exit`)
// live under its tool line: against a stub ACP agent in the same process.
/* eslint-disable no-control-regex -- the client's escape sequences are what is checked */
import { agent, methods, type ClientCapabilities } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { TerminalClient } from "../../client/client.js";
import { createStyle } from "../../client/style.js";

type Send = (update: Record<string, unknown>) => Promise<void>;

const running: Array<() => void> = [];
afterEach(() => running.splice(0).forEach((close) => close()));

/** Runs one prompt whose turn is `script`; what the client printed, and what it declared. */
async function run(
  script: (send: Send, seen: () => string) => Promise<void>,
  live: boolean,
): Promise<{ out: string; capabilities: ClientCapabilities | undefined }> {
  let out = "";
  let capabilities: ClientCapabilities | undefined;
  const stub = agent({ name: "stub" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities ?? undefined;
      return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
    })
    .onRequest(methods.agent.session.new, () => ({ sessionId: "s1" }))
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const send: Send = (update) =>
        client.notify(methods.client.session.update, {
          sessionId: params.sessionId,
          update,
        } as never);
      await script(send, () => out);
      return { stopReason: "end_turn" };
    });
  const terminal = new TerminalClient(
    {
      output: { write: (text) => void (out += text), columns: () => 100, rows: () => 40 },
      style: createStyle(false),
      spinner: live,
    },
    { cwd: "/home/user/project", prompts: ["Go."], answer: "allow-once" },
  );
  const connection = terminal.app().connect(stub);
  running.push(() => connection.close());
  expect(await terminal.run(connection.agent)).toBe(0);
  return { out, capabilities };
}

/** The output the client printed, without cursor movements and erased rows. */
function visible(out: string): string {
  return out
    .replace(/\u001b\[2K[^\r]*/g, "") // the spinner's status rows
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, "")
    .replace(/\r/g, "");
}

const announce = (send: Send) =>
  send({
    sessionUpdate: "tool_call",
    toolCallId: "b1",
    title: "make test",
    kind: "execute",
    status: "in_progress",
    rawInput: { command: "make test" },
    content: [{ type: "terminal", terminalId: "b1" }],
    _meta: { terminal_info: { terminal_id: "b1" } },
  });
const output = (send: Send, data: string) =>
  send({
    sessionUpdate: "tool_call_update",
    toolCallId: "b1",
    _meta: { terminal_output: { terminal_id: "b1", data } },
  });
const exit = (send: Send, code: number, status: "completed" | "failed" = "failed") =>
  send({
    sessionUpdate: "tool_call_update",
    toolCallId: "b1",
    status,
    content: [{ type: "terminal", terminalId: "b1" }],
    _meta: { terminal_exit: { terminal_id: "b1", exit_code: code, signal: null } },
  });

async function until(seen: () => string, text: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!visible(seen()).includes(text)) {
    if (Date.now() > deadline) throw new Error(`never shown: ${text}\n${visible(seen())}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("a command's terminal in the client", () => {
  it("declares _meta.terminal_output in initialize (and prompt suggestions, which it shows)", async () => {
    const { capabilities } = await run(() => Promise.resolve(), false);
    expect(capabilities?._meta).toEqual({
      terminal_output: true,
      claudeCode: { promptSuggestions: true },
    });
  });

  it("shows output live under the tool line while the command runs, then its end with the exit code", async () => {
    const { out } = await run(async (send, seen) => {
      await announce(send);
      await output(send, "compiling\n");
      await until(seen, "│ compiling");
      await output(send, "3 tests failed\n");
      await until(seen, "│ 3 tests failed");
      await exit(send, 2);
    }, false);
    expect(visible(out)).toContain(
      [
        "● make test",
        "  └ ◐ running",
        "    │ compiling",
        "    │ 3 tests failed",
        "  └ ✗ failed · exit code 2",
      ].join("\n"),
    );
    expect(out).not.toContain("[terminal");
  });

  it("on a terminal, a running command shows only its last lines, redrawn in place; at the end its last lines", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const { out } = await run(async (send, seen) => {
      await announce(send);
      for (const line of lines) {
        await output(send, `${line}\n`);
        await until(seen, `│ ${line}`);
      }
      await exit(send, 0, "completed");
    }, true);
    // While running: the last five lines, each redraw erasing the one before.
    expect(out).toContain("│ … 15 earlier lines");
    expect(out).toMatch(/\u001b\[\d+A\u001b\[J/);
    // The end: the last twelve lines after a count of the earlier ones, then the status.
    const end = visible(out).slice(visible(out).lastIndexOf("│ … 8 earlier lines"));
    expect(end).toContain(
      [
        "│ … 8 earlier lines",
        ...lines.slice(8).map((line) => `    │ ${line}`),
        "  └ ✓ completed · exit code 0",
      ].join("\n"),
    );
  });

  it("a background command's terminal ends after its tool call completed, on a line of its own", async () => {
    const { out } = await run(async (send) => {
      await announce(send);
      await send({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "completed" });
      await output(send, "still going\n");
      await send({
        sessionUpdate: "tool_call_update",
        toolCallId: "b1",
        _meta: { terminal_exit: { terminal_id: "b1", exit_code: 0, signal: null } },
      });
    }, false);
    expect(visible(out)).toContain("  └ ✓ completed\n    │ still going\n  └ ✓ exit code 0");
  });

  it("output is shown as text: escape sequences the agent sent do not reach the terminal", async () => {
    const { out } = await run(async (send) => {
      await announce(send);
      await output(send, "\u001b]0;pwned\u0007safe\n");
      await exit(send, 0, "completed");
    }, false);
    expect(out).toContain("safe");
    expect(out).not.toContain("\u001b]0");
    expect(out).not.toContain("\u0007");
  });

  it("keeps a bounded end of the output, also of output that never breaks a line", async () => {
    const chunk = "~".repeat(40 * 1024);
    const { out } = await run(async (send) => {
      await announce(send);
      for (let i = 0; i < 4; i++) await output(send, chunk);
      await output(send, "end");
      await exit(send, 0, "completed");
    }, false);
    const shown = visible(out).replace(/[^~]/g, "").length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(64 * 1024);
    expect(visible(out)).toContain("end\n  └ ✓ completed · exit code 0");
  });
});
