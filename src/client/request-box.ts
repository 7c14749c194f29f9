// A request box's lines: the top of a permission box (the hints, the subject), the option list,
// and the gutter every request box has.
import type { PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import {
  contentLines,
  isMarkdown,
  locationLines,
  textLines,
  type RenderContext,
} from "./render.js";
import { oneLine, sanitize } from "./style.js";
import type { ToolCallState } from "./tool-calls.js";
import { columns } from "./text-width.js";
import { wrapText } from "./wrap.js";

/** The gutter of a request box. */
export const BAR = "│ ";

/** `_meta.permission` (extension v1): optional hints, used only when well-formed. */
export interface PermissionHints {
  title?: string;
  description?: string;
}

export function permissionHints(request: Pick<RequestPermissionRequest, "_meta">): PermissionHints {
  const meta: unknown = request._meta;
  const permission =
    typeof meta === "object" && meta !== null
      ? (meta as Record<string, unknown>).permission
      : undefined;
  if (typeof permission !== "object" || permission === null) return {};
  const { version, title, description } = permission as Record<string, unknown>;
  if (version !== 1) return {}; // a version we do not know: fall back to the standard fields
  const hints: PermissionHints = {};
  if (typeof title === "string" && oneLine(title) !== "") hints.title = oneLine(title);
  if (typeof description === "string" && description.trim() !== "") {
    hints.description = sanitize(description).trim();
  }
  return hints;
}

/**
 * The top of a permission box: the heading (the hint's title, else the tool call's), the
 * optional description, then the subject: the tool call with its content and locations.
 */
export function permissionLines(
  hints: PermissionHints,
  call: ToolCallState,
  ctx: RenderContext,
): string[] {
  const { style } = ctx;
  const heading = hints.title ?? (oneLine(call.title) || "Permission requested");
  const lines = [`${style.yellow("╭─")} ${style.bold(`Permission: ${heading}`)}`];
  if (hints.description) {
    lines.push(...textLines(hints.description, ctx, 4).map((l) => `${BAR}${style.dim(l)}`));
  }
  const subjectTitle = oneLine(call.title);
  if (subjectTitle && subjectTitle !== heading) lines.push(`${BAR}${subjectTitle}`);
  const diffPaths = new Set(call.content.flatMap((c) => (c.type === "diff" ? [c.path] : [])));
  const locations = call.locations.filter((l) => l.line != null || !diffPaths.has(l.path));
  for (const line of [
    ...locationLines(locations, ctx),
    ...contentLines(call.content, ctx, call.locations, isMarkdown(call)),
  ]) {
    lines.push(`${BAR}${line}`);
  }
  return lines;
}

/**
 * The numbered option list; `cursor` marks the highlighted one (interactive only). A long
 * label wraps under itself: it is never cut (a durable rule must be readable whole).
 */
export function optionLines(
  labels: ReadonlyArray<{ label: string; detail?: string }>,
  cursor: number | undefined,
  ctx: RenderContext,
  checked?: readonly boolean[],
): string[] {
  const { style } = ctx;
  return labels.flatMap((option, index) => {
    const here = index === cursor;
    const lead = `${BAR}${here ? "❯" : " "} ${index + 1}. ${checked ? (checked[index] ? "[x] " : "[ ] ") : ""}`;
    // A wrapped label stays inside the box: its rows keep the border.
    const indent = BAR + " ".repeat(columns(lead) - columns(BAR));
    const label = oneLine(option.label);
    const detail = option.detail ? ` — ${oneLine(option.detail)}` : "";
    // Wrapped as plain text, then styled: the label's characters bold, the detail's dim.
    let labelLeft = [...label].length;
    return wrapText(label + detail, ctx.width, lead, indent).map((row, i) => {
      const head = i === 0 ? lead : indent;
      const chars = [...row.slice(head.length)];
      const skipped = i === 0 ? 0 : 1; // the space the wrap dropped
      labelLeft = Math.max(0, labelLeft - skipped);
      const own = chars.slice(0, labelLeft).join("");
      const rest = chars.slice(labelLeft).join("");
      labelLeft = Math.max(0, labelLeft - [...own].length);
      const styledHead = i === 0 && here ? head.replace("❯", style.cyan("❯")) : head;
      return `${styledHead}${here ? style.cyan(style.bold(own)) : own}${style.dim(rest)}`;
    });
  });
}

/** Labels of permission options; the standard kind is shown in transcripts (no ids). */
export function permissionOptionLabels(
  options: readonly PermissionOption[],
  withKinds: boolean,
): Array<{ label: string; detail?: string }> {
  return options.map((o) => ({ label: o.name, ...(withKinds ? { detail: o.kind } : {}) }));
}
