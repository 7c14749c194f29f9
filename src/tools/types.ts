import type {
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";

/** How one Claude tool use looks to an ACP client: the same for updates and permission asks. */
export interface ToolInfo {
  name: string;
  kind: ToolKind;
  title: string;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
}

export interface ToolContext {
  /** The session's working directory, for relative display paths. */
  cwd: string;
}

/** Tool input as Claude produced it; renderers read it defensively. */
export type ToolInput = Record<string, unknown>;

/** A family's rendering of one tool use; the tool name lets one family serve several tools. */
export type ToolRenderer = (
  input: ToolInput,
  context: ToolContext,
  name: string,
) => Omit<ToolInfo, "name">;

/** A `tool_result` block as Claude Code reports it in a user message. */
export interface ToolResultBlock {
  tool_use_id: string;
  content?: string | ReadonlyArray<ToolResultPart>;
  is_error?: boolean;
}

/** One part of a tool result's content: text, an image, a document... */
export interface ToolResultPart {
  type: string;
  text?: string;
  source?: unknown;
}

/** What a family's result renderer sees of a finished tool call. */
export interface ToolResultView {
  name: string;
  input: ToolInput;
  block: ToolResultBlock;
  /** `tool_use_result` of the user message: the tool's structured output, if any. */
  structured: unknown;
}

/** What a successful result changes on the tool call; empty content keeps what was shown. */
export type ResultRendering = Pick<ToolCallUpdate, "title" | "locations"> & {
  content: ToolCallContent[];
};

export type ResultRenderer = (result: ToolResultView) => ResultRendering;

/** One Claude tool family: how its tool uses look and how its results look. */
export interface ToolFamily {
  render: ToolRenderer;
  /** Absent: the result's own text and images are shown. */
  result?: ResultRenderer;
  /** Absent: the error text is shown literally, fenced. */
  error?: ResultRenderer;
}
