// Turn -> Messages API wire shapes: the SSE event list for streaming requests and the
// Message object for non-streaming ones. Pure functions, so they are easy to test.
import { createHash } from "node:crypto";
import type { Block, StopReason, Turn } from "./types.js";

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface RenderContext {
  messageId: string;
  model: string;
  /** Default tool_use ids are `toolu_<idPrefix>_<block index>`, e.g. toolu_s3_0 for step 3. */
  idPrefix: string;
  inputTokens: number;
  /** The lifetime the request asked of its cache entries (`cache_control.ttl`), as the API bills the writes. */
  cacheTtl: "5m" | "1h";
}

export function frame(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** Split by code points into `n` nearly equal non-empty pieces. */
export function splitInto(text: string, n: number): string[] {
  const chars = Array.from(text);
  const count = Math.max(1, Math.min(n, chars.length));
  const size = Math.ceil(chars.length / count);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out.length > 0 ? out : [""];
}

// A few deltas per block by default, so consumers exercise their accumulation code.
function defaultChunks(text: string): number {
  return Math.max(1, Math.min(4, Math.ceil(text.length / 20)));
}

function textDeltas(block: Extract<Block, { type: "text" }>): string[] {
  if (Array.isArray(block.chunks)) return block.chunks;
  const text = block.text ?? "";
  return splitInto(text, block.chunks ?? defaultChunks(text));
}

/** A signature-only block (empty thinking) has none, as the API sends it. */
function thinkingDeltas(block: Extract<Block, { type: "thinking" }>): string[] {
  if (Array.isArray(block.chunks)) return block.chunks;
  if (!block.thinking) return [];
  return splitInto(block.thinking, block.chunks ?? defaultChunks(block.thinking));
}

export function blockText(block: Extract<Block, { type: "text" }>): string {
  return Array.isArray(block.chunks) ? block.chunks.join("") : (block.text ?? "");
}

/** Real signatures are opaque base64; derive one from the thinking so replies are reproducible. */
export function makeSignature(thinking: string): string {
  const a = createHash("sha512").update(`scripted-signature:${thinking}`).digest();
  const b = createHash("sha256").update(a).digest();
  return Buffer.concat([Buffer.from([0x12, 0x60]), a, b]).toString("base64");
}

export function toolUseId(ctx: RenderContext, blockIndex: number): string {
  return `toolu_${ctx.idPrefix}_${blockIndex}`;
}

export function stopReasonOf(turn: Turn): StopReason {
  return (
    turn.stopReason ?? (turn.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn")
  );
}

function outputTokens(turn: Turn): number {
  if (turn.usage?.output_tokens !== undefined) return turn.usage.output_tokens;
  const chars = turn.content.reduce((sum, b) => {
    if (b.type === "text") return sum + blockText(b).length;
    if (b.type === "thinking") return sum + b.thinking.length;
    return sum + JSON.stringify(b.input).length;
  }, 0);
  return Math.max(1, Math.ceil(chars / 4));
}

function usage(turn: Turn, ctx: RenderContext, output: number): Record<string, unknown> {
  return {
    input_tokens: turn.usage?.input_tokens ?? ctx.inputTokens,
    output_tokens: output,
    cache_creation_input_tokens: turn.usage?.cache_creation_input_tokens ?? 0,
    cache_creation: cacheCreation(turn.usage?.cache_creation_input_tokens ?? 0, ctx.cacheTtl),
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? 0,
    service_tier: "standard",
  };
}

/** The API's split of the cache writes by lifetime: all at the lifetime the request asked. */
function cacheCreation(tokens: number, ttl: RenderContext["cacheTtl"]): Record<string, number> {
  return {
    ephemeral_5m_input_tokens: ttl === "5m" ? tokens : 0,
    ephemeral_1h_input_tokens: ttl === "1h" ? tokens : 0,
  };
}

/** "1h" when any of the request's cache breakpoints asks for an hour, as Claude Code's do with 1h caching on. */
export function requestedCacheTtl(body: unknown): RenderContext["cacheTtl"] {
  return /"cache_control":\{[^}]*"ttl":"1h"/.test(JSON.stringify(body)) ? "1h" : "5m";
}

function stopDetails(reason: StopReason): Record<string, unknown> | null {
  return reason === "refusal" ? { type: "refusal", category: null, explanation: null } : null;
}

function messageShell(ctx: RenderContext): Record<string, unknown> {
  return { id: ctx.messageId, type: "message", role: "assistant", model: ctx.model };
}

/** The complete content blocks, as a non-streaming Message carries them. */
export function contentOf(turn: Turn, ctx: RenderContext): Record<string, unknown>[] {
  return turn.content.map((b, i) => {
    switch (b.type) {
      case "text":
        return { type: "text", text: blockText(b), citations: null };
      case "thinking":
        return {
          type: "thinking",
          thinking: b.thinking,
          signature: b.signature ?? makeSignature(b.thinking),
        };
      case "tool_use":
        return { type: "tool_use", id: b.id ?? toolUseId(ctx, i), name: b.name, input: b.input };
    }
  });
}

export function turnToMessage(turn: Turn, ctx: RenderContext): Record<string, unknown> {
  const reason = stopReasonOf(turn);
  return {
    ...messageShell(ctx),
    content: contentOf(turn, ctx),
    stop_reason: reason,
    stop_sequence: turn.stopSequence ?? null,
    stop_details: stopDetails(reason),
    container: null,
    usage: usage(turn, ctx, outputTokens(turn)),
  };
}

export function turnToEvents(turn: Turn, ctx: RenderContext): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (data: Record<string, unknown> & { type: string }) =>
    events.push({ event: data.type, data });
  const delta = (index: number, d: Record<string, unknown>) =>
    push({ type: "content_block_delta", index, delta: d });

  push({
    type: "message_start",
    message: {
      ...messageShell(ctx),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: usage(turn, ctx, 1),
    },
  });
  turn.content.forEach((b, index) => {
    switch (b.type) {
      case "text":
        push({
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "", citations: null },
        });
        for (const text of textDeltas(b)) delta(index, { type: "text_delta", text });
        break;
      case "thinking":
        push({
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        });
        for (const thinking of thinkingDeltas(b)) {
          delta(index, { type: "thinking_delta", thinking });
        }
        delta(index, {
          type: "signature_delta",
          signature: b.signature ?? makeSignature(b.thinking),
        });
        break;
      case "tool_use": {
        const id = b.id ?? toolUseId(ctx, index);
        push({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id, name: b.name, input: {} },
        });
        const json = JSON.stringify(b.input);
        for (const partial_json of splitInto(json, b.chunks ?? Math.min(3, json.length))) {
          delta(index, { type: "input_json_delta", partial_json });
        }
        break;
      }
    }
    push({ type: "content_block_stop", index });
  });
  const reason = stopReasonOf(turn);
  push({
    type: "message_delta",
    delta: {
      stop_reason: reason,
      stop_sequence: turn.stopSequence ?? null,
      stop_details: stopDetails(reason),
    },
    usage: { output_tokens: outputTokens(turn) },
  });
  push({ type: "message_stop" });
  return events;
}
