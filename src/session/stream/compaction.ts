import { randomUUID } from "node:crypto";
import type { Compaction } from "../../acp/compaction.js";
import type { SystemMessage } from "../../claude/types.js";

/** One compaction as the client sees it: in progress, then done or failed (acp/compaction.ts). */
export type { Compaction };

export interface CompactionHost {
  report(compaction: Compaction): Promise<void>;
  /** The conversation now holds `tokens`: the context size falls to that. */
  compacted(tokens: number): Promise<void>;
}

const tokens = (count: number): string => count.toLocaleString("en-US");

/** How the agent's idle compaction is named ("done" in Claude Code's words for its own). */
export const IDLE_COMPACTION = {
  trigger: "idle",
  running: "Compacting while idle, before the prompt cache expires",
  done: "Compacted while idle, before the prompt cache expired",
  cancelled: "Idle compaction cancelled",
  cancelledWhy: "A prompt or a cancel stopped it; the conversation was not compacted.",
} as const;

/**
 * Follows Claude Code's compaction messages: `status: "compacting"` starts one, the
 * `compact_boundary` (pre and post token counts) ends it, `compact_result: "failed"` fails
 * it. Claude Code also replays the command's local output ("Compacted") as a user message;
 * that is not shown again, the boundary says it.
 */
export class CompactionWatcher {
  private running: string | undefined;
  /** The next compaction is the agent's idle one; whether a prompt stopped it. */
  private idle: { cancelled: boolean } | undefined;

  constructor(private readonly host: CompactionHost) {}

  /** The agent runs `/compact` because the session is idle: the compaction says so. */
  idleStarts(): void {
    this.idle = { cancelled: false };
  }

  /** A prompt stopped the idle compaction: its end says that, not that it failed. */
  idleCancelled(): void {
    if (this.idle) this.idle.cancelled = true;
  }

  /** The idle compaction's turn ended (whatever it did): later ones are the user's again. */
  idleEnded(): void {
    this.idle = undefined;
  }

  /** True when the message was about compaction and has been handled. */
  async observe(message: SystemMessage): Promise<boolean> {
    if (message.subtype === "compact_boundary") {
      const { trigger, pre_tokens, post_tokens } = message.compact_metadata;
      const id = this.running ?? randomUUID();
      this.running = undefined;
      const idle = this.idle;
      await this.host.report({
        id,
        status: "completed",
        title: idle ? IDLE_COMPACTION.done : "Compacted conversation",
        detail:
          post_tokens === undefined
            ? `${tokens(pre_tokens)} tokens before`
            : `${tokens(pre_tokens)} → ${tokens(post_tokens)} tokens`,
        meta: {
          trigger: idle ? IDLE_COMPACTION.trigger : trigger,
          preTokens: pre_tokens,
          ...(post_tokens === undefined ? {} : { postTokens: post_tokens }),
        },
      });
      if (post_tokens !== undefined) await this.host.compacted(post_tokens);
      return true;
    }
    if (message.subtype !== "status") return false;
    if (message.status === "compacting" && !this.running) {
      this.running = randomUUID();
      await this.host.report({
        id: this.running,
        status: "in_progress",
        title: this.idle ? IDLE_COMPACTION.running : "Compacting conversation",
        ...(this.idle ? { meta: { trigger: IDLE_COMPACTION.trigger } } : {}),
      });
    }
    if (message.compact_result === "failed") {
      const id = this.running ?? randomUUID();
      this.running = undefined;
      const cancelled = this.idle?.cancelled;
      await this.host.report({
        id,
        status: "failed",
        title: cancelled ? IDLE_COMPACTION.cancelled : "Compaction failed",
        error: cancelled
          ? IDLE_COMPACTION.cancelledWhy
          : message.compact_error || "Claude Code could not compact the conversation.",
        ...(this.idle ? { meta: { trigger: IDLE_COMPACTION.trigger } } : {}),
      });
    }
    // A status message may carry a mode change too: the caller goes on with it.
    return false;
  }
}
