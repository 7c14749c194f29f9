import type { RequestPermissionRequest, ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { cleanJson, isCleanPath } from "../util/text.js";
import { airPatchContent, airResultPatch } from "./air/diff-patch.js";
import {
  airPermissionMeta,
  airToolCall,
  planFileCleared,
  planFileShown,
  toolNameOf,
} from "./air/tool-calls.js";
import type { SkillFiles } from "./air/skills.js";
import { BackgroundedCommands } from "./air/async-tasks.js";
import { HiddenAgentCalls, ordinaryCall } from "./air/agent-calls.js";
import { childSessionsForm } from "./air/extension.js";

/**
 * A tool call as the client is shown it: the raw input and output with every string cleaned,
 * and no location whose path holds control characters (cleaned, it would name another file,
 * which a client may open). A copy: the input Claude Code runs is never changed.
 */
export function shownToolCall<T extends ToolCallUpdate>(fields: T): T {
  const shown = { ...fields };
  if (fields.rawInput !== undefined) shown.rawInput = cleanJson(fields.rawInput);
  if (fields.rawOutput !== undefined) shown.rawOutput = cleanJson(fields.rawOutput);
  if (fields.locations) shown.locations = fields.locations.filter((l) => isCleanPath(l.path));
  return shown;
}

/** A tool call's announcement or update, as a session update. */
export type ToolCallMessage =
  | ({ sessionUpdate: "tool_call" } & ToolCall)
  | ({ sessionUpdate: "tool_call_update" } & ToolCallUpdate);

/**
 * How one session's tool calls are shown to its client: cleaned, and in the shape of the
 * client's extension (AIR's keys, plan file, patches and hidden subagent launches, air/). Each
 * method says what to send, in order: nothing, one message, or more.
 */
export class ShownToolCalls {
  /** The ExitPlanMode calls shown with their plan file (AIR's `planFile`). */
  private readonly planFiles = new Set<string>();
  /** AIR's mark of a command that went on in the background. */
  private readonly backgrounded: BackgroundedCommands;
  /** Subagent launches, not shown where a child session shows the work (air/agent-calls.ts). */
  private readonly launches: HiddenAgentCalls;

  constructor(
    private readonly capabilities: { _meta?: unknown },
    /** What the root session knows: its child sessions, and its skills as Claude Code reports them. */
    private readonly root: {
      hasChild(thread: string): boolean;
      skills(): SkillFiles | undefined;
    },
  ) {
    this.backgrounded = new BackgroundedCommands(capabilities);
    const hides = childSessionsForm(capabilities) === "air";
    this.launches = new HiddenAgentCalls(hides, (thread) => root.hasChild(thread));
  }

  /** A tool call or update; `first`: its announcement. */
  shown<T extends ToolCallUpdate>(fields: T, first = false): T {
    const shown = this.backgrounded.mark(
      airToolCall(shownToolCall(fields), this.capabilities, first, this.root.skills()),
    );
    if (planFileShown(shown, this.capabilities)) this.planFiles.add(shown.toolCallId);
    return shown;
  }

  /** A call's announcement: none while it is a launch held back. */
  announced(toolCall: ToolCall): ToolCallMessage[] {
    if (this.launches.hold(toolCall)) return [];
    return [{ sessionUpdate: "tool_call", ...this.shown(toolCall, true) }];
  }

  /**
   * An update: a file edit's completed call as AIR's patch of what Claude Code did, and after
   * an approved plan shown as its file, the call that clears it. Any other update is shown
   * without waiting (a promise only where a patch is made).
   */
  updated(update: ToolCallUpdate): ToolCallMessage[] | Promise<ToolCallMessage[]> {
    const launch = this.launches.update(update);
    if ("announce" in launch) {
      return [{ sessionUpdate: "tool_call", ...ordinaryCall(this.shown(launch.announce, true)) }];
    }
    if (!launch.send) return [];
    const patch = airResultPatch(update, toolNameOf(update), this.capabilities);
    if (!patch) return this.withAfter(this.shown(update));
    return patch.then((content) =>
      this.withAfter(this.shown(content ? { ...update, content } : update)),
    );
  }

  private withAfter(update: ToolCallUpdate): ToolCallMessage[] {
    const messages: ToolCallMessage[] = [{ sessionUpdate: "tool_call_update", ...update }];
    if (update.status === "completed" && this.planFiles.delete(update.toolCallId)) {
      messages.push({ sessionUpdate: "tool_call", ...planFileCleared(update.toolCallId) });
    }
    return messages;
  }

  /**
   * A permission request's tool call and `_meta`, as shown (a file edit as AIR's patch, made
   * only of a file inside `folders`, the session's), and what to send before it: a launch held
   * back is shown before it is asked about.
   */
  async permission<P extends Omit<RequestPermissionRequest, "sessionId">>(
    params: P,
    folders: readonly string[],
  ): Promise<{ before: ToolCallMessage[]; request: P }> {
    const launch = this.launches.release(params.toolCall.toolCallId);
    const before: ToolCallMessage[] = launch
      ? [{ sessionUpdate: "tool_call", ...this.shown(launch, true) }]
      : [];
    const meta = airPermissionMeta(params._meta ?? undefined, this.capabilities);
    const { toolCall } = params;
    // From the input Claude Code runs, not the copy cleaned for showing: it must match the file.
    const tool = toolNameOf(toolCall);
    const patch = await airPatchContent(tool, toolCall.rawInput, this.capabilities, folders);
    const shown = this.shown(patch ? { ...toolCall, content: patch } : toolCall);
    return { before, request: { ...params, toolCall: shown, ...(meta ? { _meta: meta } : {}) } };
  }
}
