import type { ToolCall } from "@agentclientprotocol/sdk";
import { toolInfoFromToolUse } from "./index.js";
import type { ToolContext, ToolInput } from "./types.js";
import { cleanSingleLine } from "../util/text.js";

export interface ToolUse {
  id: string;
  name: string;
  input: ToolInput;
  parentToolUseId: string | null;
}

/**
 * `_meta.claudeCode` on every tool call: the Claude tool name and, for subagents, the parent.
 * The name is cleaned: the model's response or an MCP server chooses it, and clients show it.
 */
export function claudeCodeMeta(toolUse: Pick<ToolUse, "name" | "parentToolUseId">): {
  claudeCode: { toolName: string; parentToolUseId?: string };
} {
  return {
    claudeCode: {
      toolName: cleanSingleLine(toolUse.name),
      ...(toolUse.parentToolUseId ? { parentToolUseId: toolUse.parentToolUseId } : {}),
    },
  };
}

/** `_meta` of a subagent's non-tool updates (its text, thoughts, plans), or undefined. */
export function subagentMeta(
  parentToolUseId: string | null,
): { claudeCode: { parentToolUseId: string } } | undefined {
  return parentToolUseId ? { claudeCode: { parentToolUseId } } : undefined;
}

/** The full ACP tool call for a tool use, as first announced or as put in a permission ask. */
export function toolCallFromToolUse(toolUse: ToolUse, context: ToolContext): ToolCall {
  const info = toolInfoFromToolUse(toolUse.name, toolUse.input, context);
  return {
    toolCallId: toolUse.id,
    ...info,
    status: "pending",
    rawInput: toolUse.input,
    _meta: claudeCodeMeta(toolUse),
  };
}
