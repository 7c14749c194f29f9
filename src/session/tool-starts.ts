import type { SessionClient } from "../acp/session-client.js";
import { log } from "../logger.js";
import { claudeCodeMeta } from "../tools/tool-call.js";
import type { ToolCallTracker, TrackedToolCall } from "./tool-calls.js";

/**
 * How long after Claude Code's PreToolUse hook a call that was not asked about is taken to
 * run. The hook fires before Claude Code decides the permission: an ask (`canUseTool`)
 * follows it within moments, and a call allowed by a rule or by the mode gets nothing more
 * until its result.
 */
export const START_GRACE_MS = 300;

/** Runs `fire` later; returns what cancels it. */
export type Schedule = (fire: () => void, ms: number) => () => void;

const timer: Schedule = (fire, ms) => {
  const handle = setTimeout(fire, ms);
  handle.unref();
  return () => clearTimeout(handle);
};

export interface ToolStartsHost {
  client: SessionClient;
  tools: ToolCallTracker;
}

/**
 * Shows a tool call `in_progress` when Claude Code runs it without asking the user (a rule
 * in settings, the session's mode, a read-only tool): Claude Code's PreToolUse hook says it
 * is about to run, unless it asks first. A call the user is asked about is marked by the
 * permission gate once allowed (permissions/request.ts); one that has ended is not touched.
 */
export class ToolStarts {
  /** Hooks heard whose call may still be asked about, by tool use id. */
  private readonly armed = new Map<string, () => void>();

  constructor(
    private readonly host: ToolStartsHost,
    private readonly schedule: Schedule = timer,
    private readonly graceMs = START_GRACE_MS,
  ) {}

  /** Claude Code's PreToolUse hook for this tool use. */
  heard(toolUseId: string): void {
    if (this.armed.has(toolUseId)) return;
    const cancel = this.schedule(() => {
      this.armed.delete(toolUseId);
      this.markRunning(toolUseId);
    }, this.graceMs);
    this.armed.set(toolUseId, cancel);
  }

  /**
   * Claude Code asks about this tool use: the answer decides whether it runs. Marked running
   * already (an ask slower than the grace), it shows as waiting again.
   */
  asked(toolUseId: string): void {
    this.armed.get(toolUseId)?.();
    this.armed.delete(toolUseId);
    const call = this.host.tools.get(toolUseId);
    if (!call?.runningUnasked) return;
    call.runningUnasked = false;
    if (call.status !== "in_progress") return;
    call.status = "pending";
    this.update(call, "pending");
  }

  /** The session closed: nothing more is sent. */
  close(): void {
    for (const cancel of this.armed.values()) cancel();
    this.armed.clear();
  }

  private markRunning(toolUseId: string): void {
    const call = this.host.tools.get(toolUseId);
    // Unknown, never shown (a plan tool), already running or ended: nothing to say.
    if (!call?.announced || call.status !== "pending") return;
    call.status = "in_progress";
    call.runningUnasked = true;
    this.update(call, "in_progress");
  }

  /** Not awaited: Claude Code waits for nothing, and the connection keeps updates in order. */
  private update(call: TrackedToolCall, status: "pending" | "in_progress"): void {
    void call.announced
      ?.then(() =>
        this.host.client
          .forThread(call.parentToolUseId)
          .updateToolCall({ toolCallId: call.id, status, _meta: claudeCodeMeta(call) }),
      )
      .catch((error: unknown) => log.warn(`could not mark tool call ${call.id} ${status}`, error));
  }
}
