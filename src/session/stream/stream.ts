import type { SessionClient } from "../../acp/session-client.js";
import type {
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKToolProgressMessage,
  SDKUserMessage,
} from "../../claude/types.js";
import { log } from "../../logger.js";
import { isRecord } from "../../util/records.js";
import { partialToolInfo, type ToolContext } from "../../tools/index.js";
import { toolResultUpdate } from "../../tools/results.js";
import {
  PLAN_TOOLS,
  planEntriesFromTodos,
  TaskPlan,
  taskResultFromText,
} from "../../tools/renderers/todo.js";
import {
  claudeCodeMeta,
  subagentMeta,
  toolCallFromToolUse,
  type ToolUse,
} from "../../tools/tool-call.js";
import type { SessionTerminals } from "../background/terminals.js";
import { type ReplayedMessage, userWords } from "./saved-messages.js";
import { hasEnded, type ToolCallTracker } from "./tool-calls.js";

type StreamEvent = SDKPartialAssistantMessage["event"];
type AssistantBlock = SDKAssistantMessage["message"]["content"][number];

/** Streamed tool input beyond this size is not re-parsed for title refinements. */
const PARTIAL_INPUT_REFINE_LIMIT = 16 * 1024;

/** A tool use whose input is still streaming. */
interface StreamingToolUse {
  id: string;
  name: string;
  json: string;
  /** The last refinement sent, to send only changes. */
  shown: string;
}

/**
 * Turns Claude Code's message stream into ACP session updates. Text and thoughts
 * stream from the partial events as they arrive; complete assistant messages only
 * fill in what was not streamed and refine tool calls with their final input.
 */
export class StreamTranslator {
  /** API message ids whose text and thinking already went out as deltas. */
  private readonly streamed = new Set<string>();
  /** Current API message id per thread (main thread: ""). */
  private readonly messageIds = new Map<string, string>();
  /** Tool uses by `${thread}:${blockIndex}` while their input streams. */
  private readonly streaming = new Map<string, StreamingToolUse>();
  /**
   * Whitespace a thought streamed alone, per thread: it goes out with the thought's next
   * words (a paragraph break stays), and is dropped if none come. A client never gets a
   * thought chunk with nothing to read.
   */
  private readonly heldThought = new Map<string, string>();
  private readonly tasks = new TaskPlan();

  constructor(
    private readonly client: SessionClient,
    private readonly tools: ToolCallTracker,
    private readonly context: ToolContext,
    private readonly terminals: SessionTerminals,
  ) {}

  /** Forgets per-turn bookkeeping once a turn has ended. */
  endTurn(): void {
    this.streamed.clear();
    this.messageIds.clear();
    this.streaming.clear();
    this.heldThought.clear();
  }

  async handle(message: SDKMessage): Promise<void> {
    switch (message.type) {
      case "stream_event":
        return this.handleStreamEvent(message);
      case "assistant":
        return this.handleAssistant(message);
      case "user":
        return this.handleUser(message);
      case "tool_progress":
        return this.progress(message);
      case "result":
      case "system":
      case "auth_status":
      case "tool_use_summary":
      case "rate_limit_event":
      case "prompt_suggestion":
      case "conversation_reset":
        // The session handles results and the system messages it cares about.
        return;
      default: {
        const unknown: never = message;
        log.debug("unhandled Claude message", unknown);
      }
    }
  }

  private async handleStreamEvent(message: SDKPartialAssistantMessage): Promise<void> {
    const parent = message.parent_tool_use_id;
    const thread = parent ?? "";
    const event: StreamEvent = message.event;
    switch (event.type) {
      case "message_start":
        this.messageIds.set(thread, event.message.id);
        return;
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "tool_use" || block.type === "server_tool_use") {
          this.streaming.set(`${thread}:${event.index}`, {
            id: block.id,
            name: block.name,
            json: "",
            // What the announcement already shows: refine only when that changes.
            shown: JSON.stringify(partialToolInfo(block.name, {}, this.context)),
          });
          await this.announceToolUse({
            id: block.id,
            name: block.name,
            input: {},
            parentToolUseId: parent,
          });
        }
        return;
      }
      case "content_block_delta": {
        const messageId = this.messageIds.get(thread);
        const delta = event.delta;
        const meta = subagentMeta(parent);
        if (delta.type === "text_delta") {
          if (messageId) this.streamed.add(messageId);
          await this.client.forThread(parent).sendAgentText(delta.text, messageId, meta);
        } else if (delta.type === "thinking_delta") {
          if (messageId) this.streamed.add(messageId);
          const thought = (this.heldThought.get(thread) ?? "") + delta.thinking;
          if (!thought.trim()) {
            this.heldThought.set(thread, thought);
            return;
          }
          this.heldThought.delete(thread);
          await this.client.forThread(parent).sendAgentThought(thought, messageId, meta);
        } else if (delta.type === "input_json_delta") {
          await this.refinePartial(`${thread}:${event.index}`, delta.partial_json);
        }
        return;
      }
      case "content_block_stop":
        this.streaming.delete(`${thread}:${event.index}`);
        this.heldThought.delete(thread);
        return;
      default:
        return;
    }
  }

  /** While input streams: a better title, kind and locations — never partial content. */
  private async refinePartial(key: string, json: string): Promise<void> {
    const use = this.streaming.get(key);
    if (!use) return;
    use.json += json;
    const call = this.tools.get(use.id);
    if (!call?.announced || use.json.length > PARTIAL_INPUT_REFINE_LIMIT) return;
    const info = partialToolInfo(use.name, use.json, this.context);
    const shown = JSON.stringify(info);
    if (shown === use.shown) return;
    use.shown = shown;
    await this.client
      .forThread(call.parentToolUseId)
      .updateToolCall({ toolCallId: use.id, ...info, _meta: claudeCodeMeta(call) });
  }

  private async handleAssistant(message: SDKAssistantMessage): Promise<void> {
    const messageId = message.message.id;
    const alreadyStreamed = this.streamed.has(messageId);
    for (const block of message.message.content) {
      await this.handleAssistantBlock(
        block,
        messageId,
        alreadyStreamed,
        message.parent_tool_use_id,
      );
    }
  }

  private async handleAssistantBlock(
    block: AssistantBlock,
    messageId: string,
    alreadyStreamed: boolean,
    parentToolUseId: string | null,
  ): Promise<void> {
    const meta = subagentMeta(parentToolUseId);
    const client = this.client.forThread(parentToolUseId);
    switch (block.type) {
      case "text":
        if (!alreadyStreamed) await client.sendAgentText(block.text, messageId, meta);
        return;
      case "thinking":
        if (!alreadyStreamed) await client.sendAgentThought(block.thinking, messageId, meta);
        return;
      case "tool_use":
      case "server_tool_use": {
        const input = isRecord(block.input) ? block.input : {};
        await this.refineToolUse({ id: block.id, name: block.name, input, parentToolUseId });
        return;
      }
      default:
        return;
    }
  }

  private async handleUser(message: SDKUserMessage): Promise<void> {
    const content = message.message.content;
    if (typeof content === "string") return;
    for (const block of content) {
      if (block.type !== "tool_result") continue;
      const call = this.tools.get(block.tool_use_id);
      if (!call) continue;
      const client = this.client.forThread(call.parentToolUseId);
      // The plan changes once the tool has run (a disabled tool changes nothing).
      if (!block.is_error && PLAN_TOOLS.has(call.name)) {
        // A replayed conversation has no structured results: read the result text then.
        const structured = message.tool_use_result ?? taskResultFromText(call.name, block);
        const entries =
          call.name === "TodoWrite"
            ? planEntriesFromTodos(call.input)
            : this.tasks.applyToolResult(call.name, call.input, structured);
        if (entries) await client.updatePlan(entries, subagentMeta(call.parentToolUseId));
      }
      // Plan tools the stream did not show as tool calls get no tool call update.
      if (!call.announced) continue;
      // A call closed without its result (its turn ended) stays closed: one end, one exit.
      if (hasEnded(call)) {
        log.debug(`tool call ${call.id}: result after it was closed, not shown`);
        continue;
      }
      // An internal rejection (the plan handoff) shows as the tool's success.
      const result = call.completeSilently ? { ...block, is_error: false, content: "" } : block;
      const structured = call.completeSilently ? undefined : message.tool_use_result;
      const update = toolResultUpdate(call, result, structured);
      call.status = update.status;
      if (await this.terminals.result(call, result, structured, update)) continue;
      await client.updateToolCall({ ...update, _meta: claudeCodeMeta(call) });
    }
  }

  /**
   * A message of a saved conversation (session/load): user text and images become
   * user chunks under the message's id when the user wrote them, the rest renders as it
   * did live. A subagent's prompts are its parent's words: its child session shows them as
   * messages from the parent.
   */
  async replay(message: ReplayedMessage): Promise<void> {
    if (message.type === "assistant") {
      const assistant = message.message as SDKAssistantMessage["message"];
      if (!assistant || !Array.isArray(assistant.content)) return;
      for (const block of assistant.content) {
        await this.handleAssistantBlock(block, assistant.id, false, message.parent_tool_use_id);
      }
      return;
    }
    if (message.type !== "user") return;
    const user = message.message as SDKUserMessage["message"];
    if (!user) return;
    const words = userWords(message, user);
    if (!words) return;
    for (const content of words) await this.client.sendUserContent(content, message.uuid);
    await this.handleUser({
      type: "user",
      message: user,
      parent_tool_use_id: message.parent_tool_use_id,
    });
  }

  /** First sight of a tool use: announce it as pending (plan tools become plan updates instead). */
  async announceToolUse(toolUse: ToolUse): Promise<void> {
    const call = this.tools.upsert(
      toolUse.id,
      toolUse.name,
      toolUse.input,
      toolUse.parentToolUseId,
    );
    call.streamed = true;
    if (PLAN_TOOLS.has(toolUse.name)) return;
    await this.tools.ensureAnnounced(
      call,
      () => toolCallFromToolUse(toolUse, this.context),
      (toolCall) => this.client.forThread(toolUse.parentToolUseId).sendToolCall(toolCall),
    );
  }

  /** The complete input is known: send the full rendering. */
  private async refineToolUse(toolUse: ToolUse): Promise<void> {
    const pending = this.tools.get(toolUse.id)?.announced;
    if (pending) await pending.catch(() => undefined);
    if (!this.tools.get(toolUse.id)?.announced) {
      await this.announceToolUse(toolUse);
      return;
    }
    this.tools.upsert(toolUse.id, toolUse.name, toolUse.input, toolUse.parentToolUseId).streamed =
      true;
    const { status: _status, ...full } = toolCallFromToolUse(toolUse, this.context);
    await this.client
      .forThread(toolUse.parentToolUseId)
      .updateToolCall(this.terminals.refine(full, toolUse.name));
  }

  /**
   * Claude Code's beat while a tool runs (a long command): the call shows it is running
   * and for how long, as `_meta.claudeCode.toolResponse.elapsedTimeSeconds`.
   */
  private async progress(message: SDKToolProgressMessage): Promise<void> {
    const call = this.tools.get(message.tool_use_id);
    if (!call?.announced || (call.status !== "pending" && call.status !== "in_progress")) return;
    call.status = "in_progress";
    const meta = claudeCodeMeta(call);
    await this.client.forThread(call.parentToolUseId).updateToolCall({
      toolCallId: call.id,
      status: "in_progress",
      _meta: {
        claudeCode: {
          ...meta.claudeCode,
          toolResponse: { elapsedTimeSeconds: message.elapsed_time_seconds },
        },
      },
    });
  }
}
