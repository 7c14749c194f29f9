import { randomUUID } from "node:crypto";
import type * as v1 from "@agentclientprotocol/sdk/unstable";
import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import type { SessionNotificationOut } from "../channel.js";
import { STOPPABLE_TOOLS } from "../../tools/index.js";
import { gitPatch } from "./git-patch.js";

/**
 * ACP v1's session updates as ACP v2 has them. The sessions build v1's shapes; this is the
 * one place that knows how each becomes v2's:
 *
 * - message chunks keep their `messageId`, or get one (v2 requires it): consecutive chunks
 *   of one kind without an id form one message;
 * - `tool_call` becomes the `tool_call_update` that creates the call (status `pending`
 *   unless it says otherwise); `null` fields are left out, since v2 reads `null` as "clear";
 *   a command or subagent can be cancelled (`capabilities.cancel`, on its terminal too), and
 *   one the client cancelled that ends `failed` ends `cancelled`;
 * - diff content becomes structured changes with a git patch;
 * - the terminal `_meta` extension (`terminal_info`, `terminal_output` or
 *   `terminal_output_delta`, `terminal_exit`) becomes v2's display terminals:
 *   `terminal_update` (command, cwd, exit status) and `terminal_output_chunk` (base64);
 * - `plan` becomes `plan_update` of one plan per session;
 * - `current_mode_update` goes: the mode is a config option, and `config_option_update`
 *   follows every mode change;
 * - config options are named by `configId` (select groups by `groupId`), commands carry
 *   `type: "command"` and a `type: "text"` input;
 * - a subagent's state reported on its parent (`subagent_update`) is also its own
 *   `state_update`, as v2 mirrors them.
 *
 * Everything else (notices, compaction, usage, session info, session messages) has the
 * same shape in both. `_meta` goes on unchanged.
 */

/** The one plan a session's todo list is in v2. */
export const PLAN_ID = "todos";

/** The terminal `_meta` keys of v1 that v2's terminal updates replace. */
const TERMINAL_KEYS = [
  "terminal_info",
  "terminal_output",
  "terminal_output_delta",
  "terminal_exit",
];

type Meta = Record<string, unknown>;
type ChunkKind = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

export interface V2Notification {
  sessionId: string;
  update: v2.SessionUpdate;
}

/**
 * The translation of one connection's updates. It keeps, per session, the id given to the
 * message being streamed without one.
 */
export class UpdateTranslator {
  private readonly implicit = new Map<string, { kind: ChunkKind; messageId: string }>();
  /** The tool calls the client cancelled (`tool_call/cancel`, `terminal/cancel`), by session. */
  private readonly cancelled = new Map<string, Set<string>>();

  /** The client cancelled this tool call: it ends `cancelled`. */
  cancelling(sessionId: string, toolCallId: string): void {
    const calls = this.cancelled.get(sessionId) ?? new Set<string>();
    this.cancelled.set(sessionId, calls.add(toolCallId));
  }

  translate(notification: SessionNotificationOut): V2Notification[] {
    const { sessionId } = notification;
    const update = notification.update;
    const to = (u: object): V2Notification => ({ sessionId, update: u as v2.SessionUpdate });
    if (!isChunk(update)) this.implicit.delete(sessionId);
    switch (update.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk":
        return [
          to({
            sessionUpdate: update.sessionUpdate,
            messageId: this.messageId(sessionId, update.sessionUpdate, update.messageId),
            content: update.content,
            ...meta(update._meta),
          }),
        ];
      case "tool_call":
        return toolCallUpdates({ status: "pending", ...update }, to, true);
      case "tool_call_update": {
        const out = toolCallUpdates(update, to, false);
        return this.cancelled.get(sessionId)?.has(update.toolCallId) ? out.map(asCancelled) : out;
      }
      case "plan":
        return [
          to({
            sessionUpdate: "plan_update",
            plan: { type: "items", planId: PLAN_ID, entries: update.entries },
            ...meta(update._meta),
          }),
        ];
      case "available_commands_update":
        return [
          to({
            sessionUpdate: "available_commands_update",
            availableCommands: toV2Commands(update.availableCommands),
            ...meta(update._meta),
          }),
        ];
      case "current_mode_update":
        return [];
      case "config_option_update":
        return [
          to({
            sessionUpdate: "config_option_update",
            configOptions: toV2ConfigOptions(update.configOptions),
            ...meta(update._meta),
          }),
        ];
      case "subagent_update": {
        const out = [to(withoutNulls(update))];
        if (update.state) {
          out.push({
            sessionId: update.sessionId,
            update: { sessionUpdate: "state_update", ...update.state } as v2.SessionUpdate,
          });
        }
        return out;
      }
      default:
        // Session info, usage, notices, compaction, session messages, the unstable plan
        // updates: the same in both.
        return [to(withoutNulls(update))];
    }
  }

  /** The session was closed or opened again: nothing is carried over. */
  forget(sessionId: string): void {
    this.implicit.delete(sessionId);
    this.cancelled.delete(sessionId);
  }

  private messageId(sessionId: string, kind: ChunkKind, given: string | null | undefined): string {
    if (given) {
      this.implicit.delete(sessionId);
      return given;
    }
    const current = this.implicit.get(sessionId);
    if (current?.kind === kind) return current.messageId;
    const messageId = randomUUID();
    this.implicit.set(sessionId, { kind, messageId });
    return messageId;
  }
}

function isChunk(update: { sessionUpdate: string }): boolean {
  return (
    update.sessionUpdate === "user_message_chunk" ||
    update.sessionUpdate === "agent_message_chunk" ||
    update.sessionUpdate === "agent_thought_chunk"
  );
}

function meta(value: Meta | null | undefined): { _meta?: Meta } {
  return value ? { _meta: value } : {};
}

/** The fields that are set: v2 reads `null` as "clear", v1 as "unchanged". */
function withoutNulls<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as T;
}

/** A cancelled call's end: `failed` (v1 has no other) is v2's `cancelled`. */
function asCancelled(notification: V2Notification): V2Notification {
  const { update } = notification;
  if (update.sessionUpdate !== "tool_call_update" || update.status !== "failed")
    return notification;
  return { ...notification, update: { ...update, status: "cancelled" } };
}

type ToolCallFields = v1.ToolCallUpdate & { status?: v1.ToolCallStatus | null };

/**
 * A v1 tool call (or its update) as v2's updates: the terminal it opens first, the call,
 * then the output and exit its terminal `_meta` carried.
 */
function toolCallUpdates(
  fields: ToolCallFields & { sessionUpdate?: string },
  to: (update: object) => V2Notification,
  first: boolean,
): V2Notification[] {
  const { sessionUpdate: _kind, ...rest } = fields;
  const { update, terminal } = toV2ToolCall(rest, first);
  const out: V2Notification[] = [];
  if (terminal.opened) out.push(to({ sessionUpdate: "terminal_update", ...terminal.opened }));
  // An update that only carried terminal output or exit says nothing else to the call.
  if (!terminal.only) out.push(to({ sessionUpdate: "tool_call_update", ...update }));
  if (terminal.output) out.push(to({ sessionUpdate: "terminal_output_chunk", ...terminal.output }));
  if (terminal.exited) out.push(to({ sessionUpdate: "terminal_update", ...terminal.exited }));
  return out;
}

interface TerminalParts {
  opened?: v2.TerminalUpdate;
  output?: v2.TerminalOutputChunk;
  exited?: v2.TerminalUpdate;
  /** The update carried terminal output or exit and nothing else for the call. */
  only: boolean;
}

/** A v1 tool call or update as v2's tool call upsert, and the terminal parts of its `_meta`. */
export function toV2ToolCall(
  fields: ToolCallFields,
  first = false,
): { update: v2.ToolCallUpdate; terminal: TerminalParts } {
  const { content, _meta, ...rest } = withoutNulls(fields);
  const terminal = terminalParts(_meta ?? undefined, fields.rawInput);
  const kept = _meta ? withoutTerminalKeys(_meta) : undefined;
  const toolName = first ? claudeToolName(_meta ?? undefined) : undefined;
  const cancellable = toolName !== undefined && STOPPABLE_TOOLS.has(toolName);
  if (terminal.opened) terminal.opened.capabilities = { cancel: {} };
  const update: v2.ToolCallUpdate = {
    ...(rest as Omit<v2.ToolCallUpdate, "content" | "_meta">),
    ...(toolName ? { name: toolName } : {}),
    ...(cancellable ? { capabilities: { cancel: {} } } : {}),
    ...(content ? { content: content.map(toV2Content) } : {}),
    ...(kept && Object.keys(kept).length ? { _meta: kept } : {}),
  };
  const others = Object.keys(update).filter((key) => key !== "toolCallId" && key !== "_meta");
  terminal.only = !first && (!!terminal.output || !!terminal.exited) && others.length === 0;
  return { update, terminal };
}

function claudeToolName(value: Meta | undefined): string | undefined {
  const claudeCode = value?.claudeCode;
  if (typeof claudeCode !== "object" || claudeCode === null) return undefined;
  const name = (claudeCode as Meta).toolName;
  return typeof name === "string" ? name : undefined;
}

function withoutTerminalKeys(value: Meta): Meta {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !TERMINAL_KEYS.includes(key)));
}

function record(value: unknown): Meta | undefined {
  return typeof value === "object" && value !== null ? (value as Meta) : undefined;
}

function terminalParts(value: Meta | undefined, rawInput: unknown): TerminalParts {
  const parts: TerminalParts = { only: false };
  const info = record(value?.terminal_info);
  if (info && typeof info.terminal_id === "string") {
    const command = record(rawInput)?.command;
    parts.opened = {
      terminalId: info.terminal_id,
      ...(typeof command === "string" ? { command } : {}),
      ...(typeof info.cwd === "string" ? { cwd: info.cwd } : {}),
    };
  }
  const output = record(value?.terminal_output) ?? record(value?.terminal_output_delta);
  if (output && typeof output.terminal_id === "string" && typeof output.data === "string") {
    parts.output = {
      terminalId: output.terminal_id,
      data: Buffer.from(output.data, "utf8").toString("base64"),
    };
  }
  const exit = record(value?.terminal_exit);
  if (exit && typeof exit.terminal_id === "string") {
    parts.exited = {
      terminalId: exit.terminal_id,
      exitStatus: {
        ...(typeof exit.exit_code === "number" ? { exitCode: exit.exit_code } : {}),
        ...(typeof exit.signal === "string" ? { signal: exit.signal } : {}),
      },
    };
  }
  return parts;
}

/** Tool call content: v1's diff becomes a structured change with its git patch. */
export function toV2Content(content: v1.ToolCallContent): v2.ToolCallContent {
  if (content.type !== "diff") return content;
  const { path, oldText, newText, _meta } = content;
  const diff: v2.Diff = {
    changes: [
      oldText == null
        ? { operation: "add", path, fileType: "text" }
        : { operation: "modify", path, fileType: "text" },
    ],
    patch: { format: "git_patch", text: gitPatch(path, oldText ?? null, newText) },
    ...meta(_meta),
  };
  return { type: "diff", ...diff };
}

export function toV2ConfigOptions(options: v1.SessionConfigOption[]): v2.SessionConfigOption[] {
  return options.map((option) => {
    const { id, ...rest } = withoutNulls(option);
    if (rest.type !== "select") return { configId: id, ...rest };
    const choices = rest.options.map((choice) =>
      "group" in choice
        ? { ...withoutKey(choice, "group"), groupId: choice.group }
        : withoutNulls(choice),
    ) as v2.SessionConfigSelectOptions;
    return { configId: id, ...rest, options: choices };
  });
}

function withoutKey<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

export function toV2Commands(commands: v1.AvailableCommand[]): v2.AvailableCommand[] {
  return commands.map(({ name, description, input, _meta }) => ({
    type: "command",
    name,
    description,
    ...(input ? { input: { type: "text", hint: input.hint } } : {}),
    ...meta(_meta),
  }));
}
