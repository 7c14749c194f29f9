import type {
  ToolCall,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolCallUpdate,
  ToolKind,
} from "@agentclientprotocol/sdk";

/** Output kept of one terminal: its end, whole lines before it are counted, not kept. */
const TERMINAL_KEEP_CHARS = 64 * 1024;

/** How a command shown as a terminal ended (`_meta.terminal_exit`). */
export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** Why a call did not run: the user rejected it, or cancelled its permission box. */
export type NotRun = "rejected" | "cancelled";

/** A command's terminal (`_meta.terminal_output` / `terminal_output_delta`, `terminal_exit`). */
export interface TerminalState {
  /** The output kept (its last part). */
  output: string;
  /** Lines dropped from the front of `output` to bound it. */
  dropped: number;
  exit: TerminalExit | undefined;
  /** Complete lines already printed for good (in a pipe, where nothing is redrawn). */
  printed: number;
}

/** What the client knows of one tool call: every field the agent sent so far, merged. */
export interface ToolCallState {
  id: string;
  title: string;
  kind: ToolKind | undefined;
  status: ToolCallStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput: unknown;
  /** The header line was printed. */
  printed: boolean;
  /** The title when the header was printed (a later title is shown with the status). */
  printedTitle: string;
  /** The last status printed. */
  printedStatus: ToolCallStatus | undefined;
  /** Keys of the content items already shown (each is shown once). */
  shown: Set<string>;
  /** A permission or question about this call is open. */
  asking: boolean;
  /** Its turn ended while it was still pending or running: no longer shown as active. */
  abandoned: boolean;
  /** The user rejected it in a permission box, or cancelled the box (Esc): it did not run. */
  notRun: NotRun | undefined;
  /** Set when the agent shows the call as a terminal. */
  terminal: TerminalState | undefined;
}

/**
 * Tool calls by id. `tool_call` creates (or replaces the known fields of) a call;
 * `tool_call_update` changes only the fields it carries, and `content` and `locations`
 * are replaced wholesale, as ACP says. A permission request's `toolCall` is an update too.
 */
export class ToolCallStore {
  private readonly calls = new Map<string, ToolCallState>();

  get(id: string): ToolCallState | undefined {
    return this.calls.get(id);
  }

  all(): ToolCallState[] {
    return [...this.calls.values()];
  }

  merge(update: ToolCall | ToolCallUpdate): ToolCallState {
    let state = this.calls.get(update.toolCallId);
    if (!state) {
      state = {
        id: update.toolCallId,
        title: "",
        kind: undefined,
        status: "pending",
        content: [],
        locations: [],
        rawInput: undefined,
        printed: false,
        printedTitle: "",
        printedStatus: undefined,
        shown: new Set(),
        asking: false,
        abandoned: false,
        notRun: undefined,
        terminal: undefined,
      };
      this.calls.set(update.toolCallId, state);
    }
    if (typeof update.title === "string") state.title = update.title;
    if (update.kind) state.kind = update.kind;
    if (update.status) state.status = update.status;
    if (Array.isArray(update.content)) state.content = update.content;
    if (Array.isArray(update.locations)) state.locations = update.locations;
    if (update.rawInput !== undefined && update.rawInput !== null) state.rawInput = update.rawInput;
    mergeTerminal(state, update._meta);
    return state;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Output is appended (each update carries what is new), then bounded. */
function mergeTerminal(state: ToolCallState, meta: unknown): void {
  if (!isRecord(meta)) return;
  const output = [meta.terminal_output, meta.terminal_output_delta].find(isRecord);
  const exit = meta.terminal_exit;
  if (!isRecord(meta.terminal_info) && !output && !isRecord(exit)) return;
  const terminal = (state.terminal ??= { output: "", dropped: 0, exit: undefined, printed: 0 });
  if (output && typeof output.data === "string") {
    terminal.output += output.data;
    if (terminal.output.length > TERMINAL_KEEP_CHARS) {
      // Whole lines go, or, when the kept end holds no line break, the front of the last line.
      const from = terminal.output.length - TERMINAL_KEEP_CHARS;
      const lineEnd = terminal.output.indexOf("\n", from);
      const cut = lineEnd >= 0 ? lineEnd + 1 : from;
      const gone = terminal.output.slice(0, cut).split("\n").length - 1;
      terminal.output = terminal.output.slice(cut);
      terminal.dropped += gone;
      terminal.printed = Math.max(0, terminal.printed - gone);
    }
  }
  if (isRecord(exit)) {
    terminal.exit = {
      exitCode: typeof exit.exit_code === "number" ? exit.exit_code : null,
      signal: typeof exit.signal === "string" ? exit.signal : null,
    };
  }
}

/** A call is worth a header once its input is known or it moved past `pending`. */
export function isDescribed(state: ToolCallState): boolean {
  if (state.status !== "pending") return true;
  const input = state.rawInput;
  return typeof input === "object" && input !== null && Object.keys(input).length > 0;
}

export function isActive(state: ToolCallState): boolean {
  return !state.abandoned && (state.status === "pending" || state.status === "in_progress");
}

/** Identity of a content item for "show once": a diff by its path, other items by value. */
export function contentKey(item: ToolCallContent): string {
  switch (item.type) {
    case "diff":
      return `diff:${item.path}`;
    case "terminal":
      return `terminal:${item.terminalId}`;
    default:
      return `content:${JSON.stringify(item.content)}`;
  }
}
