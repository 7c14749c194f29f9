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

/**
 * How one session's tool calls are shown to its client: cleaned, and in the shape of the
 * client's extension (AIR's keys and plan file, air/tool-calls.ts).
 */
export class ShownToolCalls {
  /** The ExitPlanMode calls shown with their plan file (AIR's `planFile`). */
  private readonly planFiles = new Set<string>();
  /** The session's skills as Claude Code last reported them (AIR's `skill` key names the file). */
  skills: SkillFiles | undefined;
  /** AIR's mark of a command that went on in the background. */
  private readonly backgrounded: BackgroundedCommands;

  constructor(private readonly capabilities: { _meta?: unknown }) {
    this.backgrounded = new BackgroundedCommands(capabilities);
  }

  /** A tool call or update; `first`: its announcement. */
  shown<T extends ToolCallUpdate>(fields: T, first = false): T {
    const shown = this.backgrounded.mark(
      airToolCall(shownToolCall(fields), this.capabilities, first, this.skills),
    );
    if (planFileShown(shown, this.capabilities)) this.planFiles.add(shown.toolCallId);
    return shown;
  }

  /**
   * A permission request's tool call and `_meta`, as shown (a file edit as AIR's patch, made
   * only of a file inside `folders`, the session's).
   */
  async permission<P extends Omit<RequestPermissionRequest, "sessionId">>(
    params: P,
    folders: readonly string[],
  ): Promise<P> {
    const meta = airPermissionMeta(params._meta ?? undefined, this.capabilities);
    const { toolCall } = params;
    // From the input Claude Code runs, not the copy cleaned for showing: it must match the file.
    const tool = toolNameOf(toolCall);
    const patch = await airPatchContent(tool, toolCall.rawInput, this.capabilities, folders);
    const shown = this.shown(patch ? { ...toolCall, content: patch } : toolCall);
    return { ...params, toolCall: shown, ...(meta ? { _meta: meta } : {}) };
  }

  /**
   * An update as shown, a file edit's completed call as AIR's patch of what Claude Code did.
   * Any other update is shown without waiting (a promise only where a patch is made).
   */
  updated<T extends ToolCallUpdate>(fields: T): T | Promise<T> {
    const patch = airResultPatch(fields, toolNameOf(fields), this.capabilities);
    if (!patch) return this.shown(fields);
    return patch.then((content) => this.shown(content ? { ...fields, content } : fields));
  }

  /** What follows an update: after an approved plan shown as its file, the call that clears it. */
  after(update: ToolCallUpdate): ToolCall | undefined {
    if (update.status !== "completed" || !this.planFiles.delete(update.toolCallId)) return;
    return planFileCleared(update.toolCallId);
  }
}
