import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { SDKUserMessage } from "../../claude/types.js";
import { cleanMultiline } from "../../util/text.js";

/** One message of a saved conversation, as the transcript reader returns it. */
export interface ReplayedMessage {
  type: string;
  /** Claude Code's id of the message: a prompt's is the one it was sent with. */
  uuid?: string;
  message: unknown;
  parent_tool_use_id: string | null;
  /** Who wrote a user message; absent in older transcripts, which hold only the user's. */
  origin?: { kind: string };
}

/**
 * Whether a saved user message holds the user's own words: not a subagent's prompt (its
 * parent's words, shown in its child session) and not one Claude Code wrote itself (a
 * background task's `<task-notification>`, a scheduled wake-up).
 */
function writtenByUser(message: ReplayedMessage): boolean {
  return !message.parent_tool_use_id && (message.origin?.kind ?? "human") === "human";
}

/** Markers Claude Code writes into the conversation when a turn was interrupted. */
const INTERRUPTION_MARKERS = new Set([
  "[Request interrupted by user]",
  "[Request interrupted by user for tool use]",
]);

/** Text Claude Code adds for the model only; not something the user wrote. */
export function isClaudeCodeNote(text: string): boolean {
  const trimmed = text.trim();
  return (
    INTERRUPTION_MARKERS.has(trimmed) ||
    (trimmed.startsWith("<system-reminder>") && trimmed.endsWith("</system-reminder>"))
  );
}

/**
 * What the user wrote in a saved user message, as the client is shown it again: its text
 * (cleaned, without Claude Code's notes) and images; none when someone else wrote it.
 * Undefined when the message holds no content at all.
 */
export function userWords(
  message: ReplayedMessage,
  user: SDKUserMessage["message"],
): ContentBlock[] | undefined {
  const content =
    typeof user.content === "string"
      ? [{ type: "text" as const, text: user.content }]
      : user.content;
  if (!Array.isArray(content)) return undefined;
  const words: ContentBlock[] = [];
  for (const block of writtenByUser(message) ? content : []) {
    if (block.type === "text" && !isClaudeCodeNote(block.text)) {
      words.push({ type: "text", text: cleanMultiline(block.text) });
    } else if (block.type === "image" && block.source.type === "base64") {
      const { data, media_type: mimeType } = block.source;
      words.push({ type: "image", data, mimeType });
    }
  }
  return words;
}
