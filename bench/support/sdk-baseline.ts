// The direct-SDK baseline: one `query()` of @anthropic-ai/claude-agent-sdk in this process,
// in streaming-input mode, started with the options the agent gives Claude Code (see
// src/claude/sdk-query.ts and src/session/session.ts: the claude_code preset, the user,
// project and local settings, partial messages, default mode, AskUserQuestion disabled
// for a client without forms, TODO tools on) and a `canUseTool` that allows at once.
// What the agent adds on top of this is what the ratios measure. For session start there
// is also the SDK's own prewarmed spare (prewarm() then claim()), the baseline of the
// agent's spare.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import {
  prewarm,
  query,
  type CanUseTool,
  type Options,
  type Query,
  type SDKMessage,
  type SDKUserMessage,
  type SpareProcess,
} from "@anthropic-ai/claude-agent-sdk";
import { resolveClaudeExecutable } from "../../src/claude/executable.js";
import { hostOptions } from "../../src/claude/sdk-query.js";
import { hostQueryOptions } from "../../src/session/configuration/claude-env.js";
import { AsyncQueue } from "../../src/util/async-queue.js";

export type MessageListener = (message: SDKMessage, at: number) => void;

/**
 * What a Claude Code process is started with and keeps for life (what a prewarmed spare
 * is fixed to): the agent's own host options, for a client without forms, so the baseline
 * cannot drift from what the agent runs.
 */
export function baselineHostOptions(env: Record<string, string>, canUseTool: CanUseTool): Options {
  const host = hostQueryOptions({
    executable: resolveClaudeExecutable(env),
    env,
    client: {},
  });
  return { ...hostOptions({ ...host, cwd: "", canUseTool }), stderr: () => undefined };
}

/** Host options plus the session's own, for a new process. */
export function baselineOptions(
  cwd: string,
  env: Record<string, string>,
  canUseTool: CanUseTool,
): Options {
  return {
    ...baselineHostOptions(env, canUseTool),
    cwd,
    sessionId: randomUUID(),
    additionalDirectories: [],
    permissionMode: "default",
  };
}

/** Allows every tool at once, as a client answering allow-once does. */
export const allowAll: CanUseTool = (_tool, input) =>
  Promise.resolve({ behavior: "allow", updatedInput: input });

/** A parked Claude Code process; its permission callback forwards to the claiming query. */
export interface BaselineSpare {
  process: SpareProcess;
  owner: CanUseTool | undefined;
}

/** Starts a spare as the agent does and resolves once it is ready to be claimed. */
export async function prewarmBaseline(env: Record<string, string>): Promise<BaselineSpare> {
  const spare: Partial<BaselineSpare> = {};
  const canUseTool: CanUseTool = (tool, input, context) =>
    spare.owner
      ? spare.owner(tool, input, context)
      : Promise.resolve({ behavior: "deny", message: "unclaimed" });
  spare.process = await prewarm({ options: baselineHostOptions(env, canUseTool) });
  return spare as BaselineSpare;
}

export interface BaselineTurn {
  sentAt: number;
  endedAt: number;
  result: Extract<SDKMessage, { type: "result" }>;
}

/** A streamed piece of the model's text: what "first text" times. */
export function isTextDelta(message: SDKMessage): boolean {
  return (
    message.type === "stream_event" &&
    message.event.type === "content_block_delta" &&
    message.event.delta.type === "text_delta"
  );
}

export class BaselineQuery {
  readonly query: Query;
  /** performance.now() just before query() was called. */
  readonly startedAt: number;
  permissionsAnswered = 0;
  /** performance.now() of each canUseTool call, in order. */
  readonly permissionTimes: number[] = [];
  private readonly input = new AsyncQueue<SDKUserMessage>();
  private readonly listeners = new Set<MessageListener>();
  private readonly ended: Promise<void>;
  private failure: unknown;

  /** A new Claude Code process: query(). */
  constructor(options: { cwd: string; env: Record<string, string> });
  /** A prewarmed spare claimed for `cwd` (see `prewarmBaseline`). */
  constructor(options: { cwd: string; spare: BaselineSpare });
  constructor(options: { cwd: string; env?: Record<string, string>; spare?: BaselineSpare }) {
    const canUseTool: CanUseTool = (tool, input, context) => {
      this.permissionTimes.push(performance.now());
      this.permissionsAnswered++;
      return allowAll(tool, input, context);
    };
    this.startedAt = performance.now();
    if (options.spare) {
      options.spare.owner = canUseTool;
      this.query = options.spare.process.claim({
        prompt: this.input,
        options: { cwd: options.cwd, permissionMode: "default" },
      });
    } else {
      this.query = query({
        prompt: this.input,
        options: baselineOptions(options.cwd, options.env ?? {}, canUseTool),
      });
    }
    this.ended = this.pump();
  }

  onMessage(listener: MessageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  send(text: string): void {
    this.input.push({
      type: "user",
      message: { role: "user", content: [{ type: "text", text }] },
      parent_tool_use_id: null,
    });
  }

  /** Sends a prompt and resolves at its `result` message. */
  turn(text: string): Promise<BaselineTurn> {
    return new Promise((resolve, reject) => {
      let sentAt = 0;
      const off = this.onMessage((message, at) => {
        if (message.type !== "result") return;
        off();
        resolve({ sentAt, endedAt: at, result: message });
      });
      void this.ended.then(() => {
        off();
        reject(new Error(`the baseline query ended: ${String(this.failure)}`));
      });
      sentAt = performance.now();
      this.send(text);
    });
  }

  close(): void {
    this.input.close();
    this.query.close();
  }

  private async pump(): Promise<void> {
    try {
      for await (const message of this.query) {
        const at = performance.now();
        for (const listener of this.listeners) listener(message, at);
      }
    } catch (error) {
      this.failure = error;
    }
  }
}
