import type { ToolCall, ToolCallStatus } from "@agentclientprotocol/sdk";
import type { ToolInput } from "../../tools/index.js";

/** What the session remembers of one Claude tool use between its updates. */
export interface TrackedToolCall {
  id: string;
  name: string;
  input: ToolInput;
  parentToolUseId: string | null;
  status: ToolCallStatus;
  /** Ends as completed whatever its result says (an internal rejection the client never sees). */
  completeSilently?: boolean;
  /** Refused before it ran: its result is Claude Code's note to the model, not its output. */
  notRun?: boolean;
  /** The message stream has shown this tool use (a permission ask may come before it). */
  streamed?: boolean;
  /** Settles once the `tool_call` announcement is on the wire. */
  announced?: Promise<void>;
}

/**
 * Whether the call reached its final status (completed or failed, its terminal exited):
 * nothing changes it afterwards, not even a result that comes after it was closed.
 */
export function hasEnded(call: TrackedToolCall): boolean {
  return call.status === "completed" || call.status === "failed";
}

/**
 * The session's tool calls by id. The announcement marker de-duplicates the eager
 * `tool_call` of a permission ask and the streamed one; a failed announcement drops
 * its marker so the other path can retry.
 */
export class ToolCallTracker {
  private readonly calls = new Map<string, TrackedToolCall>();

  constructor(
    /** How this client is first shown a tool call (a command as a terminal). */
    private readonly present: (toolCall: ToolCall, toolName: string) => ToolCall = (t) => t,
  ) {}

  get(id: string): TrackedToolCall | undefined {
    return this.calls.get(id);
  }

  /** Records a tool use (or refreshes its input) and returns its entry. */
  upsert(
    id: string,
    name: string,
    input: ToolInput,
    parentToolUseId: string | null,
  ): TrackedToolCall {
    const existing = this.calls.get(id);
    if (existing) {
      existing.name = name;
      existing.input = input;
      existing.parentToolUseId = parentToolUseId ?? existing.parentToolUseId;
      return existing;
    }
    const call: TrackedToolCall = { id, name, input, parentToolUseId, status: "pending" };
    this.calls.set(id, call);
    return call;
  }

  /**
   * Sends the `tool_call` once. Concurrent callers share one send; if it fails the
   * marker is removed and the error propagates, so a later caller sends again.
   */
  ensureAnnounced(
    call: TrackedToolCall,
    build: () => ToolCall,
    send: (toolCall: ToolCall) => Promise<void>,
  ): Promise<void> {
    if (call.announced) return call.announced;
    const announced = send(this.present(build(), call.name)).catch((error: unknown) => {
      if (call.announced === announced) call.announced = undefined;
      throw error;
    });
    call.announced = announced;
    return announced;
  }

  /** Tool calls that have not reached a final status, oldest first. */
  open(): TrackedToolCall[] {
    return [...this.calls.values()].filter((call) => call.announced && !hasEnded(call));
  }

  /** The call's result is internal: the client sees it completed, without its text. */
  completeSilently(id: string): void {
    const call = this.calls.get(id);
    if (call) call.completeSilently = true;
  }

  forget(id: string): void {
    this.calls.delete(id);
  }
}
