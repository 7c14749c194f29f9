import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { fencedContent, imageContent, textContent } from "./content.js";
import { isRecord } from "./input.js";
import type { ResultRenderer, ToolResultBlock, ToolResultPart } from "./types.js";

// Notes Claude Code adds for the model only; a user should not see them.
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
const TOOL_USE_ERROR = /^\s*<tool_use_error>([\s\S]*)<\/tool_use_error>\s*$/;

function partText(part: ToolResultPart): string {
  return part.type === "text" && typeof part.text === "string" ? part.text : "";
}

/** Text of a tool result, whichever shape Claude Code used, without model-only notes. */
export function resultText(block: ToolResultBlock): string {
  const { content } = block;
  const raw =
    typeof content === "string"
      ? content
      : (content ?? []).map(partText).filter(Boolean).join("\n");
  const text = raw.replace(SYSTEM_REMINDER, "").trim();
  return TOOL_USE_ERROR.exec(text)?.[1]?.trim() ?? text;
}

/** A base64 image part of a tool result as ACP image content. */
export function imagePart(part: ToolResultPart): ToolCallContent | undefined {
  if (part.type !== "image" || !isRecord(part.source)) return undefined;
  const { type, data, media_type: mimeType } = part.source;
  if (type !== "base64" || typeof data !== "string" || typeof mimeType !== "string") return;
  return imageContent(data, mimeType);
}

/** The images of a tool result, in order. */
export function resultImages(block: ToolResultBlock): ToolCallContent[] {
  if (typeof block.content === "string" || !block.content) return [];
  return block.content.flatMap((part) => imagePart(part) ?? []);
}

/**
 * A result as Claude Code wrote it: text as text (tool output such as an MCP answer or a
 * subagent report is often markdown), images as images, documents as a placeholder.
 */
export const defaultResult: ResultRenderer = ({ block }) => {
  if (typeof block.content === "string" || !block.content) {
    const text = resultText(block);
    return { content: text ? [textContent(text)] : [] };
  }
  const content: ToolCallContent[] = [];
  for (const part of block.content) {
    const text = resultText({ tool_use_id: block.tool_use_id, content: [part] });
    if (text) content.push(textContent(text));
    else if (part.type === "image") content.push(imagePart(part) ?? textContent("[image]"));
    else if (part.type === "document") content.push(textContent("[document]"));
  }
  return { content };
};

/** A result as plain text shown literally: file lists and search output are not markdown. */
export const literalResult: ResultRenderer = ({ block }) => {
  const text = resultText(block);
  return { content: [...(text ? [fencedContent(text)] : []), ...resultImages(block)] };
};
