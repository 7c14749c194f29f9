import { optionalText } from "../content.js";
import { isRecord, stringField } from "../input.js";
import { defaultResult } from "../result-content.js";
import type { ResultRenderer, ToolFamily, ToolRenderer } from "../types.js";

/** ExitPlanMode asks to approve the plan it carries; EnterPlanMode switches to planning. */
const render: ToolRenderer = (input, _context, name) =>
  name === "ExitPlanMode"
    ? {
        kind: "switch_mode",
        title: "Approve Plan",
        content: optionalText(stringField(input, "plan")),
        locations: [],
      }
    : { kind: "switch_mode", title: "Enter plan mode", content: [], locations: [] };

/**
 * An approved plan: the title says so and the plan stays as content. Entering plan mode:
 * the structured message, without the model-facing instructions of Claude's text.
 */
const result: ResultRenderer = (view) => {
  if (view.name === "ExitPlanMode") return { title: "Exited Plan Mode", content: [] };
  const message = isRecord(view.structured) ? stringField(view.structured, "message") : undefined;
  return message?.trim() ? { content: optionalText(message) } : defaultResult(view);
};

export const planFamily: ToolFamily = { render, result };
