import { z } from "zod";
import type { ClaudeTranscriptMessage } from "../transcripts.js";

/** What a saved message says that a fork point reads: its API id and its blocks' ids. */
const saved = z
  .object({
    id: z.string().optional(),
    content: z
      .union([
        z.string(),
        z.array(
          z.looseObject({
            type: z.string(),
            id: z.string().optional(),
            tool_use_id: z.string().optional(),
          }),
        ),
      ])
      .optional(),
  })
  .catch({});

const blocks = (message: ClaudeTranscriptMessage) => {
  const content = saved.parse(message.message).content;
  return Array.isArray(content) ? content : [];
};

/** The API's id of one of Claude's messages (each of its blocks is saved on its own). */
const apiId = (message: ClaudeTranscriptMessage) =>
  message.type === "assistant" ? saved.parse(message.message).id : undefined;

/**
 * Where a conversation forked at the message a client names ends: the id (Claude Code's) of
 * the message's last saved entry, or of the tool results that answer it, so that the fork
 * keeps the message whole and no tool call without its result. `messageId` is what the
 * client was shown: the API's id of one of Claude's messages, or Claude Code's id of a user
 * message. Undefined when the conversation holds no such message.
 */
export function forkPoint(
  messages: readonly ClaudeTranscriptMessage[],
  messageId: string,
): string | undefined {
  const named = (m: ClaudeTranscriptMessage) => m.uuid === messageId || apiId(m) === messageId;
  let at = messages.findLastIndex(named);
  if (at < 0) return undefined;
  const calls = new Set(
    messages
      .filter(named)
      .flatMap((m) => blocks(m).flatMap((b) => (b.type === "tool_use" && b.id ? [b.id] : []))),
  );
  const answers = (m: ClaudeTranscriptMessage | undefined) => {
    const results = m?.type === "user" ? blocks(m) : [];
    return (
      results.length > 0 &&
      results.every((b) => b.type === "tool_result" && b.tool_use_id && calls.has(b.tool_use_id))
    );
  };
  while (calls.size && answers(messages[at + 1])) at += 1;
  return messages[at]!.uuid;
}

/**
 * How many messages a client was shown of these: each prompt (a user message that is not
 * tool results) and each of Claude's messages (its blocks, saved apart, count once).
 */
export function shownMessageCount(messages: readonly ClaudeTranscriptMessage[]): number {
  const claude = new Set<string>();
  let prompts = 0;
  for (const message of messages) {
    if (message.type === "assistant") claude.add(apiId(message) ?? message.uuid);
    else if (isPrompt(message)) prompts += 1;
  }
  return prompts + claude.size;
}

/** A user message the user wrote (not the results of tool calls). */
export function isPrompt(message: ClaudeTranscriptMessage): boolean {
  if (message.type !== "user") return false;
  const content = saved.parse(message.message).content;
  return !Array.isArray(content) || content.some((block) => block.type !== "tool_result");
}
