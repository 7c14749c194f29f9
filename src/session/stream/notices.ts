import { NOT_APPLIED, type IgnoredOption } from "../../claude/client-options/not-applied.js";
import type { SDKResultMessage, SystemMessage } from "../../claude/types.js";

/**
 * Something Claude Code tells the user apart from Claude's reply (a retry, a banner, a
 * failed MCP server), as its terminal UI shows it. Severity follows the meaning: a retry
 * or a fallback is a warning, a failure that ends a turn an error.
 */
export interface ClaudeNotice {
  /** What it is, for clients that style it (`_meta.claudeCode.kind`). */
  kind: string;
  severity: "info" | "warning" | "error";
  /** Stands alone: one line. */
  title: string;
  description?: string;
}

/** The notice a system message carries, if any. */
export function noticeOf(message: SystemMessage): ClaudeNotice | undefined {
  switch (message.subtype) {
    case "api_retry": {
      const seconds = Math.max(1, Math.round(message.retry_delay_ms / 1000));
      const cause =
        message.error_status === null
          ? `Connection error (${message.error})`
          : `API error ${message.error_status} (${message.error})`;
      return {
        kind: "api_retry",
        severity: "warning",
        title: `Retrying in ${seconds}s (attempt ${message.attempt}/${message.max_retries})`,
        description: cause,
      };
    }
    case "informational":
      return textNotice(
        "informational",
        message.level === "warning" ? "warning" : "info",
        message.content,
      );
    case "notification":
      return textNotice(
        "notification",
        message.priority === "high" || message.priority === "immediate" ? "warning" : "info",
        message.text,
      );
    case "model_refusal_fallback":
    case "model_refusal_no_fallback":
      return textNotice(message.subtype, "warning", message.content);
    case "hook_response":
      if (message.outcome !== "error") return undefined;
      return {
        kind: "hook",
        severity: "warning",
        title: `${message.hook_event} hook ${message.hook_name} failed`,
        ...optional(message.stderr || message.output || message.stdout),
      };
    default:
      return undefined;
  }
}

/** A turn Claude Code started itself failed: no prompt carries the error, so a notice does. */
export function turnFailedNotice(text: string): ClaudeNotice {
  return (
    textNotice("turn_error", "error", text) ?? {
      kind: "turn_error",
      severity: "error",
      title: "Claude Code ended a turn with an error.",
    }
  );
}

/** The session's Claude Code did not start: said at once, before any prompt fails with it. */
export function startFailedNotice(message: string): ClaudeNotice {
  return { kind: "start_error", severity: "error", title: message };
}

/** First line as the title, the rest as the description; nothing for blank text. */
function textNotice(
  kind: string,
  severity: ClaudeNotice["severity"],
  text: string,
): ClaudeNotice | undefined {
  const [first = "", ...rest] = text.trim().split("\n");
  if (!first.trim()) return undefined;
  return { kind, severity, title: first.trim(), ...optional(rest.join("\n")) };
}

function optional(description: string): { description?: string } {
  return description.trim() ? { description: description.trim() } : {};
}

/** At most this many ignored options are named in the notice; the rest are counted. */
const MAX_NAMED_OPTIONS = 20;

/** The options a client set that the session does not apply, and why, told once at its start. */
export function ignoredOptionsNotice(ignored: readonly IgnoredOption[]): ClaudeNotice {
  const named = ignored.slice(0, MAX_NAMED_OPTIONS);
  const more = ignored.length - named.length;
  const lines = named.map(({ name, reason }) => `${name}: ${NOT_APPLIED[reason]}`);
  if (more > 0) lines.push(`and ${more} more`);
  return {
    kind: "options_ignored",
    severity: "warning",
    title: `${ignored.length === 1 ? "One option" : `${ignored.length} options`} of the session not applied`,
    description: lines.join("\n"),
  };
}

/**
 * A turn Claude Code ended at one of the limits the client set (`maxTurns`,
 * `maxBudgetUsd`): the prompt ends with a stop reason, and this says why.
 */
export function limitNotice(
  result: SDKResultMessage,
  limits: { maxTurns?: number | undefined; maxBudgetUsd?: number | undefined },
): ClaudeNotice | undefined {
  switch (result.subtype) {
    case "error_max_turns":
      return {
        kind: "max_turns",
        severity: "warning",
        title: `Stopped after ${result.num_turns} turns: the session's limit${limits.maxTurns ? ` of ${limits.maxTurns}` : ""} (maxTurns) is reached.`,
      };
    case "error_max_budget_usd":
      return {
        kind: "max_budget",
        severity: "warning",
        title: `Stopped: the session's budget${limits.maxBudgetUsd ? ` of $${limits.maxBudgetUsd}` : ""} (maxBudgetUsd) is spent; it has cost $${result.total_cost_usd.toFixed(2)}.`,
      };
    default:
      return undefined;
  }
}
