import { randomUUID } from "node:crypto";
import type { SystemMessage } from "../../claude/types.js";

/**
 * One compaction of the conversation as the client sees it (`/compact`, or Claude Code's
 * automatic compaction when the context fills): in progress, then done or failed.
 */
export interface Compaction {
  id: string;
  status: "in_progress" | "completed" | "failed";
  /** Claude Code's words for it: "Compacting conversation", "Compacted conversation". */
  title: string;
  /** The sizes before and after, once known: "12,159 → 2,536 tokens". */
  detail?: string;
  error?: string;
  /** For clients that style it: `{trigger, preTokens, postTokens}`. */
  meta?: Record<string, unknown>;
}

export interface CompactionHost {
  report(compaction: Compaction): Promise<void>;
  /** The conversation now holds `tokens`: the context size falls to that. */
  compacted(tokens: number): Promise<void>;
}

const tokens = (count: number): string => count.toLocaleString("en-US");

/**
 * Follows Claude Code's compaction messages: `status: "compacting"` starts one, the
 * `compact_boundary` (pre and post token counts) ends it, `compact_result: "failed"` fails
 * it. Claude Code also replays the command's local output ("Compacted") as a user message;
 * that is not shown again, the boundary says it.
 */
export class CompactionWatcher {
  private running: string | undefined;

  constructor(private readonly host: CompactionHost) {}

  /** True when the message was about compaction and has been handled. */
  async observe(message: SystemMessage): Promise<boolean> {
    if (message.subtype === "compact_boundary") {
      const { trigger, pre_tokens, post_tokens } = message.compact_metadata;
      const id = this.running ?? randomUUID();
      this.running = undefined;
      await this.host.report({
        id,
        status: "completed",
        title: "Compacted conversation",
        detail:
          post_tokens === undefined
            ? `${tokens(pre_tokens)} tokens before`
            : `${tokens(pre_tokens)} → ${tokens(post_tokens)} tokens`,
        meta: {
          trigger,
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
        title: "Compacting conversation",
      });
    }
    if (message.compact_result === "failed") {
      const id = this.running ?? randomUUID();
      this.running = undefined;
      await this.host.report({
        id,
        status: "failed",
        title: "Compaction failed",
        error: message.compact_error || "Claude Code could not compact the conversation.",
      });
    }
    // A status message may carry a mode change too: the caller goes on with it.
    return false;
  }
}
