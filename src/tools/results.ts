import type { ToolCallStatus, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { cleanSingleLine } from "../util/text.js";
import { familyOf } from "./families.js";
import { defaultResult, literalResult } from "./result-content.js";
import type { ToolInput, ToolResultBlock } from "./types.js";

export type { ToolResultBlock } from "./types.js";
export { resultText as toolResultText } from "./result-content.js";
export { consoleBlock } from "./content.js";

/**
 * The final update of a tool call from its `tool_result` block and the structured
 * `tool_use_result`, rendered by the tool's family. Errors show their text literally.
 * `rawOutput` always carries the structured result, else the raw content.
 */
export function toolResultUpdate(
  call: { id: string; name: string; input?: ToolInput },
  block: ToolResultBlock,
  structured: unknown,
): ToolCallUpdate & { status: ToolCallStatus } {
  const failed = block.is_error === true;
  const family = familyOf(call.name);
  const render = failed ? (family.error ?? literalResult) : (family.result ?? defaultResult);
  const { title, content, locations } = render({
    name: call.name,
    input: call.input ?? {},
    block,
    structured,
  });
  const shownTitle = title ? cleanSingleLine(title) : "";
  return {
    toolCallId: call.id,
    status: failed ? "failed" : "completed",
    ...(shownTitle ? { title: shownTitle } : {}),
    ...(content.length ? { content } : {}),
    ...(locations?.length ? { locations } : {}),
    rawOutput: structured ?? block.content ?? null,
  };
}
