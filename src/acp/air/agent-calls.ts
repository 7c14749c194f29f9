// AIR's child sessions show a subagent's work, so the Agent (or Task) call that launched it is
// not shown in its parent, as AIR and the published adapter do. Two calls are shown still: a
// launch that asks the user is shown before the ask, and a launch that failed before any child
// session began is shown once, as a failed call (otherwise the failure would be lost).
import type { ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { isRecord } from "../../util/records.js";
import { toolNameOf } from "./tool-calls.js";

const LAUNCH_TOOLS: ReadonlySet<string> = new Set(["Agent", "Task"]);

/** What to do with an update of a launch call. */
export type LaunchUpdate = { send: true } | { send: false } | { announce: ToolCall };

export class HiddenAgentCalls {
  /** The launches held back, each as it would be announced now. */
  private readonly held = new Map<string, ToolCall>();

  constructor(
    /** Whether the client shows subagents in AIR's form. */
    private readonly hides: boolean,
    /** Whether a child session began for the thread a launch call names. */
    private readonly hasChild: (thread: string) => boolean,
  ) {}

  /** A call's announcement: true when it is held back. */
  hold(toolCall: ToolCall): boolean {
    if (!this.hides || !LAUNCH_TOOLS.has(toolNameOf(toolCall) ?? "")) return false;
    this.held.set(toolCall.toolCallId, toolCall);
    return true;
  }

  /**
   * An update: sent as it is (a call not held), dropped (a held launch, its work shown in its
   * child), or announced at last (a held launch that failed with no child), merged.
   */
  update(update: ToolCallUpdate): LaunchUpdate {
    const held = this.held.get(update.toolCallId);
    if (!held) return { send: true };
    const ended = update.status === "completed" || update.status === "failed";
    if (!ended) {
      this.held.set(update.toolCallId, merged(held, update));
      return { send: false };
    }
    this.held.delete(update.toolCallId);
    if (update.status === "completed" || this.hasChild(update.toolCallId)) return { send: false };
    return { announce: merged(held, update) };
  }

  /** A launch the user is asked about: its announcement, shown from now on; else undefined. */
  release(toolCallId: string): ToolCall | undefined {
    const held = this.held.get(toolCallId);
    this.held.delete(toolCallId);
    return held;
  }
}

/** A held announcement with an update's fields, its `_meta` merged. */
function merged(held: ToolCall, update: ToolCallUpdate): ToolCall {
  const meta = { ...(isRecord(held._meta) ? held._meta : {}), ...(update._meta ?? {}) };
  const fields: Partial<ToolCall> = Object.fromEntries(
    Object.entries(update).filter(([, value]) => value !== undefined && value !== null),
  );
  return { ...held, ...fields, _meta: meta };
}

/** A launch shown as an ordinary call (its failure): without AIR's `subagent` mark. */
export function ordinaryCall<T extends ToolCall>(toolCall: T): T {
  const meta = isRecord(toolCall._meta) ? toolCall._meta : undefined;
  const jetbrains = isRecord(meta?.jetbrains) ? meta.jetbrains : undefined;
  const air = isRecord(jetbrains?.air) ? jetbrains.air : undefined;
  if (!air || !("subagent" in air)) return toolCall;
  const { subagent: _subagent, ...rest } = air;
  return { ...toolCall, _meta: { ...meta, jetbrains: { ...jetbrains, air: rest } } };
}
