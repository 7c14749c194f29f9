import { optionalText, textContent } from "../content.js";
import { isRecord, nonBlankField, recordsField, stringField } from "../input.js";
import { defaultResult } from "../result-content.js";
import type { ResultRenderer, ToolFamily, ToolRenderer } from "../types.js";

/** The tools that launch a subagent: Agent, and Task on older CLIs. */
export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(["Agent", "Task"]);

/** Agent (Task on older CLIs): the description, its effort unless forked, the prompt. */
const render: ToolRenderer = (input) => {
  const description = nonBlankField(input, "description") ?? "Task";
  const effort = nonBlankField(input, "effort");
  const forked = stringField(input, "subagent_type") === "fork";
  return {
    kind: "think",
    title: effort && !forked ? `${description} (${effort} effort)` : description,
    content: optionalText(stringField(input, "prompt")),
    locations: [],
  };
};

/**
 * The subagent's report from the structured result; Claude's text wraps it in a
 * model-facing hand-back frame. A background launch has no report: its text is shown.
 */
const result: ResultRenderer = (view) => {
  const report = isRecord(view.structured)
    ? recordsField(view.structured, "content")
        .map((part) => (part.type === "text" ? (stringField(part, "text") ?? "") : ""))
        .filter((text) => text.trim())
        .join("\n\n")
    : "";
  return report ? { content: [textContent(report)] } : defaultResult(view);
};

export const agentFamily: ToolFamily = { render, result };
