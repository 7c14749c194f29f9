import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { cleanMultiline } from "../util/text.js";

/**
 * Builders of tool-call content. Every text passes through cleanMultiline here, so no
 * renderer can forget it; fences are chosen after cleaning, since removing a control
 * character can join two runs of backticks.
 */

export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: cleanMultiline(text) } };
}

/** Text content, or nothing when the text is blank once cleaned. */
export function optionalText(text: string | undefined): ToolCallContent[] {
  const clean = text === undefined ? "" : cleanMultiline(text);
  return clean.trim() ? [{ type: "content", content: { type: "text", text: clean } }] : [];
}

/** A fenced block longer than any backtick run inside, so the text cannot end it. */
export function fence(text: string, info = ""): string {
  const clean = cleanMultiline(text);
  const longestRun = Math.max(2, ...[...clean.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = "`".repeat(longestRun + 1);
  return `${marks}${info}\n${clean.replace(/\n$/, "")}\n${marks}`;
}

/** Shown literally: markdown in the text does not render. */
export function fencedContent(text: string, info = ""): ToolCallContent {
  return { type: "content", content: { type: "text", text: fence(text, info) } };
}

/** Command output is shown as a console block. */
export function consoleBlock(output: string): string {
  return fence(output, "console");
}

export function diffContent(
  path: string,
  oldText: string | null,
  newText: string,
): ToolCallContent {
  return {
    type: "diff",
    // A label of the diff, whose texts are cleaned too: it cannot be left out.
    path: cleanMultiline(path),
    oldText: oldText === null ? null : cleanMultiline(oldText),
    newText: cleanMultiline(newText),
  };
}

export function imageContent(data: string, mimeType: string): ToolCallContent {
  return { type: "content", content: { type: "image", data, mimeType } };
}
