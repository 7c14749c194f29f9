// The request log, waiting on it, and helpers to read what the model was sent.
import type { RecordedRequest, ToolResult } from "./types.js";
import { isRecord } from "../util/records.js";

interface Waiter {
  n: number;
  resolve: (requests: RecordedRequest[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class Recorder {
  readonly requests: RecordedRequest[] = [];
  private waiters = new Set<Waiter>();

  add(request: RecordedRequest): void {
    this.requests.push(request);
    this.settle();
  }

  forget(): void {
    this.requests.length = 0;
  }

  main(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === "main");
  }

  /** Resolves with the main requests once at least `n` have arrived. */
  waitForMain(n: number, timeoutMs: number): Promise<RecordedRequest[]> {
    const now = this.main();
    if (now.length >= n) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        n,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new Error(
              `timed out after ${timeoutMs}ms waiting for ${n} main requests (got ${this.main().length})`,
            ),
          );
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Fail pending waits, so a closed server never leaves a test hanging. */
  close(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new Error("scripted API closed"));
    }
    this.waiters.clear();
  }

  private settle(): void {
    if (this.waiters.size === 0) return;
    const main = this.main();
    for (const w of this.waiters) {
      if (main.length >= w.n) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve(main);
      }
    }
  }
}

function messagesOf(request: RecordedRequest): Record<string, unknown>[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter(isRecord);
}

function textOf(content: unknown, skipReminders = false): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (b): b is Record<string, unknown> =>
        isRecord(b) && b.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text as string)
    .filter(
      (t) => !(skipReminders && /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/.test(t)),
    )
    .join("\n");
}

/** Every tool_result block in the request's messages, in order. */
/** The tool results of the request's last message: what answers the model's last tool uses. */
export function lastToolResults(request: RecordedRequest): ToolResult[] {
  const last = messagesOf(request).at(-1);
  return last ? toolResults({ ...request, body: { messages: [last] } }) : [];
}

export function toolResults(request: RecordedRequest): ToolResult[] {
  const out: ToolResult[] = [];
  for (const m of messagesOf(request)) {
    if (m.role !== "user" || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (!isRecord(b) || b.type !== "tool_result" || typeof b.tool_use_id !== "string") continue;
      out.push({
        tool_use_id: b.tool_use_id,
        content: b.content,
        is_error: b.is_error === true,
        text: textOf(b.content),
      });
    }
  }
  return out;
}

/**
 * Text of the last user message, without the blocks that are wholly a <system-reminder>
 * (Claude Code prepends those to the prompt). "" when that message only holds tool results.
 */
export function lastUserText(request: RecordedRequest): string {
  const last = messagesOf(request).findLast((m) => m.role === "user");
  return last ? textOf(last.content, true) : "";
}

/**
 * The system prompt text: the `system` field plus any `role: "system"` messages
 * (Claude Code 2.1 moves its environment section, cwd included, into such a message).
 */
export function systemText(request: RecordedRequest): string {
  const parts = isRecord(request.body) ? [textOf(request.body.system)] : [];
  for (const m of messagesOf(request)) if (m.role === "system") parts.push(textOf(m.content));
  return parts.filter((p) => p !== "").join("\n");
}
