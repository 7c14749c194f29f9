// A saved conversation as one row of a listing, read as Claude Code's own listing reads it:
// the first and last 64 KB of its transcript only, whatever its size. The rules follow the
// SDK's `listSessions` (a title Claude Code or the user gave, else the last prompt, a
// summary, the first prompt); a row whose title needs Claude Code's markup rules (a command,
// a tag in the first prompt, an image) is left to the SDK. e2e-history pins the two together.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { SDKSessionInfo as ClaudeSessionInfo } from "@anthropic-ai/claude-agent-sdk";

/** How much of each end of a transcript a listing reads (as Claude Code's own listing). */
export const END_BYTES = 64 * 1024;

export interface TranscriptEnds {
  head: string;
  tail: string;
  /** Milliseconds since the epoch, as the listing reports it. */
  mtime: number;
  size: number;
}

const buffer = Buffer.allocUnsafe(END_BYTES);

/**
 * The first and last END_BYTES of a file (one read when it is smaller). Synchronous: each
 * is one small read from the page cache, which costs less than the thread-pool round trips
 * of asynchronous reads (a 50-row page reads in ~10 ms instead of ~50).
 */
export function readEnds(path: string): TranscriptEnds | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const read = (position: number) => {
      let got = 0;
      while (got < END_BYTES) {
        const bytes = readSync(fd, buffer, got, END_BYTES - got, position + got);
        if (bytes <= 0) break;
        got += bytes;
      }
      return buffer.toString("utf8", 0, got);
    };
    const head = read(0);
    if (!head) return undefined;
    const tailAt = Math.max(0, stats.size - END_BYTES);
    const tail = tailAt > 0 ? read(tailAt) : head;
    return { head, tail, mtime: stats.mtime.getTime(), size: stats.size };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A line's `key` when the line is a JSON object of that `type`; null when it does not parse. */
function valueIn(line: string, key: string, type: string | undefined): string | undefined | null {
  try {
    const entry: unknown = JSON.parse(line);
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
    const record = entry as Record<string, unknown>;
    if (type !== undefined && record.type !== type) return undefined;
    const value = record[key];
    return typeof value === "string" ? value : undefined;
  } catch {
    return null;
  }
}

/** The whole line holding position `at`, and where it starts. */
function lineAt(text: string, at: number): { line: string; start: number } {
  const start = text.lastIndexOf("\n", at) + 1;
  const newline = text.indexOf("\n", at);
  return { line: text.slice(start, newline < 0 ? text.length : newline), start };
}

/**
 * The last line's `key` (of an entry of `type`, when given). `lenient`: a line that does not
 * parse is tried again from its last `{"type":"<type>"` (two entries run together).
 */
export function lastValue(
  text: string,
  key: string,
  type?: string,
  lenient = false,
): string | undefined {
  const types =
    type === undefined
      ? undefined
      : lenient
        ? [`"type":"${type}"`, `"type": "${type}"`]
        : [`"type":"${type}"`];
  const needle = `"${key}":`;
  // From the last line holding the key back: jump from one occurrence to the one before.
  let from = text.length;
  while (from >= 0) {
    const at = text.lastIndexOf(needle, from);
    if (at < 0) break;
    const { line, start } = lineAt(text, at);
    if (!types || types.some((t) => line.includes(t))) {
      let value = valueIn(line, key, type);
      if (value === null && lenient && types) {
        const brace = line.lastIndexOf(`{${types[0]}`);
        value =
          brace > 0 && !":,[".includes(line.charAt(brace - 1))
            ? valueIn(line.slice(brace), key, type)
            : null;
      }
      if (typeof value === "string") return value;
    }
    if (start === 0) break;
    from = start - 1;
  }
  return undefined;
}

/** The first `"key":"…"` string anywhere in the text, unescaped. */
export function firstString(text: string, key: string): string | undefined {
  for (const opening of [`"${key}":"`, `"${key}": "`]) {
    const at = text.indexOf(opening);
    if (at < 0) continue;
    const start = at + opening.length;
    for (let i = start; i < text.length; i++) {
      if (text[i] === "\\") {
        i++;
        continue;
      }
      if (text[i] === '"') {
        try {
          return JSON.parse(`"${text.slice(start, i)}"`) as string;
        } catch {
          return text.slice(start, i);
        }
      }
    }
  }
  return undefined;
}

/** How long a first prompt may be as a title (then cut, with an ellipsis). */
const PROMPT_TITLE = 200;

/** Cut to `length` UTF-16 units, never halving a surrogate pair. */
function cut(text: string, length: number): string {
  const part = text.slice(0, length);
  const last = part.charCodeAt(length - 1);
  return last >= 0xd800 && last <= 0xdbff ? part.slice(0, -1) : part;
}

/** A first prompt with markup: Claude Code's listing alone knows its title. */
export const MARKUP = Symbol("markup");

const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]/;

/**
 * The first prompt a person typed, as a listing titles a conversation by it: the first
 * user message that is no tool result, meta message or compaction summary, its text on one
 * line, cut to PROMPT_TITLE. MARKUP when a prompt holds markup (commands, tags), whose
 * rules Claude Code's listing alone knows.
 */
export function firstPrompt(head: string): string | undefined | typeof MARKUP {
  for (const line of head.split("\n")) {
    if (!line.includes('"type":"user"') && !line.includes('"type": "user"')) continue;
    if (line.includes('"tool_result"')) continue;
    if (/"isMeta": ?true|"isCompactSummary": ?true/.test(line)) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof entry !== "object" || entry === null) continue;
    const { type, isMeta, isCompactSummary, message } = entry as Record<string, unknown>;
    if (type !== "user" || isMeta === true || isCompactSummary === true) continue;
    const content = (message as { content?: unknown } | undefined)?.content;
    const texts: string[] = [];
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content)) {
      for (const block of content as unknown[]) {
        if (typeof block !== "object" || block === null) continue;
        const { type: kind, text } = block as Record<string, unknown>;
        if (kind === "tool_result") return undefined;
        if (kind === "text" && typeof text === "string") texts.push(text);
      }
    }
    for (const text of texts) {
      if (text.includes("<")) return MARKUP;
      const one = text.replaceAll("\n", " ").trim();
      if (!one || INTERRUPTED.test(one)) continue;
      return one.length > PROMPT_TITLE ? `${cut(one, PROMPT_TITLE).trim()}\u2026` : one;
    }
  }
  return undefined;
}

/**
 * A listed conversation, with whether its last turn failed on an API error (from its tail),
 * and whether it works in a git worktree Claude Code made for it (`claude --worktree`).
 */
export type ClaudeSessionRow = ClaudeSessionInfo & {
  lastTurnFailed?: boolean;
  agentWorktree?: boolean;
};

/**
 * Whether the last `worktree-state` record of the text says Claude Code made the worktree
 * the session works in (it records one on entering or leaving a worktree, and again with the
 * session's metadata at the transcript's end); undefined when the text holds none.
 */
export function madeWorktree(text: string): boolean | undefined {
  for (let at = text.lastIndexOf('"worktree-state"'); at >= 0;) {
    const { line, start } = lineAt(text, at);
    try {
      const entry = JSON.parse(line) as { type?: unknown; worktreeSession?: unknown };
      if (entry.type === "worktree-state") {
        const made = entry.worktreeSession as { enteredExisting?: unknown } | null | undefined;
        return typeof made === "object" && made !== null && made.enteredExisting !== true;
      }
    } catch {
      // a torn line: the one before decides
    }
    at = start > 0 ? text.lastIndexOf('"worktree-state"', start - 1) : -1;
  }
  return undefined;
}

/** Whether the transcript's last assistant entry is Claude Code's record of an API error. */
export function lastTurnFailed(tail: string): boolean {
  const needle = '"type":"assistant"';
  const at = tail.lastIndexOf(needle);
  if (at < 0) return false;
  try {
    const entry = JSON.parse(lineAt(tail, at).line) as {
      isApiErrorMessage?: unknown;
    };
    return entry.isApiErrorMessage === true;
  } catch {
    return false;
  }
}

/**
 * The row of a transcript: `null` when Claude Code's listing leaves it out (a subagent's
 * transcript), `"first-prompt"` when its title needs rules only Claude Code's listing knows.
 */
export function rowOf(
  sessionId: string,
  ends: TranscriptEnds,
): ClaudeSessionRow | null | "first-prompt" {
  const { head, tail } = ends;
  const newline = head.indexOf("\n");
  const first = newline >= 0 ? head.slice(0, newline) : head;
  if (first.includes('"isSidechain":true') || first.includes('"isSidechain": true')) return null;
  const title =
    lastValue(tail, "customTitle", "custom-title", true) ||
    lastValue(head, "customTitle", "custom-title", true) ||
    lastValue(tail, "aiTitle", "ai-title", true) ||
    lastValue(head, "aiTitle", "ai-title", true) ||
    undefined;
  const known = title || lastValue(tail, "lastPrompt") || lastValue(tail, "summary");
  const prompt = known ? undefined : firstPrompt(head);
  const summary = known || prompt;
  const cwd = lastValue(tail, "relocatedCwd", "relocated") || firstString(head, "cwd");
  if (!summary || summary === MARKUP || !cwd) return "first-prompt";
  return {
    sessionId,
    summary,
    lastModified: ends.mtime,
    fileSize: ends.size,
    ...(title ? { customTitle: title } : {}),
    cwd,
    ...(lastTurnFailed(tail) ? { lastTurnFailed: true } : {}),
    ...((madeWorktree(tail) ?? madeWorktree(head)) ? { agentWorktree: true } : {}),
  };
}
