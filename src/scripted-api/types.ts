// Public types of the scripted Anthropic Messages API double.
// The JSON-loadable subset is validated by the zod schema in scenario.ts.

/** Text split into `chunks` deltas (a count), or streamed as the given deltas (their join is the text). */
export interface TextBlock {
  type: "text";
  text?: string;
  chunks?: number | string[];
}

/**
 * Streamed as thinking_delta(s) (a count, or the given deltas, which join to `thinking`) then
 * one signature_delta; a signature is made up when absent. An empty `thinking` is a
 * signature-only block, as the API sends when the thinking's display is omitted: no
 * thinking_delta at all.
 */
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
  chunks?: number | string[];
}

/** Streamed as input_json_delta chunks of JSON.stringify(input). */
export interface ToolUseBlock {
  type: "tool_use";
  id?: string;
  name: string;
  input: Record<string, unknown>;
  chunks?: number;
}

export type Block = TextBlock | ThinkingBlock | ToolUseBlock;

export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded";

export interface UsageSpec {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type RateLimitStatus = "allowed" | "allowed_warning" | "rejected";
export type RateLimitWindow = "five_hour" | "seven_day" | "seven_day_overage_included" | "overage";

/** One window's limiter reading, sent as the unified rate-limit headers (see rate-limits.ts). */
export interface RateLimitSpec {
  status: RateLimitStatus;
  /** The representative claim: the window the status is about. */
  window: RateLimitWindow;
  /** Fraction of the window used, 0..1. */
  utilization?: number;
  /** When the window resets, epoch seconds. */
  resetsAt?: number;
  /** The warning threshold passed (e.g. 0.9); Claude Code warns when this is present. */
  surpassedThreshold?: number;
  overageStatus?: RateLimitStatus;
}

/** Extra response headers; explicit `headers` win over those `rateLimit` makes. */
export interface ReplyHeaders {
  rateLimit?: RateLimitSpec;
  headers?: Record<string, string>;
}

/** Answer with an HTTP error (Anthropic error body) instead of a message. */
export interface HttpFault extends ReplyHeaders {
  type: "http";
  status: number;
  message?: string;
  /** Overrides the error type derived from the status (e.g. "overloaded_error"). */
  errorType?: string;
  /** The error body's `error.details` (e.g. `{ error_code: "verification_required" }`). */
  details?: Record<string, unknown>;
  /** Seconds for the retry-after header (sent on 429 and 529; default 1). */
  retryAfterSeconds?: number;
  /** Consecutive main requests answered with this fault (default 1). */
  repeat?: number;
}

/** Stream the turn, then destroy the socket after `afterEvents` SSE events. */
export interface CutFault {
  type: "cut";
  /** Default: right after the first content delta. */
  afterEvents?: number;
  repeat?: number;
}

/** Stream the turn, then send an SSE `error` event after `afterEvents` events and end. */
export interface StreamErrorFault {
  type: "stream-error";
  errorType?: string;
  message?: string;
  afterEvents?: number;
  repeat?: number;
}

export interface Turn extends ReplyHeaders {
  content: Block[];
  /** Default: "tool_use" when a tool_use block is present, else "end_turn". */
  stopReason?: StopReason;
  stopSequence?: string;
  usage?: UsageSpec;
  /** Pause before each content delta (slow stream). */
  delayMs?: number;
  /** Pause before the response headers. */
  firstByteDelayMs?: number;
  fault?: CutFault | StreamErrorFault;
}

export interface HttpFaultTurn {
  fault: HttpFault;
}

/** A step of a script as written in JSON. */
export type ScriptTurn = Turn | HttpFaultTurn;

/** TypeScript-only: compute the reply from what the model was sent. */
export type TurnFunction = (request: RecordedRequest) => ScriptTurn | Promise<ScriptTurn>;

export type TurnSpec = ScriptTurn | TurnFunction;

export type RequestKind = "main" | "side" | "count_tokens" | "other";

export interface RecordedRequest {
  index: number;
  method: string;
  /** Path without the query string. */
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or null when absent or not JSON. */
  body: unknown;
  kind: RequestKind;
  /** Index (0-based) of the script step this request consumed. */
  step?: number;
  /** True when the script was exhausted and the fallback text was sent. */
  fallback?: boolean;
  /** From the x-claude-code-session-id header. */
  sessionId?: string;
  /** Claude Code marks subagent requests with cc_is_subagent=true in its billing system block. */
  subagent?: boolean;
  receivedAt: number;
}

/** What a classifier sees; body is the parsed JSON request. */
export interface ClassifyInput {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Scenario {
  name?: string;
  turns: TurnSpec[];
  /** Text of the end_turn reply once the script is exhausted (default "Done."). */
  fallbackText?: string;
  /** Override the main/side rule; return undefined to fall back to the default rule. */
  classify?: (input: ClassifyInput) => "main" | "side" | undefined;
  /** Override the neutral side answer; return undefined to use the default. */
  sideReply?: (request: RecordedRequest) => Turn | undefined;
}

/** JSON form of a scenario (also accepted: a bare array of turns). */
export interface ScenarioJson {
  name?: string;
  turns: ScriptTurn[];
  fallbackText?: string;
}

export type CursorScope = "server" | "session";

export interface ScriptedApiOptions {
  /** Default 0 (ephemeral). */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** "server": one script position for all requests; "session": one per x-claude-code-session-id. */
  cursor?: CursorScope;
  /** Called as each request is recorded (before it is answered). */
  onRequest?: (request: RecordedRequest) => void;
  /**
   * Acting as an LLM gateway: a request without this header (name in lower case, exact
   * value) is answered 401, as a gateway refuses an unknown caller.
   */
  requireHeader?: { name: string; value: string };
  /** `GET /v1/models` lists these (Anthropic's models endpoint); without them it is a 404. */
  models?: ReadonlyArray<{ id: string; display_name?: string }>;
}

export interface ToolResult {
  tool_use_id: string;
  content: unknown;
  is_error: boolean;
  /** The text blocks of `content` joined with newlines (or `content` when it is a string). */
  text: string;
}
