// End-to-end: Bash as a terminal for clients that declare `_meta.terminal_output` (Zed, the
// ACP registry) or `terminal_output_delta`: the tool call opens a terminal, the output and
// the exit code arrive in the terminal fields, and a background command's output streams
// as it grows. The built agent, the real Claude Code binary, the scripted Anthropic API.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  lastToolResults,
  lastUserText,
  type RecordedRequest,
} from "../../../scripted-api/index.js";
import { REGISTRY_VALIDATOR, ZED } from "../../support/client-handshakes.js";
import { poll, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { contentTexts, toolCallEvents, toolCallState } from "../../support/e2e-turns/index.js";
import {
  bashTurn as bash,
  metaOf,
  terminalExitOf as exitOf,
  terminalOutputs as outputs,
} from "../../support/e2e-turns/terminal.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const ALLOW = { answer: "select", optionId: "allow-once" } as const;

describe("Bash as a terminal (_meta.terminal_output)", () => {
  it("under the registry's handshake a command opens a terminal, its output arrives as terminal_output, and its end as terminal_exit with exit code 0", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      clientCapabilities: REGISTRY_VALIDATOR.clientCapabilities,
      scenario: [
        bash("toolu_ok", "echo hello-terminal"),
        { content: [{ type: "text", text: "Done." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Say hello.")).toMatchObject({ stopReason: "end_turn" });

    const events = toolCallEvents(e2e, sessionId, "toolu_ok");
    const [announced] = events;
    expect(announced).toMatchObject({
      sessionUpdate: "tool_call",
      content: [{ type: "terminal", terminalId: "toolu_ok" }],
      _meta: { terminal_info: { terminal_id: "toolu_ok" } },
    });
    expect(outputs(e2e, sessionId, "toolu_ok")).toEqual(["hello-terminal\n"]);
    // The output comes first, then the final update with the exit.
    const outputAt = events.findIndex((e) => metaOf(e).terminal_output);
    const exitAt = events.findIndex((e) => metaOf(e).terminal_exit);
    expect(outputAt).toBeGreaterThan(0);
    expect(exitAt).toBeGreaterThan(outputAt);
    expect(events[exitAt]).toMatchObject({
      status: "completed",
      _meta: { terminal_exit: { terminal_id: "toolu_ok", exit_code: 0, signal: null } },
    });
    const final = toolCallState(e2e, sessionId, "toolu_ok");
    expect(final.title).toBe("echo hello-terminal");
    expect(final.content).toEqual([{ type: "terminal", terminalId: "toolu_ok" }]);
    expect(contentTexts(final.content)).toEqual([]);
  });

  it("a failing command's non-zero exit code arrives in terminal_exit, its output without the exit code line", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      clientCapabilities: ZED.clientCapabilities,
      scenario: [
        bash("toolu_fail", "echo partial-output; exit 3"),
        { content: [{ type: "text", text: "It failed." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Fail.");

    expect(outputs(e2e, sessionId, "toolu_fail")).toEqual(["partial-output\n"]);
    expect(toolCallState(e2e, sessionId, "toolu_fail").status).toBe("failed");
    expect(exitOf(e2e, sessionId, "toolu_fail")).toEqual({
      terminal_id: "toolu_fail",
      exit_code: 3,
      signal: null,
    });
  });

  it("a command the user rejected did not run: its terminal shows no output (not Claude Code's note to the model) and ends with no exit code", async () => {
    const e2e = await startE2E({
      permission: { answer: "select", optionId: "reject" },
      clientCapabilities: ZED.clientCapabilities,
      scenario: [
        bash("toolu_rejected", "echo should-not-run > ran.txt"),
        { content: [{ type: "text", text: "Not run." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Try it.");

    expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);
    expect(outputs(e2e, sessionId, "toolu_rejected")).toEqual([]);
    expect(exitOf(e2e, sessionId, "toolu_rejected")).toEqual({
      terminal_id: "toolu_rejected",
      exit_code: null,
      signal: null,
    });
    expect(toolCallState(e2e, sessionId, "toolu_rejected").status).toBe("failed");
  });

  it("a client that declares terminal_output_delta gets the output under that key", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      clientCapabilities: { terminal: true, _meta: { terminal_output_delta: true } },
      scenario: [
        bash("toolu_delta", "echo in-deltas"),
        { content: [{ type: "text", text: "ok" }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Run it.");

    expect(outputs(e2e, sessionId, "toolu_delta", "terminal_output_delta")).toEqual([
      "in-deltas\n",
    ]);
    expect(outputs(e2e, sessionId, "toolu_delta")).toEqual([]);
    expect(exitOf(e2e, sessionId, "toolu_delta")).toMatchObject({ exit_code: 0 });
  });

  it("a background command keeps its terminal open and its output arrives in pieces as it grows, until its task ends", async () => {
    // Only the prompt itself starts the command; its result and the task's end are noted.
    const route = (request: RecordedRequest) => {
      if (
        !lastUserText(request).includes("Run it in the background.") ||
        lastToolResults(request).length
      ) {
        return { content: [{ type: "text" as const, text: "Noted." }] };
      }
      return bash("toolu_bg", "echo first-piece; sleep 1; echo second-piece", {
        run_in_background: true,
      });
    };
    const e2e = await startE2E({
      permission: ALLOW,
      clientCapabilities: ZED.clientCapabilities,
      scenario: Array.from({ length: 6 }, () => route),
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run it in the background.")).toMatchObject({
      stopReason: "end_turn",
    });
    // The call itself completed (Claude went on); the terminal is still open.
    expect(toolCallState(e2e, sessionId, "toolu_bg")).toMatchObject({
      status: "completed",
      content: [{ type: "terminal", terminalId: "toolu_bg" }],
    });

    const exit = await poll(() => Promise.resolve(exitOf(e2e, sessionId, "toolu_bg")), 20_000);
    expect(exit).toEqual({ terminal_id: "toolu_bg", exit_code: 0, signal: null });
    const pieces = outputs(e2e, sessionId, "toolu_bg");
    expect(pieces.join("")).toBe("first-piece\nsecond-piece\n");
    // The first line arrived before the second was printed.
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]).toBe("first-piece\n");
    // The exit is the last word on the terminal.
    const last = toolCallEvents(e2e, sessionId, "toolu_bg").at(-1) as ToolCallUpdate;
    expect(metaOf(last).terminal_exit).toBeDefined();
  });

  it("a foreground command that runs a while streams its output while it runs, and its result adds only its exit", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      clientCapabilities: ZED.clientCapabilities,
      scenario: [
        bash("toolu_live", "for i in 1 2 3 4 5; do echo line-$i; sleep 1; done"),
        { content: [{ type: "text", text: "Counted." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Count slowly.")).toMatchObject({ stopReason: "end_turn" });

    const pieces = outputs(e2e, sessionId, "toolu_live");
    // Every line once: the file's pieces, nothing again from the result.
    expect(pieces.join("")).toBe("line-1\nline-2\nline-3\nline-4\nline-5\n");
    // Claude Code reports the command as a task after a few seconds: from then on the
    // output arrives as it is printed, before the command ends.
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]).not.toContain("line-5");
    const events = toolCallEvents(e2e, sessionId, "toolu_live");
    const exitAt = events.findIndex((e) => metaOf(e).terminal_exit);
    expect(exitAt).toBe(events.length - 1);
    expect(events[exitAt]).toMatchObject({
      status: "completed",
      _meta: { terminal_exit: { terminal_id: "toolu_live", exit_code: 0, signal: null } },
    });
  });

  it("a client without the signal sees today's rendering: a console block, no terminal fields", async () => {
    const e2e = await startE2E({
      permission: ALLOW,
      clientCapabilities: { terminal: true, fs: { readTextFile: true, writeTextFile: true } },
      scenario: [
        bash("toolu_plain", "echo plain-output"),
        { content: [{ type: "text", text: "ok" }] },
      ],
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Run it.");

    const events = toolCallEvents(e2e, sessionId, "toolu_plain");
    expect(events.some((e) => Object.keys(metaOf(e)).some((k) => k.startsWith("terminal")))).toBe(
      false,
    );
    const state = toolCallState(e2e, sessionId, "toolu_plain");
    expect(state.content?.some((c) => c.type === "terminal")).toBe(false);
    expect(contentTexts(state.content)).toEqual(["```console\nplain-output\n```"]);
  });
});
