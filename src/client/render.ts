// Pure renderers: ACP data in, terminal lines out (no newline at the end of a line). A request
// box's own lines are request-box.ts.
import { isAbsolute, relative } from "node:path";
import type {
  ContentBlock,
  PlanEntry,
  SessionMode,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
} from "@agentclientprotocol/sdk";
import { diffLines, hunks, numberLines } from "./diff.js";
import { markdownLines } from "./markdown.js";
import { oneLine, sanitize, type Style } from "./style.js";
import type { TerminalExit, TerminalState, ToolCallState } from "./tool-calls.js";

export interface RenderContext {
  style: Style;
  /** The session's cwd: paths below it are shown relative. */
  cwd: string;
  /** The agent's home directory: paths below it (outside `cwd`) are shown as `~/…`. */
  home?: string;
  /** Terminal columns (the screen wraps longer lines; option lists wrap themselves). */
  width: number;
}

const MAX_TEXT_LINES = 12;
const MAX_DIFF_LINES = 40;

export function displayPath(path: string, cwd: string, home?: string): string {
  const clean = oneLine(path);
  if (!isAbsolute(clean)) return clean;
  const rel = relative(cwd, clean);
  if (rel === "") return ".";
  if (!rel.startsWith("..") && !isAbsolute(rel)) return rel;
  return home ? homeShort(clean, home) : clean;
}

/** Paths under `home` in a text (a title the agent wrote) as `~/…`, as shells show them. */
export function homeShort(text: string, home: string | undefined): string {
  if (!home || home === "/") return text;
  const prefix = home.endsWith("/") ? home : `${home}/`;
  return text.split(prefix).join("~/");
}

export function statusIcon(status: ToolCallStatus | undefined, style: Style): string {
  switch (status) {
    case "completed":
      return style.green("✓");
    case "failed":
      return style.red("✗");
    case "in_progress":
      return style.yellow("◐");
    default:
      return style.dim("○");
  }
}

const STATUS_WORDS: Record<ToolCallStatus, string> = {
  pending: "pending",
  in_progress: "running",
  completed: "completed",
  failed: "failed",
};

/** `● Title` then the locations (the ACP kind is for clients, not for people). */
export function toolHeaderLines(call: ToolCallState, ctx: RenderContext): string[] {
  const title = homeShort(oneLine(call.title), ctx.home) || "Tool call";
  return [`${ctx.style.cyan("●")} ${ctx.style.bold(title)}`].concat(
    locationLines(call.locations, ctx).map((l) => `  ${l}`),
  );
}

/**
 * `└ ✓ completed` (`└ ⊘ interrupted` for a call that failed because the user interrupted the
 * turn: what the agent says then is its rejection text, not news); with the title when other
 * lines came in between (`withTitle`) or when the title changed since the header.
 */
export function toolStatusLine(
  call: ToolCallState,
  ctx: RenderContext,
  withTitle = false,
  ending?: "interrupted" | "rejected",
): string {
  const title = homeShort(oneLine(call.title), ctx.home) || "Tool call";
  const renamed = title !== homeShort(oneLine(call.printedTitle), ctx.home);
  const word =
    ending === "rejected"
      ? "rejected, not run"
      : ending === "interrupted" && call.notRun
        ? "interrupted, not run"
        : (ending ?? STATUS_WORDS[call.status] ?? String(call.status));
  const icon =
    ending === "interrupted" ? ctx.style.yellow("⊘") : statusIcon(call.status, ctx.style);
  const { dim } = ctx.style;
  // A command that was not run has no exit: it never started.
  const exit =
    call.terminal?.exit && !(ending && call.notRun)
      ? ` ${dim("·")} ${exitText(call.terminal.exit, ctx)}`
      : "";
  if (renamed) return `  ${dim("└")} ${icon} ${dim(`${word}:`)} ${title}${exit}`;
  if (withTitle) return `  ${dim("└")} ${icon} ${title}${dim(`: ${word}`)}${exit}`;
  return `  ${dim("└")} ${icon} ${dim(word)}${exit}`;
}

/** `exit code 3` (red unless 0), `signal SIGKILL`, or `exited` when the agent does not know. */
export function exitText(exit: TerminalExit, ctx: RenderContext): string {
  const { dim, red } = ctx.style;
  if (exit.signal) return red(`signal ${oneLine(exit.signal)}`);
  if (exit.exitCode === null) return dim("exited");
  const text = `exit code ${exit.exitCode}`;
  return exit.exitCode === 0 ? dim(text) : red(text);
}

/** The end of a terminal that outlived its tool call (a background command). */
export function terminalEndLine(exit: TerminalExit, ctx: RenderContext): string {
  const ok = exit.exitCode === 0 && !exit.signal;
  const icon = ok ? ctx.style.green("✓") : ctx.style.red("✗");
  return `  ${ctx.style.dim("└")} ${icon} ${exitText(exit, ctx)}`;
}

/** The lines of a terminal's output: the last line only once it is complete, unless `all`. */
export function outputLines(terminal: TerminalState, all: boolean): string[] {
  const lines = sanitize(terminal.output).split("\n");
  const last = lines.pop() ?? "";
  if (all && last !== "") lines.push(last);
  return lines;
}

/**
 * A terminal's output under its call: `lines` (or their last `max`, after a line saying how
 * many came earlier), dim, behind a gutter.
 */
export function terminalLines(
  lines: readonly string[],
  earlier: number,
  ctx: RenderContext,
  max: number,
): string[] {
  const { dim } = ctx.style;
  const cut = Math.max(0, lines.length - max);
  const shown = lines.slice(cut).map((line) => `    ${dim("│")} ${dim(line)}`);
  const before = earlier + cut;
  return before > 0 ? [`    ${dim("│")} ${dim(`… ${before} earlier lines`)}`, ...shown] : shown;
}

export function locationLines(
  locations: readonly ToolCallLocation[],
  ctx: RenderContext,
): string[] {
  return locations
    .filter((l) => typeof l.path === "string" && l.path !== "")
    .map((l) => {
      const line = typeof l.line === "number" ? `:${l.line}` : "";
      return ctx.style.dim(`↳ ${displayPath(l.path, ctx.cwd, ctx.home) + line}`);
    });
}

/** Text as a block: code fences dropped, at most `max` lines. */
export function textLines(text: string, ctx: RenderContext, max = MAX_TEXT_LINES): string[] {
  const lines = sanitize(text)
    .split("\n")
    .filter((line) => !/^\s*```[\w-]*\s*$/.test(line));
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  const shown = lines.slice(0, max).map((line) => line);
  if (lines.length > max) shown.push(ctx.style.dim(`… ${lines.length - max} more lines`));
  return shown;
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image ${block.mimeType}]`;
    case "audio":
      return `[audio ${block.mimeType}]`;
    case "resource_link":
      return `[link ${block.title ?? block.name}: ${block.uri}]`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    default:
      return "";
  }
}

/**
 * A diff under its path, coloured: removed lines red `-`, added green `+`, context dim. With
 * `start` (the new text's first line in the file), context and added lines carry their line
 * number; a new file starts at line 1.
 */
export function diffBlockLines(
  path: string,
  oldText: string | null | undefined,
  newText: string,
  ctx: RenderContext,
  max = MAX_DIFF_LINES,
  start?: number,
): string[] {
  const { style } = ctx;
  const isNew = oldText === null || oldText === undefined;
  const header = `${style.bold(displayPath(path, ctx.cwd, ctx.home))}${isNew ? style.dim(" (new file)") : ""}`;
  const first = isNew ? 1 : start;
  const all = diffLines(oldText, newText);
  const lines = first === undefined ? all : numberLines(all, first);
  const last = lines.reduce((most, line) => Math.max(most, line.number ?? 0), 0);
  const digits = first === undefined ? 0 : String(last).length;
  const body = hunks(lines).map((line) => {
    if (line === null) return style.dim(`${" ".repeat(digits)}  ⋯`);
    const number = digits
      ? `${(line.number === undefined ? "" : String(line.number)).padStart(digits)} `
      : "";
    const text = `${number}${line.op} ${sanitize(line.text)}`;
    return line.op === "-"
      ? style.red(text)
      : line.op === "+"
        ? style.green(text)
        : style.dim(text);
  });
  const shown = body.slice(0, max);
  if (body.length > max) shown.push(style.dim(`… ${body.length - max} more diff lines`));
  return [header, ...shown];
}

/** Tool-call content: text blocks and diffs (a terminal's output is shown by the session view). */
export function contentLines(
  items: readonly ToolCallContent[],
  ctx: RenderContext,
  locations: readonly ToolCallLocation[] = [],
  markdown = false,
): string[] {
  const out: string[] = [];
  const diffsOf = new Map<string, number>();
  for (const item of items) {
    switch (item.type) {
      case "content":
        // Markdown (a plan to approve) is rendered whole, as the reply is.
        out.push(
          ...(markdown && item.content.type === "text"
            ? markdownLines(sanitize(item.content.text), ctx.style)
            : textLines(blockText(item.content), ctx)),
        );
        break;
      case "diff":
        {
          // The k-th diff of a file starts at the k-th line located in that file (one location
          // per hunk); without one, where a snippet sits in the file is not known.
          const k = diffsOf.get(item.path) ?? 0;
          diffsOf.set(item.path, k + 1);
          const start = locations.filter((l) => l.path === item.path && typeof l.line === "number")[
            k
          ]?.line;
          out.push(
            ...diffBlockLines(
              item.path,
              item.oldText,
              item.newText,
              ctx,
              MAX_DIFF_LINES,
              start ?? undefined,
            ),
          );
        }
        break;
      case "terminal":
        break; // its output comes in `_meta.terminal_output`, shown by the session view
      default:
        break; // a future content type: nothing we can show
    }
  }
  return out;
}

/** A mode switch's text is markdown: the plan ExitPlanMode asks to approve. */
export function isMarkdown(call: Pick<ToolCallState, "kind">): boolean {
  return call.kind === "switch_mode";
}

const PLAN_MARKS: Record<PlanEntry["status"], string> = {
  pending: "☐",
  in_progress: "◐",
  completed: "☑",
};

/**
 * The task list. `stopped`: its turn was interrupted or failed, so a task in progress is
 * shown as stopped, not as still being worked on.
 */
export function planLines(
  entries: readonly PlanEntry[],
  ctx: RenderContext,
  stopped = false,
): string[] {
  const { style } = ctx;
  const lines = [`${style.magenta("◆")} ${style.bold("Tasks")}`];
  for (const entry of entries) {
    if (stopped && entry.status === "in_progress") {
      lines.push(`  ${style.yellow(`⊘ ${oneLine(entry.content)}`)} ${style.dim("(stopped)")}`);
      continue;
    }
    const mark = PLAN_MARKS[entry.status] ?? "☐";
    const text = `${mark} ${oneLine(entry.content)}`;
    lines.push(
      `  ${entry.status === "completed" ? style.dim(text) : entry.status === "in_progress" ? style.yellow(text) : text}`,
    );
  }
  return lines;
}

export function modeLine(
  modeId: string,
  modes: readonly SessionMode[],
  ctx: RenderContext,
): string {
  const mode = modes.find((m) => m.id === modeId);
  const name = mode ? `${oneLine(mode.name)} (${oneLine(modeId)})` : oneLine(modeId);
  return `${ctx.style.magenta("◆")} Mode: ${ctx.style.bold(name)}`;
}
