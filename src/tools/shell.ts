import { fencedContent, optionalText } from "./content.js";
import { isRecord, stringField } from "./input.js";
import { defaultResult, resultText } from "./result-content.js";
import type { ResultRenderer, ToolFamily, ToolRenderer } from "./types.js";

/** Bash and PowerShell: the command is the title, the description is the content. */
const render: ToolRenderer = (input) => {
  const command = stringField(input, "command");
  const description =
    stringField(input, "description") ?? stringField(input, "command_description");
  return {
    kind: "execute",
    title: command?.trim() ? command : "Terminal",
    content: optionalText(description),
    locations: [],
  };
};

/**
 * Output as a console block. Built from the structured stdout/stderr when Claude Code
 * gives them (its text adds model-facing notes such as "(Bash completed with no output)");
 * a backgrounded command's text says where the output goes, so that text is kept.
 * Image output passes through as images.
 */
const result: ResultRenderer = (view) => {
  const { block, structured } = view;
  if (isRecord(structured) && structured.isImage === true) return defaultResult(view);
  let output = resultText(block);
  if (
    isRecord(structured) &&
    typeof structured.stdout === "string" &&
    structured.backgroundTaskId === undefined
  ) {
    const stderr = typeof structured.stderr === "string" ? structured.stderr : "";
    output = [structured.stdout, stderr].filter((part) => part.trim()).join("\n");
  }
  return { content: output.trim() ? [fencedContent(output, "console")] : [] };
};

export const shellFamily: ToolFamily = { render, result, error: result, multilineTitle: true };
