// Helpers for the end-to-end tests of turns, tools, modes, faults and questions: reading a
// tool call's life from the update log, the prompt answers on the wire, mode and config
// requests, and what the scripted model was sent.
import { join } from "node:path";
import {
  methods,
  type ContentBlock,
  type SessionConfigOption,
  type ToolCallContent,
  type ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import type { RecordedRequest, TurnSpec } from "../../../scripted-api/index.js";
import type { E2E, UpdateOf, WireEntry, WireMessage } from "../e2e/index.js";
import { poll } from "../e2e/index.js";

export { STDIO_MCP_SERVER, startHttpMcpServer, type HttpMcpServer } from "./mcp-servers.js";

/** A 1x1 PNG. */
export const PIXEL_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

export type ToolCallEvent = UpdateOf<"tool_call"> | UpdateOf<"tool_call_update">;
type Diff = Extract<ToolCallContent, { type: "diff" }>;

export function textOf(content: ContentBlock | undefined): string {
  return content?.type === "text" ? content.text : "";
}

/** The concatenated text of a session's chunks of one kind (the agent's message or thought, the user's message). */
export function chunkText(
  e2e: E2E,
  sessionId: string,
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
): string {
  return e2e.updates
    .of(sessionId, kind)
    .map((chunk) => textOf(chunk.content))
    .join("");
}

/** Every `tool_call` and `tool_call_update` of one tool call, in arrival order. */
export function toolCallEvents(e2e: E2E, sessionId: string, toolCallId: string): ToolCallEvent[] {
  return e2e.updates
    .of(sessionId)
    .filter(
      (u): u is ToolCallEvent =>
        (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
        u.toolCallId === toolCallId,
    );
}

/** The tool call as a client holds it after every update (a field an update carries replaces it). */
export function toolCallState(e2e: E2E, sessionId: string, toolCallId: string): ToolCallUpdate {
  const state: ToolCallUpdate = { toolCallId };
  for (const event of toolCallEvents(e2e, sessionId, toolCallId)) {
    const { sessionUpdate: _kind, ...fields } = event;
    Object.assign(state, fields);
  }
  return state;
}

/** The statuses a tool call went through, in order. */
export function statusesOf(e2e: E2E, sessionId: string, toolCallId: string): string[] {
  return toolCallEvents(e2e, sessionId, toolCallId).flatMap((e) => (e.status ? [e.status] : []));
}

export function diffsOf(content: readonly ToolCallContent[] | null | undefined): Diff[] {
  return (content ?? []).filter((c): c is Diff => c.type === "diff");
}

/** The texts of `content` blocks holding text. */
export function contentTexts(content: readonly ToolCallContent[] | null | undefined): string[] {
  return (content ?? []).flatMap((c) =>
    c.type === "content" && c.content.type === "text" ? [c.content.text] : [],
  );
}

/** The agent's answers to `session/prompt`, in the order the prompts were sent. */
export function promptAnswers(e2e: E2E): WireEntry[] {
  return e2e.transcript.calls("session/prompt", "to-agent").map((request) => {
    const answer = e2e.transcript.responseTo(request);
    if (!answer) throw new Error(`no answer on the wire to session/prompt #${request.seq}`);
    return answer;
  });
}

/**
 * Awaits a prompt that must fail and returns the JSON-RPC error exactly as it crossed the
 * wire (code, message, data).
 */
export async function promptError(
  e2e: E2E,
  prompt: Promise<unknown>,
): Promise<NonNullable<WireMessage["error"]>> {
  const outcome = await prompt.then(
    (response) => ({ failed: false as const, response }),
    () => ({ failed: true as const }),
  );
  if (!outcome.failed) {
    throw new Error(`the prompt was answered instead of failing: ${JSON.stringify(outcome)}`);
  }
  const error = promptAnswers(e2e).at(-1)?.message?.error;
  if (!error) throw new Error("no JSON-RPC error on the wire for the last prompt");
  return error;
}

export function setMode(e2e: E2E, sessionId: string, modeId: string): Promise<unknown> {
  return e2e.client.request(methods.agent.session.setMode, { sessionId, modeId });
}

export async function setConfigOption(
  e2e: E2E,
  sessionId: string,
  configId: string,
  value: string,
): Promise<SessionConfigOption[]> {
  const response = await e2e.client.request(methods.agent.session.setConfigOption, {
    sessionId,
    configId,
    value,
  });
  return response.configOptions;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request body as an object (empty when it is not one). */
export function bodyOf(request: RecordedRequest | undefined): Record<string, unknown> {
  return isRecord(request?.body) ? request.body : {};
}

/** The `messages` of a model request. */
export function messagesOf(request: RecordedRequest | undefined): Record<string, unknown>[] {
  const messages = bodyOf(request).messages;
  return Array.isArray(messages) ? messages.filter(isRecord) : [];
}

/** The names of the tools offered to the model in a request. */
export function toolNames(request: RecordedRequest | undefined): string[] {
  const tools = bodyOf(request).tools;
  return Array.isArray(tools)
    ? tools.flatMap((t) => (isRecord(t) && typeof t.name === "string" ? [t.name] : []))
    : [];
}

/** The content blocks of the last user message of a request. */
export function lastUserBlocks(request: RecordedRequest | undefined): Record<string, unknown>[] {
  const last = messagesOf(request).findLast((m) => m.role === "user");
  const content = last?.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

const REMINDER = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/** The texts of a user message's blocks that are not Claude Code's system reminders. */
export function userTexts(message: Record<string, unknown> | undefined): string[] {
  const content = message?.content;
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((b: unknown) =>
    isRecord(b) && b.type === "text" && typeof b.text === "string" && !REMINDER.test(b.text)
      ? [b.text]
      : [],
  );
}

/**
 * The plan file Claude Code told the model to write in plan mode ("create your plan at
 * <path>"): always under `<config dir>/plans/`.
 */
export function planFileFrom(request: RecordedRequest, configDir: string): string {
  const match = /plans\/[\w.-]+\.md/.exec(JSON.stringify(request.body));
  if (!match) throw new Error("the request names no plan file");
  return join(configDir, match[0]);
}

/**
 * In plan mode: write `plan` to the plan file Claude Code named, ask to exit plan mode, then
 * implement (write impl.txt in the cwd) and say "Implemented.".
 */
export function planThenImplement(e2e: E2E, plan: string): TurnSpec[] {
  return [
    (req: RecordedRequest) => ({
      content: [
        {
          type: "tool_use",
          id: "toolu_plan_file",
          name: "Write",
          input: { file_path: planFileFrom(req, e2e.configDir), content: plan },
        },
      ],
    }),
    { content: [{ type: "tool_use", id: "toolu_exit", name: "ExitPlanMode", input: {} }] },
    {
      content: [
        {
          type: "tool_use",
          id: "toolu_impl",
          name: "Write",
          input: { file_path: join(e2e.cwd, "impl.txt"), content: "implemented\n" },
        },
      ],
    },
    { content: [{ type: "text", text: "Implemented." }] },
  ];
}

/** Resolves true once no Claude Code process of the agent is left (an idle close), else false. */
export async function claudeCodeGone(e2e: E2E, timeoutMs = 15_000): Promise<boolean> {
  const gone = await poll(async () => {
    const processes = await e2e.processes();
    return processes.some((p) => p.command.includes("claude-agent-sdk")) ? undefined : true;
  }, timeoutMs);
  return gone === true;
}
