// End-to-end: Claude Code's own turns between prompts, with the real Claude Code. A
// background subagent or command finishes after the prompt was answered; Claude Code then
// starts a turn of its own with the result, and the client sees it.
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  lastUserText,
  toolResults,
  type RecordedRequest,
  type ScriptTurn,
} from "../../../scripted-api/index.js";
import { type E2E, poll, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { reopenAgent } from "../../support/e2e-sessions/index.js";
import { ZED } from "../../support/client-handshakes.js";
import { chunkText, statusesOf, toolCallEvents } from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents();

/** The last user message as sent, system reminders and task notifications included. */
function lastUserMessage(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages?.findLast((m) => m.role === "user")?.content ?? "");
}

/** Waits until the agent's text since update number `from` contains `marker`; that text. */
async function textArrives(e2e: E2E, sessionId: string, from: number, marker: string) {
  const text = () => textSince(e2e, sessionId, from);
  await poll(() => Promise.resolve(text().includes(marker) ? true : undefined), 15_000);
  return text();
}

/** The text of the agent messages received since update number `from`. */
function textSince(e2e: E2E, sessionId: string, from: number): string {
  return e2e.updates.received
    .slice(from)
    .filter((r) => r.sessionId === sessionId && r.update.sessionUpdate === "agent_message_chunk")
    .map((r) => (r.update.sessionUpdate === "agent_message_chunk" ? r.update.content : undefined))
    .map((content) => (content?.type === "text" ? content.text : ""))
    .join("");
}

/** Whether the request is a subagent's, launched with `prompt`. */
function asksSubagent(request: RecordedRequest, prompt: string): boolean {
  const body = request.body as { messages?: Array<{ content: unknown }> };
  return JSON.stringify(body.messages?.[0]?.content ?? "").includes(prompt);
}

/**
 * A model that launches a subagent in the background with `prompt` (answered by `subagent`)
 * and answers the launch and the subagent's task notification with a text each.
 */
function backgroundSubagent(prompt: string, subagent: (request: RecordedRequest) => ScriptTurn) {
  return (request: RecordedRequest): ScriptTurn => {
    if (asksSubagent(request, prompt)) return subagent(request);
    if (lastUserMessage(request).includes("task-notification")) {
      return { content: [{ type: "text", text: "NOTIFIED" }] };
    }
    if (toolResults(request).length) return { content: [{ type: "text", text: "Launched it." }] };
    return {
      content: [
        {
          type: "tool_use",
          name: "Agent",
          input: {
            description: "Background work",
            prompt,
            subagent_type: "general-purpose",
            run_in_background: true,
          },
        },
      ],
    };
  };
}

/** The terminal exits a call's updates carry. */
function exitsOf(e2e: E2E, sessionId: string, id: string): unknown[] {
  return toolCallEvents(e2e, sessionId, id).flatMap((e) => {
    const meta = e._meta as { terminal_exit?: unknown } | undefined;
    return meta?.terminal_exit ? [meta.terminal_exit] : [];
  });
}

describe("a subagent running in the background after the parent's turn", () => {
  it("its command, still running when the parent's turn ends, stays open and ends once, by its own result (completed, one terminal_exit 0)", async () => {
    const subagent = (request: RecordedRequest): ScriptTurn =>
      toolResults(request).length
        ? { content: [{ type: "text", text: "SUB-FINISHED" }] }
        : {
            content: [
              {
                type: "tool_use",
                id: "toolu_sub_sleep",
                name: "Bash",
                input: { command: "sleep 3 && echo slept", description: "Sleep a while" },
              },
            ],
          };
    const e2e = await startE2E({
      scenario: Array.from({ length: 8 }, () => backgroundSubagent("Sleep-then-answer", subagent)),
      permission: { answer: "select", optionId: "allow-once" },
      clientCapabilities: ZED.clientCapabilities,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Start a background agent.")).toMatchObject({
      stopReason: "end_turn",
    });
    // The parent's turn has ended while the subagent's command runs: it is not closed.
    await e2e.updates.waitFor(sessionId, "tool_call", (u) => u.toolCallId === "toolu_sub_sleep");
    expect(statusesOf(e2e, sessionId, "toolu_sub_sleep").slice(1)).toEqual([]);

    await textArrives(e2e, sessionId, 0, "NOTIFIED");
    const id = "toolu_sub_sleep";
    expect(statusesOf(e2e, sessionId, id).slice(1)).toEqual(["completed"]);
    expect(exitsOf(e2e, sessionId, id)).toEqual([{ terminal_id: id, exit_code: 0, signal: null }]);
    expect(JSON.stringify(toolCallEvents(e2e, sessionId, id))).not.toContain("Claude stopped");
  });

  it("its background command is a terminal that stays open past its result, streams its output file and exits with its task's exit code", async () => {
    const id = "toolu_sub_bg";
    const subagent = (request: RecordedRequest): ScriptTurn =>
      toolResults(request).length
        ? { content: [{ type: "text", text: "SUB-FINISHED" }] }
        : {
            content: [
              {
                type: "tool_use",
                id,
                name: "Bash",
                input: {
                  command: "echo first-piece; sleep 1; echo second-piece",
                  description: "In the background",
                  run_in_background: true,
                },
              },
            ],
          };
    const e2e = await startE2E({
      scenario: Array.from({ length: 10 }, () => backgroundSubagent("Run-it-behind", subagent)),
      permission: { answer: "select", optionId: "allow-once" },
      clientCapabilities: ZED.clientCapabilities,
    });
    const { sessionId } = await e2e.newSession();

    await e2e.prompt(sessionId, "Start a background agent.");
    const exit = await poll(() => Promise.resolve(exitsOf(e2e, sessionId, id)[0]), 20_000);

    expect(exit).toEqual({ terminal_id: id, exit_code: 0, signal: null });
    expect(exitsOf(e2e, sessionId, id)).toHaveLength(1);
    const events = toolCallEvents(e2e, sessionId, id);
    // The call completed with its result; the terminal's exit came after, at the task's end.
    const completedAt = events.findIndex((e) => e.status === "completed");
    const exitAt = events.findIndex((e) => (e._meta as { terminal_exit?: unknown })?.terminal_exit);
    expect(completedAt).toBeGreaterThan(0);
    expect(exitAt).toBeGreaterThan(completedAt);
    const output = events
      .map((e) => (e._meta as { terminal_output?: { data: string } })?.terminal_output?.data ?? "")
      .join("");
    expect(output).toBe("first-piece\nsecond-piece\n");
  });
});

describe("what Claude Code does after the prompt's response", () => {
  it("a background Agent's result reaches the client after the response, the next prompt gets its own reply only, and a load replays no notification as the user's words", async () => {
    // Requests of the main loop and the subagent interleave: each is answered by what it asks.
    const route = (request: RecordedRequest) => {
      const text = lastUserText(request);
      if (text.includes("Find the marker")) {
        return {
          content: [{ type: "text" as const, text: "SUBAGENT-MARKER-7f3a" }],
          firstByteDelayMs: 1_500,
        };
      }
      if (lastUserMessage(request).includes("task-notification")) {
        return { content: [{ type: "text" as const, text: "FOLLOW-UP-MARKER-19c2" }] };
      }
      if (text === "Next question.") {
        return { content: [{ type: "text" as const, text: "NEXT-REPLY" }] };
      }
      if (toolResults(request).at(-1)?.text.includes("Async agent launched")) {
        return { content: [{ type: "text" as const, text: "Launched it." }] };
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
            },
          },
        ],
      };
    };
    const e2e = await startE2E({ scenario: Array.from({ length: 8 }, () => route) });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Start a background agent.")).toMatchObject({
      stopReason: "end_turn",
    });
    const afterFirst = e2e.updates.received.length;
    expect(chunkText(e2e, sessionId, "agent_message_chunk")).toBe("Launched it.");

    const background = await textArrives(e2e, sessionId, afterFirst, "FOLLOW-UP-MARKER-19c2");
    expect(background).toContain("SUBAGENT-MARKER-7f3a");
    expect(background).toContain("FOLLOW-UP-MARKER-19c2");

    const beforeNext = e2e.updates.received.length;
    expect(await e2e.prompt(sessionId, "Next question.")).toMatchObject({ stopReason: "end_turn" });
    expect(textSince(e2e, sessionId, beforeNext)).toBe("NEXT-REPLY");

    // Loaded again, the conversation shows the user's words only: the notification Claude
    // Code wrote itself into it is not replayed as a user message.
    const again = await reopenAgent(e2e);
    await again.client.request(methods.agent.session.load, {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    });
    expect(chunkText(again, sessionId, "user_message_chunk")).toBe(
      "Start a background agent.Next question.",
    );
  });

  it("a background command's completion is reported after the response", async () => {
    const route = (request: RecordedRequest) => {
      if (lastUserMessage(request).includes("task-notification")) {
        return { content: [{ type: "text" as const, text: "BASH-DONE-MARKER-5e1d" }] };
      }
      if (toolResults(request).length) {
        return { content: [{ type: "text" as const, text: "Started it." }] };
      }
      return {
        content: [
          {
            type: "tool_use" as const,
            name: "Bash",
            input: {
              command: "sleep 1 && echo done",
              description: "Wait a second",
              run_in_background: true,
            },
          },
        ],
      };
    };
    const e2e = await startE2E({
      scenario: Array.from({ length: 6 }, () => route),
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run it in the background.")).toMatchObject({
      stopReason: "end_turn",
    });
    const afterResponse = e2e.updates.received.length;

    expect(await textArrives(e2e, sessionId, afterResponse, "BASH-DONE-MARKER-5e1d")).toContain(
      "BASH-DONE-MARKER-5e1d",
    );
  });
});
