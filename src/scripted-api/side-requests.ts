// Which /v1/messages requests are the agent loop (they consume the script) and which are
// Claude Code's side requests (answered neutrally, script untouched).
//
// Why this rule — traffic recorded from Claude Code 2.1.332 through query():
// - Main loop, subagents included (billing block says cc_is_subagent=true), any model,
//   any permission mode: a non-empty `tools` array, no `tool_choice`, stream: true.
// - Session title: `tools: []`, output_config.format json_schema {title}, system
//   "You are naming a coding session...".
// - Auto-mode permission classifier: no `tools` at all, non-streaming, max_tokens 64/8192,
//   stop_sequences ["</block>"], system "You are a security monitor...".
// - Compaction (/compact, auto-compact): sends the SAME tools and system as the main loop
//   (prompt-cache sharing), so structure cannot tell it apart; its last user message is
//   "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools. ... create a detailed summary
//   of the conversation so far ...". Hence the one content check below.
// - Structured side outputs force a tool (tool_choice {type:"tool"}), the main loop never does.
// - Prompt suggestion (Claude Code 2.1.336, a client that asked for it): like compaction, the
//   main loop's tools and system; its last user message opens with "[SUGGESTION MODE: ...]".
// Sizes (max_tokens) vary too much across models to be used.
import type { ClassifyInput } from "./types.js";
import { isRecord } from "../util/records.js";

const COMPACTION_PROMPT = /create a detailed summary of the conversation|Respond with TEXT ONLY/i;
const SUGGESTION_PROMPT = /^\[SUGGESTION MODE:/;

/** The tool a request forces, if any ({type:"tool"}, or {type:"any"} with a single tool). */
export function forcedToolName(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.tool_choice)) return undefined;
  const choice = body.tool_choice;
  if (choice.type === "tool" && typeof choice.name === "string") return choice.name;
  if (choice.type === "any" && Array.isArray(body.tools) && body.tools.length === 1) {
    const only: unknown = body.tools[0];
    if (isRecord(only) && typeof only.name === "string") return only.name;
  }
  return undefined;
}

function lastUserMessageText(body: Record<string, unknown>): string {
  if (!Array.isArray(body.messages)) return "";
  const last: unknown = body.messages.findLast((m) => isRecord(m) && m.role === "user");
  if (!isRecord(last)) return "";
  if (typeof last.content === "string") return last.content;
  if (!Array.isArray(last.content)) return "";
  return last.content
    .map((b) => (isRecord(b) && b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("\n");
}

export function isCompactionRequest(body: unknown): boolean {
  return isRecord(body) && COMPACTION_PROMPT.test(lastUserMessageText(body));
}

/** Claude Code asking the model for the user's likely next prompt. */
export function isPromptSuggestionRequest(body: unknown): boolean {
  return isRecord(body) && SUGGESTION_PROMPT.test(lastUserMessageText(body).trimStart());
}

/**
 * Default rule: main = offers tools, lets the model choose freely, and is neither a
 * compaction nor a prompt suggestion.
 */
export function classifyRequest(input: ClassifyInput): "main" | "side" {
  const body = input.body;
  if (!isRecord(body)) return "side";
  if (!Array.isArray(body.tools) || body.tools.length === 0) return "side";
  if (isRecord(body.tool_choice) && body.tool_choice.type === "none") return "side";
  if (forcedToolName(body) !== undefined) return "side";
  if (isCompactionRequest(body)) return "side";
  if (isPromptSuggestionRequest(body)) return "side";
  return "main";
}
