// `/usage` as Claude Code's terminal UI shows it to a subscriber. Claude Code's own reply
// lists the plan's windows when it can read them from claude.ai (a login with the profile
// scope); otherwise it prints the session's cost alone, while its terminal UI still shows
// the windows the replies' rate-limit headers reported. The reply then gains those.
import {
  SYNTHETIC_MODEL,
  type RateLimitInfo,
  type SDKAssistantMessage,
  type SDKResultMessage,
} from "../../claude/types.js";
import { windowLine } from "./rate-limits.js";

/** The command whose reply this completes, as Claude Code names it on the result. */
const USAGE = "usage";

export class UsageCommand {
  /** The last reply Claude Code made up itself: a local command's, maybe `/usage`'s. */
  private reply: { messageId: string; listsWindows: boolean } | undefined;

  /** Each main-thread assistant message. */
  observe(message: SDKAssistantMessage): void {
    if (message.message.model !== SYNTHETIC_MODEL || message.error) return;
    this.reply = {
      messageId: message.message.id,
      listsWindows: (message.usage_report?.rate_limits?.limits?.length ?? 0) > 0,
    };
  }

  /**
   * At a turn's result: when it was `/usage` and Claude Code listed no window, the windows
   * the replies reported, as text for the same message.
   */
  addendum(
    result: SDKResultMessage,
    windows: readonly RateLimitInfo[],
    now: Date = new Date(),
  ): { text: string; messageId: string } | undefined {
    const reply = this.reply;
    this.reply = undefined;
    if (result.subtype !== "success" || result.local_command !== USAGE) return undefined;
    if (!reply || reply.listsWindows) return undefined;
    const lines = windows.map((info) => windowLine(info, now)).filter(Boolean);
    if (lines.length === 0) return undefined;
    const text = ["", "", "Plan limits, as the last replies reported them:", ...lines].join("\n");
    return { text, messageId: reply.messageId };
  }
}
