import { cleanMultiline } from "../../util/text.js";
import { fencedContent, optionalText } from "../content.js";
import { isRecord, stringField } from "../input.js";
import { defaultResult, resultText } from "../result-content.js";
import type { ResultRenderer, ToolFamily, ToolRenderer } from "../types.js";

/** The non-blank lines of a command, each with its runs of whitespace collapsed. */
function commandLines(command: string): string[] {
  return cleanMultiline(command)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "");
}

/**
 * A command as a one-line heading that hides none of it: runs of whitespace collapse
 * (padding cannot push the rest out of view), and a multi-line command shows its first
 * line and how many more follow, `echo ok … (+2 lines)`. Blank lines are not counted.
 */
export function shellTitle(command: string): string {
  const [first = "", ...rest] = commandLines(command);
  if (!rest.length) return first;
  return `${first} … (+${rest.length} ${rest.length === 1 ? "line" : "lines"})`;
}

/**
 * Bash and PowerShell: the command is the title, the description is the content. A
 * multi-line command, which the title abbreviates, is also shown whole in the content.
 */
const render: ToolRenderer = (input, _context, name) => {
  const command = stringField(input, "command") ?? "";
  const description =
    stringField(input, "description") ?? stringField(input, "command_description");
  const multiline = commandLines(command).length > 1;
  return {
    kind: "execute",
    title: command.trim() ? shellTitle(command) : "Terminal",
    content: [
      ...(multiline
        ? [fencedContent(command.trim(), name === "PowerShell" ? "powershell" : "sh")]
        : []),
      ...optionalText(description),
    ],
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

export const shellFamily: ToolFamily = { render, result, error: result };
