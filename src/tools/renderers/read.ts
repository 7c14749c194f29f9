import { fencedContent, imageContent, textContent } from "../content.js";
import { isRecord, numberField, stringField } from "../input.js";
import { displayPath, locationOf } from "../paths.js";
import { defaultResult, literalResult, resultImages } from "../result-content.js";
import type { ResultRenderer, ToolFamily, ToolRenderer } from "../types.js";

/** The line range of a Read as the title shows it: " (A - B)" or " (from line N)". */
function rangeSuffix(offset: number | undefined, limit: number | undefined): string {
  if (limit !== undefined && limit > 0) {
    const first = offset ?? 1;
    return ` (${first} - ${first + limit - 1})`;
  }
  return offset ? ` (from line ${offset})` : "";
}

const render: ToolRenderer = (input, context) => {
  const filePath = stringField(input, "file_path");
  const offset = numberField(input, "offset");
  const pages = stringField(input, "pages");
  const range = pages?.trim()
    ? ` (pages ${pages})`
    : rangeSuffix(offset, numberField(input, "limit"));
  return {
    kind: "read",
    title: filePath ? `Read ${displayPath(filePath, context)}${range}` : "Read",
    content: [],
    locations: locationOf(filePath, context, Math.max(offset ?? 1, 1)),
  };
};

/** File lines numbered from `startLine`, as Claude saw them. */
function numberedLines(content: string, startLine: number): string {
  const lines = content.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const width = String(startLine + lines.length - 1).length;
  return lines.map((line, i) => `${String(startLine + i).padStart(width)}  ${line}`).join("\n");
}

/**
 * A text file is rebuilt from the structured result, line-numbered and fenced so that
 * markdown in the file shows as written (Claude's own text adds model-only notes).
 * Images pass through; PDFs become a placeholder; other shapes show Claude's text.
 */
const result: ResultRenderer = (view) => {
  const { structured, input } = view;
  const file = isRecord(structured) && isRecord(structured.file) ? structured.file : undefined;
  if (!isRecord(structured) || !file) return literalResult(view);
  switch (structured.type) {
    case "text": {
      const content = typeof file.content === "string" ? file.content : "";
      const startLine = numberField(file, "startLine") ?? 1;
      const numLines = numberField(file, "numLines");
      const totalLines = numberField(file, "totalLines");
      const wholeFile =
        numberField(input, "offset") === undefined && numberField(input, "limit") === undefined;
      const capped =
        file.truncatedByTokenCap === true ||
        (wholeFile && numLines !== undefined && totalLines !== undefined && numLines < totalLines);
      const note = capped
        ? [textContent(`[File truncated: showing ${numLines} of ${totalLines} lines]`)]
        : [];
      return {
        content: content ? [fencedContent(numberedLines(content, startLine)), ...note] : note,
      };
    }
    case "image": {
      const images = resultImages(view.block);
      if (images.length) return { content: images };
      const { base64, type } = file;
      if (typeof base64 === "string" && typeof type === "string") {
        return { content: [imageContent(base64, type)] };
      }
      return defaultResult(view);
    }
    case "pdf":
    case "parts": {
      const filePath = stringField(file, "filePath") ?? "PDF";
      return { content: [textContent(`[document ${filePath}]`), ...resultImages(view.block)] };
    }
    default:
      return literalResult(view);
  }
};

export const readFamily: ToolFamily = { render, result };
