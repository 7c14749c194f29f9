import { basename, dirname, isAbsolute, normalize } from "node:path";
import type { ToolCall, ToolCallContent, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { cleanMultiline } from "../../util/text.js";
import { isRecord } from "../input.js";
import { resultText } from "../result-content.js";
import type { ToolResultBlock } from "../types.js";

/**
 * A shell command as a terminal, for clients that declare `_meta.terminal_output` (Zed,
 * the ACP registry) or `_meta.terminal_output_delta`. The wire shapes are the ones those
 * clients parse: the terminal id is the tool use id, keys are snake_case, and the output
 * keys carry `{terminal_id, data}`. Pure builders; the session sends them.
 */

/** The `_meta` key a client reads command output from. */
export type TerminalOutputKey = "terminal_output" | "terminal_output_delta";

/** Claude Code's tools that run a command. */
export const TERMINAL_TOOLS: ReadonlySet<string> = new Set(["Bash", "PowerShell"]);

/** How a command ended; `null` where Claude Code does not say. */
export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/**
 * The output key the client declared in `clientCapabilities._meta`, or undefined: the
 * client shows commands as today's console blocks. Clients append what each update
 * carries (Zed writes `terminal_output` data into its terminal), so both keys carry only
 * output not sent before; a client that declares deltas gets them under their own key.
 */
export function terminalOutputKey(clientMeta: unknown): TerminalOutputKey | undefined {
  if (!isRecord(clientMeta)) return undefined;
  if (clientMeta.terminal_output_delta === true) return "terminal_output_delta";
  if (clientMeta.terminal_output === true) return "terminal_output";
  return undefined;
}

export function runsInTerminal(toolName: string): boolean {
  return TERMINAL_TOOLS.has(toolName);
}

/** The tool call's content: the terminal, whose id is the tool use id. */
export function terminalContent(toolCallId: string): ToolCallContent[] {
  return [{ type: "terminal", terminalId: toolCallId }];
}

/**
 * The first `tool_call` of a command: its content is the terminal and `_meta.terminal_info`
 * asks the client to open one (a client rejects content naming a terminal it does not know).
 */
export function terminalToolCall(toolCall: ToolCall, cwd: string): ToolCall {
  return {
    ...toolCall,
    content: terminalContent(toolCall.toolCallId),
    _meta: {
      ...toolCall._meta,
      terminal_info: { terminal_id: toolCall.toolCallId, cwd },
    },
  };
}

/** `_meta` carrying output: `{[key]: {terminal_id, data}}`. */
export function terminalOutputMeta(
  toolCallId: string,
  key: TerminalOutputKey,
  data: string,
): Record<string, unknown> {
  return { [key]: { terminal_id: toolCallId, data } };
}

/** `_meta` ending the terminal: `{terminal_exit: {terminal_id, exit_code, signal}}`. */
export function terminalExitMeta(toolCallId: string, exit: TerminalExit): Record<string, unknown> {
  return {
    terminal_exit: { terminal_id: toolCallId, exit_code: exit.exitCode, signal: exit.signal },
  };
}

// Claude Code starts a failed command's result with its exit code.
const EXIT_CODE_LINE = /^Exit code (\d+)\s*(?:\n|$)/;

/**
 * What a finished command printed and how it ended, from its `tool_result`: the structured
 * stdout/stderr when Claude Code gives them, else the result text without the exit code
 * line (which goes in the exit) or model-only notes. A success exited 0; a failure with
 * an exit code line exited with it; any other failure (interrupted, not run) has no code.
 * Claude Code's text is the output without its leading blank lines and trailing whitespace;
 * of a long output it is a preview, and `savedOutput` names the file that holds it whole.
 */
export function commandResult(
  block: ToolResultBlock,
  structured: unknown,
): { output: string; exit: TerminalExit; savedOutput?: string } {
  const failed = block.is_error === true;
  const text = resultText(block);
  const code = failed ? EXIT_CODE_LINE.exec(text) : null;
  let output = code ? text.slice(code[0].length) : text;
  let savedOutput: string | undefined;
  if (isRecord(structured) && structured.isImage === true) {
    // The output is the image, shown as content: no base64 in the terminal.
    output = "";
  } else if (isRecord(structured) && typeof structured.stdout === "string") {
    const stderr = typeof structured.stderr === "string" ? structured.stderr : "";
    output = [structured.stdout, stderr].filter((part) => part.trim()).join("\n");
    savedOutput = savedOutputFile(structured.persistedOutputPath);
  }
  const interrupted = isRecord(structured) && structured.interrupted === true;
  const exitCode = code ? Number(code[1]) : failed || interrupted ? null : 0;
  return {
    output: cleanMultiline(output),
    exit: { exitCode, signal: null },
    ...(savedOutput !== undefined && { savedOutput }),
  };
}

/** A command Claude Code moved to the background: its task id and the file its output grows in. */
export interface BackgroundCommand {
  taskId: string;
  outputFile: string;
}

/** Claude Code's task ids: letters and digits, nothing that could name a directory. */
const TASK_ID = /^[A-Za-z0-9_-]+$/;
// eslint-disable-next-line no-control-regex -- a line break or control character in a path
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Claude Code saves a long output as `…/tool-results/<id>.txt`; nothing else is read. */
const SAVED_OUTPUT_NAME = /^[A-Za-z0-9_-]+\.txt$/;

function savedOutputFile(path: unknown): string | undefined {
  if (typeof path !== "string" || !isAbsolute(path) || normalize(path) !== path) return undefined;
  if (CONTROL_CHARACTER.test(path) || !SAVED_OUTPUT_NAME.test(basename(path))) return undefined;
  return basename(dirname(path)) === "tool-results" ? path : undefined;
}

/**
 * The background task of a command's result, when the command went on in the background
 * (`run_in_background`, or a timeout moved it there): the structured result names it (the
 * main thread's), or else Claude Code's task events did (`knownTask`, a subagent's command,
 * whose result has no structured part). The output file is named in the result text Claude
 * Code writes for the model, after what the command printed: the last naming counts (a
 * command cannot name another file before it), and only an absolute, normalized path to the
 * task's own `<task id>.output` is followed.
 */
export function backgroundCommand(
  block: ToolResultBlock,
  structured: unknown,
  knownTask?: string,
): BackgroundCommand | undefined {
  const named = isRecord(structured) ? structured.backgroundTaskId : undefined;
  const taskId = typeof named === "string" ? named : knownTask;
  if (taskId === undefined || !TASK_ID.test(taskId)) return undefined;
  const text = resultText(block);
  const marker = "Output is being written to: ";
  const start = text.lastIndexOf(marker);
  if (start < 0) return undefined;
  const name = `${taskId}.output`;
  const end = text.indexOf(name, start);
  if (end < 0) return undefined;
  const outputFile = text.slice(start + marker.length, end + name.length);
  const followed =
    isAbsolute(outputFile) &&
    normalize(outputFile) === outputFile &&
    basename(outputFile) === name &&
    !CONTROL_CHARACTER.test(outputFile);
  return followed ? { taskId, outputFile } : undefined;
}

// Claude Code ends a background command's output file with this line; the exit is sent apart.
const EXIT_NOTE = /\n?\[exited with code -?\d+\]\n?$/;

/** A piece of a background command's output file without Claude Code's closing note. */
export function withoutExitNote(data: string): string {
  return data.replace(EXIT_NOTE, "");
}

/**
 * How a background command ended, from its task notification: the exit code its summary
 * names ("… completed (exit code 0)"), else 0 for a completion and unknown otherwise.
 */
export function backgroundExit(
  status: "completed" | "failed" | "stopped",
  summary: string,
): TerminalExit {
  const code = /\(exit code (\d+)\)/.exec(summary);
  if (code) return { exitCode: Number(code[1]), signal: null };
  return { exitCode: status === "completed" ? 0 : null, signal: null };
}

/**
 * The final update of a command shown as a terminal: the terminal stays the content, the
 * exit (absent while the command goes on in the background) in `_meta.terminal_exit`.
 */
export function terminalResultUpdate(
  update: ToolCallUpdate,
  meta: Record<string, unknown>,
  exit: TerminalExit | undefined,
): ToolCallUpdate {
  const images = (update.content ?? []).filter(
    (item) => item.type === "content" && item.content.type === "image",
  );
  return {
    ...update,
    content: [...terminalContent(update.toolCallId), ...images],
    _meta: { ...meta, ...(exit ? terminalExitMeta(update.toolCallId, exit) : {}) },
  };
}
