import { signInHint } from "../mcp/command.js";
import type { SystemMessage } from "./consumer.js";

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

/**
 * An MCP server that failed to start (with Claude Code's reason) or needs authentication:
 * a warning, since the session goes on without its tools.
 */
export function mcpServerNotice(server: {
  name: string;
  status: string;
  error?: string | undefined;
}): ClaudeNotice {
  const needsAuth = server.status === "needs-auth";
  return {
    kind: needsAuth ? "mcp_server_needs_auth" : "mcp_server_failed",
    severity: "warning",
    title: `MCP server ${server.name} ${needsAuth ? "needs authentication" : "failed"}`,
    description: [server.error, needsAuth ? signInHint(server.name) : MCP_STATUS_HINT]
      .filter(Boolean)
      .join("\n"),
  };
}

/** Where the user sees every server's state. */
export const MCP_STATUS_HINT = "`/mcp` shows every server.";

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
