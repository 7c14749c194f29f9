// End-to-end on the ACP v2 draft with the real Claude Code: what Claude Code does between
// prompts. A background subagent or command ends after the prompt's turn; Claude Code then
// starts a turn of its own with the result, which a v2 client hears as foreground work, and
// can stop with session/cancel.
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { afterEach, describe, expect, it } from "vitest";
import {
  lastUserText,
  toolResults,
  type RecordedRequest,
  type ScriptTurn,
} from "../../../scripted-api/index.js";
import { startV2E2E, stopAllV2E2E, type V2E2E } from "../../support/e2e/v2.js";

afterEach(stopAllV2E2E);

/** The last user message as sent, system reminders and task notifications included. */
function lastUserMessage(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages?.findLast((m) => m.role === "user")?.content ?? "");
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** The main session's updates as words: states with their stop reason, text by content. */
function story(e2e: V2E2E, sessionId: string): string[] {
  return e2e.updates(sessionId).flatMap((u) => {
    if (u.sessionUpdate === "state_update") {
      return [[u.state, "stopReason" in u ? u.stopReason : undefined].filter(Boolean).join(" ")];
    }
    if (u.sessionUpdate === "user_message") return ["user_message"];
    if (u.sessionUpdate === "agent_message_chunk") {
      const { content } = u as v2.ContentChunk;
      return content.type === "text" ? [`text ${(content as v2.TextContent).text}`] : [];
    }
    return [];
  });
}

/** Consecutive text chunks joined, so a message reads as one line. */
function joined(lines: string[]): string[] {
  return lines.reduce<string[]>((out, line) => {
    const last = out.at(-1);
    if (line.startsWith("text ") && last?.startsWith("text "))
      out[out.length - 1] = last + line.slice(5);
    else out.push(line);
    return out;
  }, []);
}

/**
 * A v2 session whose first prompt runs `command` in the background (allowed) and ends;
 * `later` answers the requests after it (Claude Code's own turn, a next prompt) where it returns
 * a turn.
 */
async function backgroundCommand(
  command: string,
  later: (request: RecordedRequest) => ScriptTurn | undefined,
): Promise<{ e2e: V2E2E; sessionId: string }> {
  const route = (request: RecordedRequest): ScriptTurn =>
    later(request) ??
    (toolResults(request).length
      ? text("Started it.")
      : {
          content: [
            {
              type: "tool_use" as const,
              name: "Bash",
              input: { command, description: "Wait a second", run_in_background: true },
            },
          ],
        });
  const e2e = await startV2E2E({
    scenario: Array.from({ length: 6 }, () => route),
    permission: { answer: "select", optionId: "allow-once" },
  });
  const { sessionId } = await e2e.newSession();
  expect(await e2e.prompt(sessionId, "Run it in the background.")).toMatchObject({
    stopReason: "end_turn",
  });
  return { e2e, sessionId };
}

describe("a turn Claude Code starts itself, on v2 with the real Claude Code", () => {
  it("a background Agent's result: after the prompt's idle, running, Claude's follow-up, idle end_turn; the next prompt gets a turn of its own", async () => {
    const route = (request: RecordedRequest) => {
      const said = lastUserText(request);
      if (said.includes("Find the marker")) {
        return { ...text("SUBAGENT-MARKER-v2"), firstByteDelayMs: 1_500 };
      }
      if (lastUserMessage(request).includes("task-notification")) return text("FOLLOW-UP-v2");
      if (said === "Next question.") return text("NEXT-REPLY");
      if (toolResults(request).at(-1)?.text.includes("Async agent launched")) {
        return text("Launched it.");
      }
      return {
        content: [
          {
            type: "tool_use" as const,
            name: "Agent",
            input: {
              description: "Find the marker",
              prompt: "Find the marker",
              subagent_type: "general-purpose",
              run_in_background: true,
            },
          },
        ],
      };
    };
    const e2e = await startV2E2E({ scenario: Array.from({ length: 8 }, () => route) });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Start a background agent.")).toMatchObject({
      stopReason: "end_turn",
    });
    await e2e.until(
      () => story(e2e, sessionId).filter((line) => line.startsWith("idle")).length >= 2,
      30_000,
    );
    expect(joined(story(e2e, sessionId))).toEqual([
      "user_message",
      "running",
      "text Launched it.",
      "idle end_turn",
      "running",
      "text FOLLOW-UP-v2",
      "idle end_turn",
    ]);
    const ownIdle = e2e
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === "state_update" && u.state === "idle")
      .at(-1);
    expect(ownIdle).toMatchObject({ usage: { totalTokens: expect.any(Number) as unknown } });

    expect(await e2e.prompt(sessionId, "Next question.")).toMatchObject({ stopReason: "end_turn" });
    expect(joined(story(e2e, sessionId)).slice(-4)).toEqual([
      "user_message",
      "running",
      "text NEXT-REPLY",
      "idle end_turn",
    ]);
  });

  it("a background command's completion: Claude Code's own turn with it is running, then idle", async () => {
    const { e2e, sessionId } = await backgroundCommand("sleep 1 && echo done", (request) =>
      lastUserMessage(request).includes("task-notification") ? text("BASH-DONE-v2") : undefined,
    );
    await e2e.until(
      () => story(e2e, sessionId).filter((line) => line.startsWith("idle")).length >= 2,
      30_000,
    );
    expect(joined(story(e2e, sessionId)).slice(-3)).toEqual([
      "running",
      "text BASH-DONE-v2",
      "idle end_turn",
    ]);
  });

  it("session/cancel while Claude Code's own turn runs stops it: idle cancelled, what it was writing never shown, and the next prompt is answered", async () => {
    const { e2e, sessionId } = await backgroundCommand("sleep 1", (request) => {
      const last = lastUserMessage(request);
      // The next prompt's message may carry what the stopped turn left (its notification too).
      if (last.includes("Next question.")) return text("NEXT-REPLY");
      // Claude Code's own turn: its text would come long after the cancel.
      if (last.includes("task-notification")) return { ...text("OWN-TEXT-v2"), delayMs: 20_000 };
      return undefined;
    });
    const states = () => story(e2e, sessionId).filter((l) => /^(running|idle)/.test(l));
    await e2e.until(() => states().length >= 3, 30_000);
    expect(states().at(-1)).toBe("running");
    await e2e.client.notify(v2.methods.agent.session.cancel, { sessionId });
    await e2e.until(() => states().length >= 4, 15_000);
    expect(states().slice(-2)).toEqual(["running", "idle cancelled"]);
    expect(await e2e.prompt(sessionId, "Next question.")).toMatchObject({ stopReason: "end_turn" });
    expect(joined(story(e2e, sessionId)).slice(-2)).toEqual(["text NEXT-REPLY", "idle end_turn"]);
    expect(JSON.stringify(e2e.notifications)).not.toContain("OWN-TEXT-v2");
  });
});
