import type { SessionClient } from "../../acp/session-client.js";
import { claudeCodeMeta } from "../../tools/tool-call.js";
import type { SessionTerminals } from "../background/terminals.js";
import type { TrackedToolCall } from "../stream/tool-calls.js";

/** Why a tool call that will get no result is closed (conventions.md). */
export const UNFINISHED = {
  cancelled: "The turn was cancelled before this tool call returned a result.",
  notRun: "Claude stopped this tool call before it ran.",
  noResult: "Claude ended the turn without returning a result for this tool.",
  subagentEnded: "The subagent ended without returning a result for this tool.",
  processEnded: "Claude Code ended before this tool call returned a result.",
} as const;

export interface UnfinishedHost {
  readonly client: SessionClient;
  readonly terminals: SessionTerminals;
  /** Sends an update; a client that went away is logged, not fatal. */
  send(update: () => Promise<void>): Promise<void>;
}

/** Closes tool calls that will get no result as failed, each saying why: none is left pending. */
export async function closeUnfinished(
  host: UnfinishedHost,
  calls: readonly TrackedToolCall[],
  reason: (call: TrackedToolCall) => string,
): Promise<void> {
  for (const call of calls) {
    const text = reason(call);
    call.status = "failed";
    const update = { toolCallId: call.id, status: "failed" as const };
    await host.send(async () => {
      if (await host.terminals.unfinished(call, update, text)) return;
      await host.client.forThread(call.parentToolUseId).updateToolCall({
        ...update,
        _meta: claudeCodeMeta(call),
        content: [{ type: "content", content: { type: "text", text } }],
      });
    });
  }
}
